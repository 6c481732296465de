import { asc } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { affirmations, panels } from '../../../db/schema/panels'
import type { Language } from '../../../domain/i18n'
import type { PanelDetail, PanelSummary } from '../../../domain/panels'
import { AppError } from '../../errors'
import { presentPanelDetail, presentPanelSummary } from './presenter'

/**
 * Panels and affirmations are reference data: the seeds write them as the server starts and
 * nothing changes them while it runs. They are read once per database and served from memory
 * (both languages' long texts were read on every request to send one language's short list).
 */
const contentOfDatabase = new WeakMap<Database, Promise<Content>>()

interface Content {
  panels: (typeof panels.$inferSelect)[]
  affirmations: (typeof affirmations.$inferSelect)[]
}

function contentOf(db: Database): Promise<Content> {
  let content = contentOfDatabase.get(db)
  if (!content) {
    content = Promise.all([
      db.select().from(panels).orderBy(asc(panels.position)),
      db.select().from(affirmations).orderBy(asc(affirmations.position)),
    ]).then(([panelRows, affirmationRows]) => ({
      panels: panelRows,
      affirmations: affirmationRows,
    }))
    // A failed read (the database restarting) is tried again by the next request.
    content.catch(() => contentOfDatabase.delete(db))
    contentOfDatabase.set(db, content)
  }
  return content
}

/** All panels in their order; free to read. */
export async function listPanels(db: Database, language: Language): Promise<PanelSummary[]> {
  const { panels: rows } = await contentOf(db)
  return rows.map((row) => presentPanelSummary(row, language))
}

/** One panel with its info and ingredients; free to read. */
export async function getPanel(db: Database, id: string, language: Language): Promise<PanelDetail> {
  const row = (await contentOf(db)).panels.find((panel) => panel.id === id)
  if (!row) throw new AppError(404, 'panels.notFound')
  return presentPanelDetail(row, language)
}

/** The nine affirmations in their order; free to read. */
export async function listAffirmations(db: Database, language: Language): Promise<string[]> {
  const { affirmations: rows } = await contentOf(db)
  return rows.map((row) => row.text[language])
}
