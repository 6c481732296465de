import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FastifyServerOptions } from 'fastify'

// Small things several server test files need. No test-runner imports, like the rest of support.

const made: string[] = []
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

/**
 * A directory with no built client in it, so a test does not depend on whether dist/ exists.
 * Removed when the test process ends.
 */
export function emptyClientDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'harmonize-client-'))
  made.push(dir)
  return dir
}

export type LogLine = { level: number; msg: string; [key: string]: unknown }

/** A pino configuration that keeps every line at `level` and up in memory instead of printing it. */
export function captureLogs(level = 'info'): {
  lines: LogLine[]
  logger: FastifyServerOptions['logger']
} {
  const lines: LogLine[] = []
  return {
    lines,
    logger: { level, stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
  }
}

/**
 * Runs every cleanup step in order even when one fails, then throws the first failure, so one
 * broken close does not leave the other apps and databases of a test behind.
 */
export async function runEveryStep(steps: (() => Promise<void> | void)[]): Promise<void> {
  const failures: unknown[] = []
  for (const step of steps) {
    try {
      await step()
    } catch (error) {
      failures.push(error)
    }
  }
  if (failures.length > 0) throw failures[0]
}
