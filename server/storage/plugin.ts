import path from 'node:path'
import fp from 'fastify-plugin'
import { type Config, ConfigError } from '../config'
import { createLocalStorage, removeAbandonedTempFiles } from './local'
import type { Storage } from './storage'

// Picks the backend for the configuration. Only the composition roots (the app and the operator
// command) import this file; features take the contract (./storage.ts) from `app.storage`.

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage
  }
}

/**
 * A write takes seconds at most, so a temp file this old was left by a process that died
 * mid-write. A younger one may be another process's write in flight: with PostgreSQL the
 * operator command and several servers can share these files.
 */
const SHARED_TEMP_FILE_AGE_MS = 60 * 60 * 1000

/**
 * The store for the configuration: local files under `<DATA_DIR>/files` (cleared of abandoned
 * temp files first), or an S3-compatible bucket with STORAGE_URL (the config schema has already
 * required region and keys with it). The S3 client is loaded only then: it is large and most
 * installations never need it.
 */
export async function createStorage(
  config: Pick<
    Config,
    | 'STORAGE_URL'
    | 'S3_ENDPOINT'
    | 'S3_REGION'
    | 'S3_ACCESS_KEY_ID'
    | 'S3_SECRET_ACCESS_KEY'
    | 'dataDir'
    | 'database'
  >,
): Promise<Storage> {
  if (!config.STORAGE_URL) {
    const root = path.join(config.dataDir, 'files')
    // With the embedded database this process holds DATA_DIR alone (its lock), so every temp
    // file there is a leftover; with PostgreSQL others may be writing beside it.
    await removeAbandonedTempFiles(
      root,
      config.database.kind === 'pglite' ? 0 : SHARED_TEMP_FILE_AGE_MS,
    )
    return createLocalStorage(root)
  }
  const { S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = config
  if (!S3_REGION || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY) {
    throw new ConfigError([
      'STORAGE_URL needs S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY as well.',
    ])
  }
  const { createS3Storage } = await import('./s3')
  return createS3Storage({
    url: config.STORAGE_URL,
    endpoint: config.S3_ENDPOINT,
    region: S3_REGION,
    accessKeyId: S3_ACCESS_KEY_ID,
    secretAccessKey: S3_SECRET_ACCESS_KEY,
  })
}

/** Decorates `app.storage` with the configured file store. */
export const storagePlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    app.decorate('storage', await createStorage(config))
  },
  { name: 'storage' },
)
