// Keys of queries that one part of the app refreshes for another: billing's plan query
// (plan-query.ts) asks for access again once a charge is answered, without depending on the
// access feature.

export const accessQueryKey = ['access'] as const
