// Keys of queries that one part of the app reads or refreshes for another: billing's plan query
// (plan-query.ts) asks for access again once a charge is answered, without depending on the
// access feature; the header names a panel from its query (app/layout/header.tsx).

export const accessQueryKey = ['access'] as const

/** One panel's texts in a language (lib/panel-queries.ts panelQuery). */
export const panelQueryKey = (id: string, language: string) => ['panel', id, language] as const
