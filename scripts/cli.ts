// The operator command: `npm run cli -- codes create [--count N] [--note TEXT]`, `codes list`,
// `codes revoke CODE`, `media add FILE [--panel ID] [--backing]`, `media list`, `media remove KEY`.
// It takes the same environment as `npm start`. With PostgreSQL it talks to
// the database; with the embedded database it opens it when no server runs, and otherwise goes
// through the running server (loopback only, with the token kept in DATA_DIR), because PGlite
// allows one process at a time.
import { existsSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { type Database, openDatabase } from '../db/client'
import { seedReferenceData } from '../db/seed/index'
import type { OperatorCode } from '../domain/access-codes'
import type { OperatorMedia } from '../domain/media'
import { ConfigError, loadConfig } from '../server/config'
import { DataDirLockedError, loadSecrets, lockDataDir, serverInfoFile } from '../server/data-dir'
import { AppError } from '../server/errors'
import { createCodes, listCodes, revokeCode } from '../server/features/access/service'
import { addMedia, listMedia, removeMedia } from '../server/features/panels/media'
import { translate } from '../server/i18n'
import { createStorage } from '../server/plugins/storage'

const USAGE = `Usage:
  npm run cli -- codes create [--count N] [--note TEXT]   prints each new code on its own line
  npm run cli -- codes list                              every code and its state
  npm run cli -- codes revoke CODE                       the code stops giving access
  npm run cli -- media add FILE [--panel ID] [--backing] stores a video or backing track, prints its key
  npm run cli -- media list                              every media file
  npm run cli -- media remove KEY                        deletes the file and its record`

interface Operations {
  createCodes(count: number, note?: string): Promise<string[]>
  listCodes(): Promise<OperatorCode[]>
  revokeCode(code: string): Promise<boolean>
  addMedia(
    name: string,
    data: Buffer,
    panelId: string | null,
    backing: boolean,
  ): Promise<OperatorMedia>
  listMedia(): Promise<OperatorMedia[]>
  removeMedia(key: string): Promise<boolean>
}

class UsageError extends Error {}

// Storage is the same store the server uses (DATA_DIR/files or the S3 bucket), opened directly.
async function directOperations(
  db: Database,
  config: ReturnType<typeof loadConfig>,
): Promise<Operations> {
  const storage = await createStorage(config)
  return {
    createCodes: (count, note) => createCodes(db, count, note),
    listCodes: () => listCodes(db),
    revokeCode: (code) => revokeCode(db, code),
    addMedia: (name, data, panelId, backing) =>
      addMedia(db, storage, { name, data, panelId, backing }),
    listMedia: () => listMedia(db),
    removeMedia: (key) => removeMedia(db, storage, key),
  }
}

function serverOperations(url: string, token: string): Operations {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const raw = Buffer.isBuffer(body)
    const response = await fetch(`${url}/api/operator${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'accept-language': 'en',
        ...(body ? { 'content-type': raw ? 'application/octet-stream' : 'application/json' } : {}),
      },
      body: raw ? new Uint8Array(body) : body ? JSON.stringify(body) : undefined,
    })
    if (!response.ok) {
      // The server's own sentence (e.g. an unsupported file type) says more than a status.
      const message = await response
        .json()
        .then((answer) => (answer as { message?: string }).message)
        .catch(() => undefined)
      throw new Error(message ?? `The running server refused the request (${response.status}).`)
    }
    return (await response.json()) as T
  }
  return {
    createCodes: async (count, note) =>
      (await call<{ codes: string[] }>('POST', '/codes', { count, note })).codes,
    listCodes: async () => (await call<{ codes: OperatorCode[] }>('GET', '/codes')).codes,
    revokeCode: async (code) =>
      (await call<{ revoked: boolean }>('POST', `/codes/${encodeURIComponent(code)}/revoke`))
        .revoked,
    addMedia: async (name, data, panelId, backing) => {
      const query = new URLSearchParams({ name, backing: String(backing) })
      if (panelId) query.set('panelId', panelId)
      return (await call<{ media: OperatorMedia }>('POST', `/media?${query}`, data)).media
    },
    listMedia: async () => (await call<{ media: OperatorMedia[] }>('GET', '/media')).media,
    removeMedia: async (key) =>
      (await call<{ removed: boolean }>('POST', '/media/remove', { key })).removed,
  }
}

async function runMedia(
  operations: Operations,
  action: string | undefined,
  target: string | undefined,
  values: { panel?: string; backing?: boolean },
) {
  if (action === 'add') {
    if (!target) throw new UsageError('Name the file to add: media add FILE')
    if (values.panel !== undefined && !/^\d{2}$/.test(values.panel)) {
      throw new UsageError('--panel must be a panel id such as 01.')
    }
    const data = await readFile(target)
    const media = await operations.addMedia(
      path.basename(target),
      data,
      values.panel ?? null,
      values.backing ?? false,
    )
    console.log(media.key)
    return
  }
  if (action === 'list') {
    const files = await operations.listMedia()
    if (files.length === 0) console.log('No media files yet. Add one with: media add FILE')
    for (const file of files) {
      console.log(
        [
          file.key,
          file.kind.padEnd(7),
          file.panelId ?? 'all',
          file.contentType,
          String(file.size),
          file.createdAt.slice(0, 10),
        ].join('  '),
      )
    }
    return
  }
  if (action === 'remove') {
    if (!target) throw new UsageError('Name the media key to remove: media remove KEY')
    if (!(await operations.removeMedia(target))) throw new Error(`${target} is not a media file.`)
    console.log(`Removed ${target}`)
    return
  }
  throw new UsageError(`Unknown action "${action ?? ''}".`)
}

async function run(operations: Operations, args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      count: { type: 'string' },
      note: { type: 'string' },
      panel: { type: 'string' },
      backing: { type: 'boolean' },
    },
  })
  const [group, action, target] = positionals
  if (group === 'media') return runMedia(operations, action, target, values)
  if (group !== 'codes') throw new UsageError(`Unknown command "${group ?? ''}".`)
  if (action === 'create') {
    const count = values.count === undefined ? 1 : Number(values.count)
    if (!Number.isInteger(count) || count < 1 || count > 500) {
      throw new UsageError('--count must be a whole number from 1 to 500.')
    }
    for (const code of await operations.createCodes(count, values.note)) console.log(code)
    return
  }
  if (action === 'list') {
    const codes = await operations.listCodes()
    if (codes.length === 0) console.log('No access codes yet. Create some with: codes create')
    for (const code of codes) {
      console.log(
        [
          code.code,
          code.status.padEnd(9),
          code.createdAt.slice(0, 10),
          code.redeemedBy ?? '-',
          code.note ?? '',
        ]
          .join('  ')
          .trimEnd(),
      )
    }
    return
  }
  if (action === 'revoke') {
    if (!target) throw new UsageError('Name the code to revoke: codes revoke CODE')
    if (!(await operations.revokeCode(target))) {
      throw new Error(`${target} is not an active code (unknown or already revoked).`)
    }
    console.log(`Revoked ${target.trim().toUpperCase()}`)
    return
  }
  throw new UsageError(`Unknown action "${action ?? ''}".`)
}

async function main(args: string[]) {
  const config = loadConfig()
  const runDirectly = async () => {
    const handle = await openDatabase(config.database)
    try {
      await handle.migrate()
      // Media may name a panel, so the panels must exist even before the first server start.
      await seedReferenceData(handle.db)
      await run(await directOperations(handle.db, config), args)
    } finally {
      await handle.close()
    }
  }
  if (config.database.kind === 'postgres') return runDirectly()
  let release: () => void
  try {
    release = lockDataDir(config.dataDir)
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error
    const info = serverInfoFile(config.dataDir)
    if (!existsSync(info)) {
      throw new Error('Another Harmonize process holds DATA_DIR but is not serving yet; try again.')
    }
    const { url } = JSON.parse(readFileSync(info, 'utf8')) as { url: string }
    const { cliToken } = loadSecrets(config.dataDir, {})
    await run(serverOperations(url, cliToken), args)
    return
  }
  try {
    await runDirectly()
  } finally {
    release()
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`)
  else if (error instanceof AppError) console.error(translate(error.messageKey, 'en'))
  else if (error instanceof ConfigError) console.error(error.message)
  else console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
