// Sums `npm test` (reports/summary.json) and the PostgreSQL integration run into the closing
// line CI reads: `N passed, N failed`.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { add, type Counts, vitestCounts } from './test-report'

const reports = path.resolve(import.meta.dirname, '../reports')
const summaryFile = path.join(reports, 'summary.json')
let total: Counts = existsSync(summaryFile)
  ? JSON.parse(readFileSync(summaryFile, 'utf8')).total
  : { passed: 0, failed: 1 }
const postgres = vitestCounts(path.join(reports, 'vitest-postgres.json')) ?? {
  passed: 0,
  failed: 1,
}
process.stdout.write(
  `PostgreSQL integration run: ${postgres.passed} passed, ${postgres.failed} failed\n`,
)
total = add(total, postgres)
process.stdout.write(`${total.passed} passed, ${total.failed} failed\n`)
