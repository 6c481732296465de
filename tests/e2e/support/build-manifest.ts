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
  // A group's chunk has no source module; a lazy module of the same name is another chunk.
  const chunks = Object.values(manifest).filter((candidate) =>
    'src' in find ? candidate.src === find.src : candidate.name === find.name && !candidate.src,
  )
  expect(chunks, `the build has one chunk of ${JSON.stringify(find)}`).toHaveLength(1)
  return `/${chunks[0]?.file}`
}
