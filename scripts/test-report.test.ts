import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { playwrightCounts, playwrightFailures, vitestCounts, vitestFailures } from './test-report'

// The reports come from the real runners, run on two small files in a scratch folder: the
// format is theirs, and a new version that changes it should fail here, not in CI's last lines.
const root = path.resolve(import.meta.dirname, '..')
const bin = (name: string) => path.join(root, 'node_modules/.bin', name)
const runnerEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && key !== 'NODE_ENV'),
)

let scratch = ''
afterEach(() => rmSync(scratch, { recursive: true, force: true }))

function write(files: Record<string, string>) {
  scratch = mkdtempSync(path.join(tmpdir(), 'harmonize-report-'))
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(scratch, name), text)
}

// Each starts a test runner, which on a busy machine can take several seconds.
describe('the failed-test lines at the end of a CI log', { timeout: 60_000 }, () => {
  it('name each failed Vitest test with its file, its groups and the error', () => {
    const vitest = path.join(root, 'node_modules/vitest/dist/index.js')
    write({
      'sum.test.ts': `import { describe, expect, it } from '${vitest}'
describe('sums', () => {
  describe('of two', () => {
    it('adds two numbers', () => { expect(1 + 1).toBe(3) })
  })
  it('adds nothing', () => { expect(0 + 0).toBe(0) })
})`,
      'broken.test.ts': `throw new Error('cannot load this file')`,
      // A failed hook leaves its tests skipped: the file still counts, and says why.
      'hook.test.ts': `import { beforeAll, it } from '${vitest}'
beforeAll(() => { throw new Error('the database refused') })
it('never runs', () => {})`,
    })
    const report = path.join(scratch, 'vitest.json')
    spawnSync(
      bin('vitest'),
      ['run', '--root', scratch, '--reporter=json', `--outputFile.json=${report}`],
      { cwd: scratch, env: runnerEnv },
    )

    const lines = vitestFailures(report)
    expect(lines).toHaveLength(3)
    expect(lines.find((line) => line.includes('sum.test.ts'))).toMatch(
      /sum\.test\.ts › sums › of two › adds two numbers: .*expected 2 to be 3/,
    )
    expect(lines.find((line) => line.includes('broken.test.ts'))).toMatch(/cannot load this file/)
    expect(lines.find((line) => line.includes('hook.test.ts'))).toMatch(
      /hook\.test\.ts: the database refused/,
    )
    expect(vitestCounts(report)).toEqual({ passed: 1, failed: 3 })
  })

  it('name each failed Playwright test with its project, place, groups and error', () => {
    write({
      'sum.spec.ts': `import { expect, test } from '${path.join(root, 'node_modules/@playwright/test/index.mjs')}'
test.describe('sums', () => {
  test('adds two numbers', () => { expect(1 + 1).toBe(3) })
  test('adds nothing', () => { expect(0 + 0).toBe(0) })
  test('passes the second time', ({}, info) => { expect(info.retry).toBe(1) })
})`,
      'playwright.config.mjs': `export default {
  testDir: '.',
  retries: 1,
  projects: [{ name: 'desktop' }],
  reporter: [['json', { outputFile: 'e2e.json' }]],
}`,
    })
    spawnSync(bin('playwright'), ['test', '-c', 'playwright.config.mjs'], {
      cwd: scratch,
      env: runnerEnv,
    })

    const report = path.join(scratch, 'e2e.json')
    const lines = playwrightFailures(report)
    expect(lines).toEqual([
      expect.stringMatching(/^\[desktop\] sum\.spec\.ts:3 › sums › adds two numbers: .*toBe/),
      expect.stringMatching(
        /^\[desktop\] sum\.spec\.ts:5 › sums › passes the second time \(flaky\): .*toBe/,
      ),
    ])
    expect(playwrightCounts(report)).toEqual({ passed: 1, failed: 2 })
  })

  it('are empty when a runner wrote no report', () => {
    expect(vitestFailures('/nonexistent/vitest.json')).toEqual([])
    expect(playwrightFailures('/nonexistent/e2e.json')).toEqual([])
  })
})
