// `npm test` and `npm run validate`: everything CI checks, in order, continuing past failures so
// one run shows every problem. Ends with the line `N passed, N failed`; non-zero exit on failure.
import { spawn } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import {
  add,
  type Counts,
  failureLines,
  playwrightCounts,
  playwrightFailures,
  printFailures,
  vitestCounts,
  vitestFailures,
} from './test-report'

const root = path.resolve(import.meta.dirname, '..')
const reports = path.join(root, 'reports')
const bin = (name: string) => path.join(root, 'node_modules/.bin', name)

interface Step {
  name: string
  command: string[]
  /**
   * Steps next to each other with the same group run at the same time, their output shown
   * whole once each ends: each is short and mostly single-threaded, so together they take
   * about as long as the longest.
   */
  group?: 'checks'

  /** Test counts from the step's report; steps without one count as a single check. */
  counts?: () => Counts | null
  /** A line per failed test, so the end of a long log says which ones. */
  failures?: () => string[]
}

const steps: Step[] = [
  {
    name: 'lint and format (Biome)',
    command: [bin('biome'), 'ci', '--error-on-warnings', '.'],
    group: 'checks',
  },
  {
    name: 'import boundaries',
    command: [process.execPath, '--import', 'tsx', 'scripts/check-imports.ts'],
    group: 'checks',
  },
  { name: 'typecheck (server)', command: [bin('tsc'), '-p', 'tsconfig.json'], group: 'checks' },
  {
    name: 'typecheck (client)',
    command: [bin('tsc'), '-p', 'client/tsconfig.json'],
    group: 'checks',
  },
  {
    name: 'typecheck (e2e)',
    command: [bin('tsc'), '-p', 'tests/e2e/tsconfig.json'],
    group: 'checks',
  },
  {
    name: 'build (client with Vite, server with esbuild)',
    command: [process.execPath, '--import', 'tsx', 'scripts/build.ts'],
    group: 'checks',
  },
  {
    name: 'unit and integration tests (Vitest)',
    command: [
      bin('vitest'),
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${path.join(reports, 'vitest.json')}`,
    ],
    counts: () => vitestCounts(path.join(reports, 'vitest.json')),
    failures: () => vitestFailures(path.join(reports, 'vitest.json')),
  },
  {
    name: 'bundle budget',
    command: [process.execPath, '--import', 'tsx', 'scripts/bench/bundle-size.ts'],
  },
  {
    name: 'end-to-end tests (Playwright, Chromium)',
    command: [bin('playwright'), 'test'],
    counts: () => playwrightCounts(path.join(reports, 'e2e.json')),
    failures: () => playwrightFailures(path.join(reports, 'e2e.json')),
  },
]

// The product ships on Node 24 (ADR 0019); tests on another Node would prove nothing about it.
const major = Number(process.versions.node.split('.')[0])
if (major < 24) {
  process.stderr.write(
    `npm test needs Node 24 or newer and runs on ${process.version}: run \`npm install\` first (it brings Node 24), then \`npm test\`.\n`,
  )
  process.exit(1)
}
process.stdout.write(`Node ${process.version}\n`)
rmSync(reports, { recursive: true, force: true })
mkdirSync(reports, { recursive: true })

let total: Counts = { passed: 0, failed: 0 }
const results: {
  step: string
  ok: boolean
  counts: Counts
  seconds: number
  failures: string[]
}[] = []
const started = Date.now()

/** Runs a step; with `quiet`, its output is kept and handed back instead of shown as it comes. */
function run(
  step: Step,
  quiet: boolean,
): Promise<{ ok: boolean; seconds: number; output: string }> {
  const [command = '', ...args] = step.command
  const stepStarted = Date.now()
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: quiet ? 'pipe' : 'inherit' })
    let output = ''
    const keep = (chunk: Buffer) => {
      output += chunk.toString()
    }
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
    const end = (ok: boolean) =>
      resolve({ ok, seconds: Math.round((Date.now() - stepStarted) / 1000), output })
    child.once('error', (error) => {
      output += `${error.message}\n`
      end(false)
    })
    child.once('close', (code) => end(code === 0))
  })
}

function record(step: Step, ok: boolean, seconds: number) {
  // A runner that crashed before writing its report still counts as one failure.
  const counts = step.counts?.() ?? (ok ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 })
  if (!ok && counts.failed === 0) counts.failed = 1
  total = add(total, counts)
  results.push({ step: step.name, ok, counts, seconds, failures: step.failures?.() ?? [] })
}

for (let at = 0; at < steps.length; ) {
  const first = steps[at] as Step
  let end = at + 1
  while (first.group && end < steps.length && steps[end]?.group === first.group) end += 1
  const batch = steps.slice(at, end)
  at = end
  if (batch.length === 1) {
    process.stdout.write(`\n▶ ${first.name}\n`)
    const { ok, seconds } = await run(first, false)
    record(first, ok, seconds)
    continue
  }
  const runs = batch.map((step) => run(step, true))
  for (const [index, step] of batch.entries()) {
    const { ok, seconds, output } = await (runs[index] as ReturnType<typeof run>)
    process.stdout.write(`\n▶ ${step.name} (beside ${batch.length - 1} others)\n${output}`)
    record(step, ok, seconds)
  }
}

function minutes(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}

process.stdout.write('\nSummary\n')
for (const { step, ok, counts, seconds } of results) {
  process.stdout.write(
    `  ${ok ? '✓' : '✗'} ${step}: ${counts.passed} passed, ${counts.failed} failed (${minutes(seconds)})\n`,
  )
}
process.stdout.write(`  all steps: ${minutes(Math.round((Date.now() - started) / 1000))}\n`)
const failures = failureLines(results)
printFailures(failures)
writeFileSync(
  path.join(reports, 'summary.json'),
  `${JSON.stringify({ total, results, failures }, null, 2)}\n`,
)
process.stdout.write(`${total.passed} passed, ${total.failed} failed\n`)
process.exit(results.every((r) => r.ok) ? 0 : 1)
