// The operator command: `npm run cli -- help` prints what it does (scripts/cli-commands.ts).
// It takes the same environment as `npm start`. With PostgreSQL it talks to
// the database; with the embedded database it opens it when no server runs, and otherwise goes
// through the running server (loopback only, with the token kept in DATA_DIR), because PGlite
// allows one process at a time.
import { createWriteStream, existsSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { type DatabaseHandle, openDatabase } from '../db/client'
import { BackupError, packBackup, restoreBackup } from '../server/backup'
import { ConfigError, loadConfig } from '../server/config'
import {
  DataDirLockedError,
  DataDirPermissionError,
  loadSecrets,
  lockDataDir,
  secureDataDir,
  serverInfoFile,
} from '../server/data-dir'
import { AppError } from '../server/errors'
import { translate } from '../server/i18n'
import { openPayments } from '../server/payments/plugin'
import { redisCache, shareCache } from '../server/plugins/cache'
import { connectRedis } from '../server/redis'
import { createStorage } from '../server/storage/plugin'
import {
  directOperate,
  type Operate,
  runCli,
  serverOperate,
  USAGE,
  UsageError,
} from './cli-commands'

// Storage is the same store the server uses (DATA_DIR/files or the S3 bucket), opened directly;
// payments through the same gateway (in sandbox mode, the sandbox's server on loopback for the
// command's run), closed when the command is done.
async function operateDirectly(
  { db, executeSql }: DatabaseHandle,
  config: ReturnType<typeof loadConfig>,
  args: string[],
): Promise<void> {
  const payments = await openPayments(config, db)
  // What the command changes (a payment advanced, a code revoked) is made stale in the cache
  // the servers share, as their own changes are; without Redis no server keeps a copy.
  const cache = config.REDIS_URL
    ? redisCache(
        await connectRedis(
          config.REDIS_URL,
          { error: (_details, message) => console.error(message), info: () => {} },
          'cache',
        ),
      )
    : null
  const unshare = cache ? shareCache(db, cache) : () => {}
  try {
    const operate: Operate = directOperate({
      db,
      executeSql,
      storage: await createStorage(config),
      payments: payments.gateway,
    })
    await runCli(operate, args)
  } finally {
    unshare()
    await cache?.close()
    await payments.close()
  }
}

const POSTGRES_BACKUP =
  'With PostgreSQL (DATABASE_URL), back up with its own tools: pg_dump --format=custom ' +
  '--file FILE "$DATABASE_URL", and bring a copy back with pg_restore.'

/**
 * `backup FILE`: taken here when no server holds the embedded database, else by the running
 * server (between two of its statements) and streamed here. Written beside FILE first, so a
 * failure never leaves half a backup under its name.
 */
async function backup(config: ReturnType<typeof loadConfig>, file: string | undefined) {
  if (!file) throw new UsageError('Name the file to write the backup to.')
  if (config.database.kind === 'postgres') throw new Error(POSTGRES_BACKUP)
  const target = path.resolve(file)
  if (existsSync(target)) throw new Error(`${target} exists already; name a new file.`)
  const partial = `${target}.partial`
  // The copy is taken after this moment, while the command waits: every row answered before it
  // is in the backup.
  const asked = new Date()
  let release: (() => void) | null = null
  try {
    release = lockDataDir(config.dataDir)
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error
  }
  try {
    if (release) {
      const handle = await openDatabase(config.database)
      try {
        const secrets = loadSecrets(config.dataDir, { authSecret: config.AUTH_SECRET })
        const data = await handle.dumpData?.()
        if (!data) throw new Error('This database cannot be backed up here.')
        await pipeline(packBackup(data, secrets), createWriteStream(partial, { mode: 0o600 }))
      } finally {
        await handle.close()
      }
    } else {
      const { url, token } = runningServer(config)
      const answer = await fetch(`${url}/api/operator/backup`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      })
      if (!answer.ok || !answer.body) {
        throw new Error(`The running server could not take the backup (${answer.status}).`)
      }
      await pipeline(
        Readable.fromWeb(answer.body as WebReadableStream),
        createWriteStream(partial, { mode: 0o600 }),
      )
    }
    renameSync(partial, target)
  } catch (error) {
    rmSync(partial, { force: true })
    throw error
  } finally {
    release?.()
  }
  const megabytes = (statSync(target).size / 1e6).toFixed(1)
  console.log(`Backup written to ${target} (${megabytes} MB), asked for at ${asked.toISOString()}.`)
}

/** `restore FILE`: into a DATA_DIR with no database, which no server is using. */
async function restore(config: ReturnType<typeof loadConfig>, file: string | undefined) {
  if (!file) throw new UsageError('Name the backup file to restore.')
  if (config.database.kind === 'postgres') throw new Error(POSTGRES_BACKUP)
  let release: () => void
  try {
    release = lockDataDir(config.dataDir)
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error
    throw new Error(
      `A Harmonize server is using ${config.dataDir}: stop it, then restore into an empty DATA_DIR.`,
    )
  }
  try {
    const about = await restoreBackup(config.dataDir, path.resolve(file))
    secureDataDir(config.dataDir)
    console.log(`Restored the backup taken at ${about.takenAt} into ${config.dataDir}.`)
  } finally {
    release()
  }
}

/** Where the server that holds DATA_DIR listens, and the token its operator routes ask for. */
function runningServer(config: ReturnType<typeof loadConfig>): { url: string; token: string } {
  const info = serverInfoFile(config.dataDir)
  if (!existsSync(info)) {
    throw new Error('Another Harmonize process holds DATA_DIR but is not serving yet; try again.')
  }
  const { url } = JSON.parse(readFileSync(info, 'utf8')) as { url: string }
  return { url, token: loadSecrets(config.dataDir, {}).cliToken }
}

async function main(args: string[]) {
  const config = loadConfig()
  if (args[0] === 'backup') return backup(config, args[1])
  if (args[0] === 'restore') return restore(config, args[1])
  const runDirectly = async () => {
    const handle = await openDatabase(config.database)
    try {
      // Media may name a panel, so the panels must exist even before the first server start.
      await handle.prepare()
      if (config.database.kind === 'pglite') secureDataDir(config.dataDir)
      await operateDirectly(handle, config, args)
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
    const { url, token } = runningServer(config)
    await runCli(serverOperate(url, token), args)
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
  else if (
    error instanceof ConfigError ||
    error instanceof DataDirPermissionError ||
    error instanceof BackupError
  )
    console.error(error.message)
  else console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
