import type { panels } from '../../../db/schema/panels'
import type { Language } from '../../../domain/i18n'
import type { PanelDetail, PanelSummary } from '../../../domain/panels'

// What leaves the server of a panel: one language's texts, none of the storage details.

export type PanelRow = typeof panels.$inferSelect

export function presentPanelSummary(row: PanelRow, language: Language): PanelSummary {
  return {
    id: row.id,
    name: row.name[language],
    description: row.description[language],
    icon: row.icon,
    palette: row.palette,
    solfeggioHz: row.solfeggioHz,
  }
}

export function presentPanelDetail(row: PanelRow, language: Language): PanelDetail {
  return {
    ...presentPanelSummary(row, language),
    info: row.info[language],
    ingredients: row.ingredients[language],
  }
}
