import type { harmonizeSessions } from '../../../db/schema/harmonize'
import type { RecentSession, SessionContent } from '../../../domain/harmonize'
import type { PanelDetail } from '../../../domain/panels'

// What leaves the server of a session: ISO times, the panel in the reader's language.

type SessionRow = typeof harmonizeSessions.$inferSelect

export function presentSessionContent(
  session: Pick<SessionRow, 'id' | 'startedAt'>,
  panel: PanelDetail,
  affirmations: string[],
): SessionContent {
  return { sessionId: session.id, startedAt: session.startedAt.toISOString(), panel, affirmations }
}

export function presentRecentSession(session: SessionRow, panelName: string): RecentSession {
  return {
    id: session.id,
    panelId: session.panelId,
    panelName,
    startedAt: session.startedAt.toISOString(),
    completedAt: session.completedAt?.toISOString() ?? null,
  }
}
