import { and, desc, eq } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { harmonizeSessions } from '../../../db/schema/harmonize'
import { panels } from '../../../db/schema/panels'
import type { RecentSession, SessionContent } from '../../../domain/harmonize'
import type { Language } from '../../../domain/i18n'
import { AppError } from '../../errors'
import { getPanel, listAffirmations } from '../panels/public'
import { presentRecentSession, presentSessionContent } from './presenter'

/**
 * Starts a session and answers what it shows. Access is checked before this runs (the route is
 * `paid`, see features/access/gate.ts).
 */
export async function startSession(
  db: Database,
  userId: string,
  panelId: string,
  language: Language,
): Promise<SessionContent> {
  const panel = await getPanel(db, panelId, language)
  const [session] = await db
    .insert(harmonizeSessions)
    .values({ userId, panelId })
    .returning({ id: harmonizeSessions.id, startedAt: harmonizeSessions.startedAt })
  if (!session) throw new Error('session insert returned no row')
  return presentSessionContent(session, panel, await listAffirmations(db, language))
}

/** Marks the user's own session completed (idempotent); someone else's is "not found". */
export async function completeSession(db: Database, userId: string, sessionId: number) {
  const [session] = await db
    .select()
    .from(harmonizeSessions)
    .where(and(eq(harmonizeSessions.id, sessionId), eq(harmonizeSessions.userId, userId)))
  if (!session) throw new AppError(404, 'harmonize.sessionNotFound')
  if (session.completedAt) return
  await db
    .update(harmonizeSessions)
    .set({ completedAt: new Date() })
    .where(eq(harmonizeSessions.id, sessionId))
}

/** The user's 20 most recent sessions. */
export async function recentSessions(
  db: Database,
  userId: string,
  language: Language,
): Promise<RecentSession[]> {
  const rows = await db
    .select({ session: harmonizeSessions, name: panels.name })
    .from(harmonizeSessions)
    .innerJoin(panels, eq(panels.id, harmonizeSessions.panelId))
    .where(eq(harmonizeSessions.userId, userId))
    .orderBy(desc(harmonizeSessions.startedAt), desc(harmonizeSessions.id))
    .limit(20)
  return rows.map(({ session, name }) => presentRecentSession(session, name[language]))
}
