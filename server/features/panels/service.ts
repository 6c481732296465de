import { asc, eq } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { affirmations, panels } from '../../../db/schema/panels'
import type { Language } from '../../../domain/i18n'
import type { PanelDetail, PanelSummary } from '../../../domain/panels'
import { AppError } from '../../errors'
import { presentPanelDetail, presentPanelSummary } from './presenter'

/** All panels in their order; free to read. */
export async function listPanels(db: Database, language: Language): Promise<PanelSummary[]> {
  const rows = await db.select().from(panels).orderBy(asc(panels.position))
  return rows.map((row) => presentPanelSummary(row, language))
}

/** One panel with its info and ingredients; free to read. */
export async function getPanel(db: Database, id: string, language: Language): Promise<PanelDetail> {
  const [row] = await db.select().from(panels).where(eq(panels.id, id))
  if (!row) throw new AppError(404, 'panels.notFound')
  return presentPanelDetail(row, language)
}

/** The nine affirmations in their order; free to read. */
export async function listAffirmations(db: Database, language: Language): Promise<string[]> {
  const rows = await db.select().from(affirmations).orderBy(asc(affirmations.position))
  return rows.map((row) => row.text[language])
}
