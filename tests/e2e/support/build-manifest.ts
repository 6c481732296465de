import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect } from '@playwright/test'

interface BuiltChunk {
  file: string
  name?: string
  src?: string
}

/**
 * The URL path of a chunk of the client build the e2e server serves, found in Vite's manifest by
 * its source module or by the name of its group in vite.config.ts, so a test that watches one
 * chunk follows it when the build is cut differently.
 */
export function builtChunkPath(find: { src: string } | { name: string }): string {
  const manifest = JSON.parse(
    readFileSync(
      path.join(import.meta.dirname, '../../../dist/client/.vite/manifest.json'),
      'utf8',
    ),
  ) as Record<string, BuiltChunk>
  const chunk = Object.values(manifest).find((candidate) =>
    'src' in find ? candidate.src === find.src : candidate.name === find.name,
  )
  expect(chunk, `the build has the chunk of ${JSON.stringify(find)}`).toBeDefined()
  return `/${chunk?.file}`
}
