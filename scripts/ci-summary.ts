// Sums `npm test` (reports/summary.json) and the PostgreSQL integration run into the closing
// line CI reads: `N passed, N failed`. The failed tests are named just above it, because CI may
// keep only the end of its log.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { add, type Counts, printFailures, vitestCounts, vitestFailures } from './test-report'

const reports = path.resolve(import.meta.dirname, '../reports')
const summaryFile = path.join(reports, 'summary.json')
const summary: { total: Counts; failures?: string[] } | null = existsSync(summaryFile)
  ? JSON.parse(readFileSync(summaryFile, 'utf8'))
  : null
let total: Counts = summary?.total ?? { passed: 0, failed: 1 }
const postgresReport = path.join(reports, 'vitest-postgres.json')
const postgres = vitestCounts(postgresReport) ?? { passed: 0, failed: 1 }
process.stdout.write(
  `PostgreSQL integration run: ${postgres.passed} passed, ${postgres.failed} failed\n`,
)
const scaleReport = path.join(reports, 'vitest-scale.json')
const scale = vitestCounts(scaleReport) ?? { passed: 0, failed: 1 }
process.stdout.write(
  `Scale test (two servers behind nginx): ${scale.passed} passed, ${scale.failed} failed\n`,
)
const failures = [
  ...(summary?.failures ?? []),
  ...vitestFailures(postgresReport).map((line) => `(PostgreSQL) ${line}`),
  ...vitestFailures(scaleReport).map((line) => `(scale) ${line}`),
]
if (!summary) failures.push('npm test wrote no summary: it stopped before its end')
if (!existsSync(postgresReport)) failures.push('the PostgreSQL run wrote no report')
if (!existsSync(scaleReport)) failures.push('the scale test wrote no report')
printFailures(failures)
total = add(add(total, postgres), scale)
process.stdout.write(`${total.passed} passed, ${total.failed} failed\n`)
