// A fresh PGlite directory costs an initdb in WebAssembly: 5–30 s on this machine, most of the
// start-up of a test server. A migrated and seeded one, made once per machine and copied, opens
// in 1–4 s. The copy is keyed by what shapes it (migrations, seed data, the database code and
// PGlite's version), so a change to any of them makes a new one.
import { createHash, randomBytes } from 'node:crypto'
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openDatabase } from '../../db/client'

const root = path.resolve(import.meta.dirname, '../..')

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort()
}

function templateKey(): string {
  const hash = createHash('sha256')
  // Its package.json is not exported: walk up from the entry point to find it.
  let pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  while (!existsSync(path.join(pglite, 'package.json'))) pglite = path.dirname(pglite)
  pglite = path.join(pglite, 'package.json')
  const sources = [
    ...filesUnder(path.join(root, 'db/migrations')),
    ...filesUnder(path.join(root, 'db/seed')),
    path.join(root, 'db/client.ts'),
    path.join(root, 'db/prepared.ts'),
    pglite,
  ]
  for (const file of sources) {
    hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0')
  }
  return hash.digest('hex').slice(0, 16)
}

/**
 * Fills `dir` (which must not exist yet) with a copy of a migrated, seeded PGlite database,
 * making the machine's template first when there is none for the current sources.
 */
export async function copyPgliteTemplate(dir: string): Promise<void> {
  const template = path.join(tmpdir(), `harmonize-pglite-${templateKey()}`)
  if (!existsSync(template)) {
    const building = `${template}.${process.pid}-${randomBytes(4).toString('hex')}`
    const database = await openDatabase({ kind: 'pglite', dir: building })
    try {
      await database.prepare()
    } finally {
      await database.close()
    }
    try {
      // Atomic: a concurrent maker either finds the finished template or loses this race.
      renameSync(building, template)
    } catch (error) {
      rmSync(building, { recursive: true, force: true })
      if (!existsSync(template)) throw error
    }
  }
  cpSync(template, dir, { recursive: true })
}
