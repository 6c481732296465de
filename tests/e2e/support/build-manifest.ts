import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect } from '@playwright/test'
import { CHUNK_MODULES_FILE } from '../../../scripts/chunk-groups'

interface BuiltChunk {
  file: string
  name?: string
  src?: string
  dynamicImports?: string[]
}

/**
 * The URL path of a chunk of the client build the e2e server serves, found in Vite's manifest by
 * its source module, by the name of its group (scripts/chunk-groups.ts), or as the one chunk a
 * lazy module loads with import() (`lazyFrom`); or the chunk that holds a module of ours
 * (`holding`, its path from the repository's root, in the build's list of chunk modules). A test
 * that watches one chunk follows it when the build is cut differently.
 */
export function builtChunkPath(
  find: { src: string } | { name: string } | { lazyFrom: string } | { holding: string },
): string {
  if ('holding' in find) {
    const modules = JSON.parse(
      readFileSync(
        path.join(import.meta.dirname, '../../../dist/client', CHUNK_MODULES_FILE),
        'utf8',
      ),
    ) as Record<string, string[]>
    const files = Object.keys(modules).filter((file) => modules[file]?.includes(find.holding))
    expect(files, `the build has one chunk holding ${find.holding}`).toHaveLength(1)
    return `/${files[0]}`
  }
  const manifest = JSON.parse(
    readFileSync(
      path.join(import.meta.dirname, '../../../dist/client/.vite/manifest.json'),
      'utf8',
    ),
  ) as Record<string, BuiltChunk>
  const chunks =
    'lazyFrom' in find
      ? (Object.values(manifest).find((chunk) => chunk.src === find.lazyFrom)?.dynamicImports ?? [])
          .map((key) => manifest[key])
          .filter((chunk) => chunk !== undefined)
      : // A group's chunk has no source module; a lazy module of the same name is another chunk.
        Object.values(manifest).filter((candidate) =>
          'src' in find
            ? candidate.src === find.src
            : candidate.name === find.name && !candidate.src,
        )
  expect(chunks, `the build has one chunk of ${JSON.stringify(find)}`).toHaveLength(1)
  return `/${chunks[0]?.file}`
}
