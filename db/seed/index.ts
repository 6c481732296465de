import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Database } from '../client'
import { affirmations, panels } from '../schema/panels'
import { AFFIRMATIONS, PANELS } from './panels-content'

export interface SeedReport {
  /** Rows inserted or changed; 0 on every start after the first unless the seed data changed. */
  changed: number
}

/** The rows the seed files stand for. */
function seedRows() {
  const panelRows = PANELS.map((panel, index) => ({
    id: panel.id,
    position: index + 1,
    solfeggioHz: panel.solfeggioHz,
    icon: panel.icon,
    palette: [...panel.palette] as [string, string, string],
    name: panel.name,
    description: panel.description,
    info: panel.info,
    ingredients: { en: [...panel.ingredients.en], es: [...panel.ingredients.es] },
  }))
  const affirmationRows = AFFIRMATIONS.map((item, index) => ({
    id: item.id,
    position: index + 1,
    text: item.text,
  }))
  return { panelRows, affirmationRows }
}

/** A hash of the rows the seed writes: it changes whenever they do. */
export function seedFingerprint(): string {
  return createHash('sha256').update(JSON.stringify(seedRows())).digest('hex')
}

/**
 * Brings reference data in line with the seed files. Idempotent: rows that already match are
 * not touched, so a second start writes nothing.
 */
export async function seedReferenceData(db: Database): Promise<SeedReport> {
  const { panelRows, affirmationRows } = seedRows()
  const panelColumns = [
    'position',
    'solfeggio_hz',
    'icon',
    'palette',
    'name',
    'description',
    'info',
    'ingredients',
  ]
  const writtenPanels = await db
    .insert(panels)
    .values(panelRows)
    .onConflictDoUpdate({
      target: panels.id,
      set: Object.fromEntries(
        panelColumns.map((column) => [toCamel(column), sql.raw(`excluded.${column}`)]),
      ),
      setWhere: sql.raw(
        `(${panelColumns.map((c) => `panel.${c}`).join(', ')}) is distinct from (${panelColumns
          .map((c) => `excluded.${c}`)
          .join(', ')})`,
      ),
    })
    .returning({ id: panels.id })

  const writtenAffirmations = await db
    .insert(affirmations)
    .values(affirmationRows)
    .onConflictDoUpdate({
      target: affirmations.id,
      set: { position: sql`excluded.position`, text: sql`excluded.text` },
      setWhere: sql`(${affirmations.position}, ${affirmations.text}) is distinct from (excluded.position, excluded.text)`,
    })
    .returning({ id: affirmations.id })

  return { changed: writtenPanels.length + writtenAffirmations.length }
}

const toCamel = (column: string) =>
  column.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase())
