import {
  createReadStream,
  existsSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { extract, pack } from 'tar-stream'
import { z } from 'zod/mini'
import { restorePglite } from '../db/client'
import type { Secrets } from './data-dir'

// A backup of the embedded database (`npm run cli -- backup FILE`): one tar file holding what
// tells it apart (its format, when it was taken) with the secrets of the DATA_DIR it came from,
// and the database's files as PGlite dumps them. The secrets travel with it because the
// database holds values sealed with them (an operator's authenticator key); a backup is as
// private as the DATA_DIR it copies. Uploaded files (DATA_DIR/files) are not in it.

const FORMAT = 'harmonize-backup/1'
const ABOUT = 'harmonize-backup.json'
const DATABASE = 'pgdata.tar.gz'

const aboutSchema = z.object({
  format: z.literal(FORMAT),
  takenAt: z.string(),
  secrets: z.object({ authSecret: z.string(), cliToken: z.string() }),
})
export type BackupAbout = z.infer<typeof aboutSchema>

export class BackupError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BackupError'
  }
}

/** The backup as a stream of bytes: what it is, then the database. */
export function packBackup(database: Blob, secrets: Secrets, takenAt = new Date()): Readable {
  const archive = pack()
  const about: BackupAbout = {
    format: FORMAT,
    takenAt: takenAt.toISOString(),
    secrets: { authSecret: secrets.authSecret, cliToken: secrets.cliToken },
  }
  void (async () => {
    archive.entry({ name: ABOUT, mode: 0o600 }, `${JSON.stringify(about, null, 2)}\n`)
    const bytes = Buffer.from(await database.arrayBuffer())
    archive.entry({ name: DATABASE, mode: 0o600 }, bytes)
    archive.finalize()
  })().catch((error: unknown) => archive.destroy(error as Error))
  return Readable.from(archive)
}

/** What a backup file holds, checked; a BackupError in words when it is not one of ours. */
export async function readBackup(file: string): Promise<{ about: BackupAbout; database: Blob }> {
  const entries = new Map<string, Buffer>()
  const reading = extract()
  try {
    const done = (async () => {
      for await (const entry of reading) {
        if (entry.header.name === ABOUT || entry.header.name === DATABASE) {
          entries.set(entry.header.name, await buffer(entry))
        } else {
          entry.resume()
        }
      }
    })()
    createReadStream(file)
      .on('error', (error) => reading.destroy(error))
      .pipe(reading)
    await done
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new BackupError(`There is no file ${file}.`)
    }
    throw new BackupError(`${file} is not a Harmonize backup (it cannot be read as one).`)
  }
  const aboutBytes = entries.get(ABOUT)
  const database = entries.get(DATABASE)
  let about: ReturnType<typeof aboutSchema.safeParse> | null = null
  try {
    about = aboutBytes ? aboutSchema.safeParse(JSON.parse(aboutBytes.toString('utf8'))) : null
  } catch {
    about = null
  }
  if (!about?.success || !database) {
    throw new BackupError(`${file} is not a Harmonize backup (${FORMAT}).`)
  }
  return { about: about.data, database: new Blob([new Uint8Array(database)]) }
}

/**
 * Brings a backup back into `dataDir`, which must hold no database (a server using it holds
 * its lock, which the caller took). The secrets come back with it, so sessions, links and
 * operators' authenticators work as before.
 */
export async function restoreBackup(dataDir: string, file: string): Promise<BackupAbout> {
  const databaseDir = path.join(dataDir, 'pgdata')
  if (existsSync(databaseDir) && readdirSync(databaseDir).length > 0) {
    throw new BackupError(
      `${dataDir} already holds a database: restore into an empty DATA_DIR (or move ${databaseDir} away first).`,
    )
  }
  const { about, database } = await readBackup(file)
  // Laid out beside it and renamed once whole: a restore that fails half-way leaves no
  // database a server would open, and can be run again.
  const restoring = `${databaseDir}.restoring`
  rmSync(restoring, { recursive: true, force: true })
  try {
    await restorePglite(restoring, database)
  } catch (error) {
    rmSync(restoring, { recursive: true, force: true })
    throw error
  }
  rmSync(databaseDir, { recursive: true, force: true })
  renameSync(restoring, databaseDir)
  writeFileSync(path.join(dataDir, 'secrets.json'), `${JSON.stringify(about.secrets, null, 2)}\n`, {
    mode: 0o600,
  })
  return about
}
