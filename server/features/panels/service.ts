import { and, asc, desc, eq } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { affirmations, harmonizeSessions, panels } from '../../../db/schema/panels'
import type { Language } from '../../../domain/i18n'
import type { PanelDetail, PanelSummary, SessionContent } from '../../../domain/panels'
import { AppError } from '../../errors'
import { accessOf } from '../access/service'

type PanelRow = typeof panels.$inferSelect

function presentSummary(row: PanelRow, language: Language): PanelSummary {
  return {
    id: row.id,
    name: row.name[language],
    description: row.description[language],
    icon: row.icon,
    palette: row.palette,
    solfeggioHz: row.solfeggioHz,
  }
}

function presentDetail(row: PanelRow, language: Language): PanelDetail {
  return {
    ...presentSummary(row, language),
    info: row.info[language],
    ingredients: row.ingredients[language],
  }
}

/** All panels in their order; free to read. */
export async function listPanels(db: Database, language: Language): Promise<PanelSummary[]> {
  const rows = await db.select().from(panels).orderBy(asc(panels.position))
  return rows.map((row) => presentSummary(row, language))
}

/** One panel with its info and ingredients; free to read. */
export async function getPanel(db: Database, id: string, language: Language): Promise<PanelDetail> {
  const [row] = await db.select().from(panels).where(eq(panels.id, id))
  if (!row) throw new AppError(404, 'panels.notFound')
  return presentDetail(row, language)
}

/**
 * Starts a session: refused with 402 'Sorry, no payment found yet.' without access. Records the
 * start and answers what the session shows.
 */
export async function startSession(
  db: Database,
  userId: string,
  panelId: string,
  language: Language,
): Promise<SessionContent> {
  const panel = await getPanel(db, panelId, language)
  if (!(await accessOf(db, userId)).hasAccess) throw new AppError(402, 'access.noPayment')
  const [session] = await db
    .insert(harmonizeSessions)
    .values({ userId, panelId })
    .returning({ id: harmonizeSessions.id, startedAt: harmonizeSessions.startedAt })
  if (!session) throw new Error('session insert returned no row')
  return {
    sessionId: session.id,
    startedAt: session.startedAt.toISOString(),
    panel,
    affirmations: await listAffirmations(db, language),
  }
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
export async function recentSessions(db: Database, userId: string, language: Language) {
  const rows = await db
    .select({ session: harmonizeSessions, name: panels.name })
    .from(harmonizeSessions)
    .innerJoin(panels, eq(panels.id, harmonizeSessions.panelId))
    .where(eq(harmonizeSessions.userId, userId))
    .orderBy(desc(harmonizeSessions.startedAt), desc(harmonizeSessions.id))
    .limit(20)
  return rows.map(({ session, name }) => ({
    id: session.id,
    panelId: session.panelId,
    panelName: name[language],
    startedAt: session.startedAt.toISOString(),
    completedAt: session.completedAt?.toISOString() ?? null,
  }))
}

/** The nine affirmations in their order; free to read. */
export async function listAffirmations(db: Database, language: Language): Promise<string[]> {
  const rows = await db.select().from(affirmations).orderBy(asc(affirmations.position))
  return rows.map((row) => row.text[language])
}
