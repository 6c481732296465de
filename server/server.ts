import { rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app'
import { ConfigError, loadConfig } from './config'
import { DataDirLockedError, DataDirPermissionError, serverInfoFile } from './data-dir'

const SHUTDOWN_GRACE_MS = 10_000

function fail(message: string): never {
  process.stderr.write(`\n${message}\n\n`)
  process.exit(1)
}

async function main(): Promise<FastifyInstance> {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) fail(`Harmonize cannot start. ${error.message}`)
    throw error
  }

  let app: Awaited<ReturnType<typeof buildApp>>
  try {
    app = await buildApp(config)
  } catch (error) {
    if (
      error instanceof DataDirLockedError ||
      error instanceof DataDirPermissionError ||
      error instanceof ConfigError
    ) {
      fail(`Harmonize cannot start. ${error.message}`)
    }
    throw error
  }

  let closing = false
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) {
      app.log.warn({ signal }, 'second signal: exiting now')
      process.exit(1)
    }
    closing = true
    app.log.info({ signal }, 'shutting down: finishing in-flight requests')
    const timer = setTimeout(() => {
      app.log.error('requests did not finish in time; exiting')
      process.exit(1)
    }, SHUTDOWN_GRACE_MS)
    timer.unref()
    try {
      await app.close()
      process.exit(0)
    } catch (error) {
      app.log.error({ err: error }, 'error while shutting down')
      process.exit(1)
    }
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)

  const infoFile = serverInfoFile(config.dataDir)
  app.addHook('onClose', async () => rmSync(infoFile, { force: true }))
  await app.listen({ port: config.PORT, host: config.HOST })
  const { port } = app.server.address() as AddressInfo
  // Local tools (npm run cli) find the running server here.
  const localHost = ['0.0.0.0', '::', 'localhost'].includes(config.HOST) ? '127.0.0.1' : config.HOST
  writeFileSync(
    infoFile,
    JSON.stringify({
      url: `http://${localHost.includes(':') ? `[${localHost}]` : localHost}:${port}`,
      pid: process.pid,
    }),
  )
  const url = config.PUBLIC_URL ? config.publicUrl : `http://localhost:${port}`
  process.stdout.write(`\nHarmonize is running at ${url}\n\n`)
  return app
}

/**
 * The app once it listens. The end-to-end harness runs the server in its own process and
 * reaches the same app through this to make test data (tests/e2e/support/serve.ts).
 */
export const running: Promise<FastifyInstance> = main()

running.catch((error) => {
  process.stderr.write(
    `Harmonize failed to start: ${error instanceof Error ? error.stack : error}\n`,
  )
  process.exit(1)
})
