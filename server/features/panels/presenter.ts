import type { Language } from '../../../domain/i18n'
import type { PanelDetail, PanelSummary } from '../../../domain/panels'

// What leaves the server of a panel: one language's texts, none of the storage details.

type Localized = { en: string; es: string }

/**
 * What the presenters read of a panel: its row, or the seed's content it was written from (the
 * build prerenders the panel pages from that, scripts/prerender-pages.ts, and must say the same).
 */
export interface PanelSource {
  id: string
  solfeggioHz: number
  icon: string
  palette: readonly [string, string, string]
  name: Localized
  description: Localized
  info: Localized
  ingredients: { en: readonly string[]; es: readonly string[] }
}

export function presentPanelSummary(row: PanelSource, language: Language): PanelSummary {
  return {
    id: row.id,
    name: row.name[language],
    description: row.description[language],
    icon: row.icon,
    palette: [...row.palette],
    solfeggioHz: row.solfeggioHz,
  }
}

export function presentPanelDetail(row: PanelSource, language: Language): PanelDetail {
  return {
    ...presentPanelSummary(row, language),
    info: row.info[language],
    ingredients: [...row.ingredients[language]],
  }
}
