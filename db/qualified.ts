import { type Column, getTableName, type SQL, sql } from 'drizzle-orm'

/**
 * A column named with its table, always. Drizzle leaves the table out of a one-table select's
 * fields, so inside a subquery there an unqualified `"id"` would be the subquery's own table's.
 */
export const qualified = (column: Column): SQL =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`

/** Values as a parenthesised SQL list's inside, each a parameter: `in (${sqlList(values)})`. */
export const sqlList = (values: readonly string[]): SQL =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )
