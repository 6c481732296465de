import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

export interface Counts {
  passed: number
  failed: number
}

/** Test counts from Vitest's JSON reporter; null when the file was not written. */
export function vitestCounts(file: string): Counts | null {
  if (!existsSync(file)) return null
  const report = JSON.parse(readFileSync(file, 'utf8'))
  const brokenSuites = (report.testResults ?? []).filter(failedOutsideItsTests).length
  return { passed: report.numPassedTests ?? 0, failed: (report.numFailedTests ?? 0) + brokenSuites }
}

interface VitestSuite {
  name?: string
  status: string
  message?: string
  assertionResults?: {
    status: string
    ancestorTitles?: string[]
    title: string
    failureMessages?: string[]
  }[]
}

/**
 * A file that failed while none of its tests did: it did not load, or a hook failed (Vitest then
 * reports the hook's tests as skipped). It counts as one failure, since its tests never ran.
 */
function failedOutsideItsTests(suite: VitestSuite): boolean {
  return (
    suite.status === 'failed' &&
    !(suite.assertionResults ?? []).some((test) => test.status === 'failed')
  )
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

/**
 * The failures of a run, a line each, above the closing `N passed, N failed`: CI may keep only
 * the end of its log. A step without a report of its own (lint, types, build) is named whole.
 */
export function failureLines(results: { step: string; ok: boolean; failures: string[] }[]) {
  return results.flatMap((result) =>
    result.failures.length ? result.failures : result.ok ? [] : [`${result.step}: failed`],
  )
}

export function printFailures(lines: string[]): void {
  if (lines.length === 0) return
  process.stdout.write(`\nFailed\n${lines.map((line) => `  ✗ ${line}\n`).join('')}`)
}

const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

/** The first line of an error, short enough for CI's last lines. */
function firstLine(message: string | undefined): string {
  const line = (message ?? '').replace(ansi, '').trim().split('\n')[0] ?? ''
  return line.length > 400 ? `${line.slice(0, 399)}…` : line
}

/** One line per failed test in a Vitest JSON report: file › test: the error's first line. */
export function vitestFailures(file: string): string[] {
  if (!existsSync(file)) return []
  const report = JSON.parse(readFileSync(file, 'utf8'))
  const lines: string[] = []
  for (const suite of (report.testResults ?? []) as VitestSuite[]) {
    const name = path.relative(process.cwd(), suite.name ?? '')
    if (failedOutsideItsTests(suite)) {
      lines.push(`${name}: ${firstLine(suite.message) || 'failed outside its tests (a hook)'}`)
    }
    for (const test of suite.assertionResults ?? []) {
      if (test.status !== 'failed') continue
      const title = [...(test.ancestorTitles ?? []), test.title].join(' › ')
      lines.push(`${name} › ${title}: ${firstLine(test.failureMessages?.[0])}`)
    }
  }
  return lines
}

interface PlaywrightSuite {
  title?: string
  specs?: {
    title: string
    file: string
    line: number
    tests: { projectName: string; status: string; results: { error?: { message?: string } }[] }[]
  }[]
  suites?: PlaywrightSuite[]
}

/** One line per failed or flaky test in a Playwright JSON report, and one per load error. */
export function playwrightFailures(file: string): string[] {
  if (!existsSync(file)) return []
  const report = JSON.parse(readFileSync(file, 'utf8'))
  const lines: string[] = []
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue
        const error = test.results.find((result) => result.error)?.error?.message
        const title = [...titles, spec.title].join(' › ')
        const flaky = test.status === 'flaky' ? ' (flaky)' : ''
        lines.push(
          `[${test.projectName}] ${spec.file}:${spec.line} › ${title}${flaky}: ${firstLine(error)}`,
        )
      }
    }
    for (const child of suite.suites ?? [])
      walk(child, child.title ? [...titles, child.title] : titles)
  }
  // File-level suites are titled with the file name, which each line already carries.
  for (const fileSuite of report.suites ?? []) walk(fileSuite, [])
  for (const error of report.errors ?? []) {
    const where = error.location ? ` (${error.location.file}:${error.location.line})` : ''
    lines.push(`Playwright${where}: ${firstLine(error.message)}`)
  }
  return lines
}
