import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
// @ts-expect-error s3rver ships no type declarations; the little used here is typed below.
import S3rver from 's3rver'

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>
  close(): Promise<void>
}

export interface TestS3 {
  /** The variables that point Harmonize at this server (STORAGE_URL with a key prefix). */
  env: Record<string, string>
  endpoint: string
  bucket: string
  /** The server's own folder: what the bucket holds, as files. */
  directory: string
  close(): Promise<void>
}

/**
 * A real S3-compatible HTTP server (s3rver) on a free loopback port, with one empty bucket.
 * Like the SMTP server, it stands in for an outside service the machine cannot reach; the app
 * talks to it through the AWS SDK exactly as it would to S3.
 */
export async function startTestS3(prefix = 'harmonize'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'harmonize-s3-'))
  const bucket = 'harmonize-test'
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  }) as S3rverInstance
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  return {
    env: {
      STORAGE_URL: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      // s3rver's fixed test credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    endpoint,
    bucket,
    directory,
    async close() {
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
