import { existsSync, readFileSync } from 'node:fs'

export interface Counts {
  passed: number
  failed: number
}

/** Test counts from Vitest's JSON reporter; null when the file was not written. */
export function vitestCounts(file: string): Counts | null {
  if (!existsSync(file)) return null
  const report = JSON.parse(readFileSync(file, 'utf8'))
  // Suites that failed to load count as failures too (their tests never ran).
  const brokenSuites = (report.testResults ?? []).filter(
    (suite: { status: string; assertionResults?: unknown[] }) =>
      suite.status === 'failed' && (suite.assertionResults?.length ?? 0) === 0,
  ).length
  return { passed: report.numPassedTests ?? 0, failed: (report.numFailedTests ?? 0) + brokenSuites }
}

/** Test counts from Playwright's JSON reporter; null when the file was not written. */
export function playwrightCounts(file: string): Counts | null {
  if (!existsSync(file)) return null
  const { stats, errors } = JSON.parse(readFileSync(file, 'utf8'))
  return {
    passed: stats?.expected ?? 0,
    failed: (stats?.unexpected ?? 0) + (stats?.flaky ?? 0) + (errors?.length ? 1 : 0),
  }
}

export function add(a: Counts, b: Counts): Counts {
  return { passed: a.passed + b.passed, failed: a.failed + b.failed }
}
