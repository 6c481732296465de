import { tmpdir } from 'node:os'
import path from 'node:path'

/** The data directory of the end-to-end server on E2E_PORT. */
export function e2eDataDir(): string {
  return path.join(tmpdir(), `harmonize-e2e-${process.env.E2E_PORT ?? 3111}`)
}
