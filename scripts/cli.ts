// The operator command: `npm run cli -- help` prints what it does (scripts/cli-commands.ts).
// It takes the same environment as `npm start`. With PostgreSQL it talks to
// the database; with the embedded database it opens it when no server runs, and otherwise goes
// through the running server (loopback only, with the token kept in DATA_DIR), because PGlite
// allows one process at a time.
import { existsSync, readFileSync } from 'node:fs'
import { type DatabaseHandle, openDatabase } from '../db/client'
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

async function main(args: string[]) {
  const config = loadConfig()
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
    const info = serverInfoFile(config.dataDir)
    if (!existsSync(info)) {
      throw new Error('Another Harmonize process holds DATA_DIR but is not serving yet; try again.')
    }
    const { url } = JSON.parse(readFileSync(info, 'utf8')) as { url: string }
    const { cliToken } = loadSecrets(config.dataDir, {})
    await runCli(serverOperate(url, cliToken), args)
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
  else if (error instanceof ConfigError || error instanceof DataDirPermissionError)
    console.error(error.message)
  else console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
