import { PassThrough, Readable } from 'node:stream'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  type HeadObjectCommandOutput,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { assertValidKey, type Storage, type StoredObjectInfo } from './storage'

export interface S3StorageOptions {
  /** `s3://bucket` or `s3://bucket/some/prefix` (STORAGE_URL). */
  url: string
  /** An S3-compatible service (MinIO, R2, Spaces…); unset means AWS itself. */
  endpoint?: string
  region: string
  accessKeyId: string
  secretAccessKey: string
}

/** Bucket and key prefix of a STORAGE_URL; the prefix is empty or ends with a slash. */
export function parseStorageUrl(url: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url)
  if (!match?.[1]) throw new Error(`Not an s3:// URL: ${url}`)
  const rest = (match[2] ?? '').replace(/^\/+|\/+$/g, '')
  return { bucket: match[1], prefix: rest ? `${rest}/` : '' }
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' ||
    error.name === 'NotFound' ||
    error.$metadata.httpStatusCode === 404)

/**
 * Files in an S3-compatible bucket, under the STORAGE_URL's prefix. S3 replaces an object in one
 * step, so the local store's promises (readers see the old or the new bytes) hold here too.
 */
export function createS3Storage(options: S3StorageOptions): Storage {
  const { bucket, prefix } = parseStorageUrl(options.url)
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    // Most S3-compatible services only know bucket-in-path addressing.
    forcePathStyle: Boolean(options.endpoint),
    credentials: {
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
    },
    // Newer SDKs add checksum headers and trailers by default that several S3-compatible
    // services refuse; send and check them only where an operation requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  const objectKey = (key: string) => {
    assertValidKey(key)
    return `${prefix}${key}`
  }

  const storage: Storage = {
    async put(key, data, contentType) {
      if (data instanceof Readable) {
        // A stream of unknown length goes up in parts of a few megabytes, one part in memory
        // at a time; a failure aborts the upload, so no object appears.
        await new Upload({
          client,
          params: { Bucket: bucket, Key: objectKey(key), Body: data, ContentType: contentType },
          queueSize: 1,
        }).done()
        return
      }
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: objectKey(key),
          Body: data,
          ContentType: contentType,
        }),
      )
    },

    async get(key) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }),
        )
        const bytes = await object.Body?.transformToByteArray()
        return {
          data: Buffer.from(bytes ?? []),
          contentType: object.ContentType ?? 'application/octet-stream',
          updatedAt: object.LastModified ?? new Date(0),
        }
      } catch (error) {
        if (isMissing(error)) return null
        throw error
      }
    },

    async open(key) {
      const name = objectKey(key)
      let head: HeadObjectCommandOutput
      try {
        head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: name }))
      } catch (error) {
        if (isMissing(error)) return null
        throw error
      }
      const etag = head.ETag
      return {
        size: head.ContentLength ?? 0,
        contentType: head.ContentType ?? 'application/octet-stream',
        updatedAt: head.LastModified ?? new Date(0),
        // S3's own validator: LastModified has whole seconds only.
        version: (etag ?? `${head.ContentLength}-${head.LastModified?.getTime()}`).replace(
          /"/g,
          '',
        ),
        stream(range) {
          // The bytes come from the version the head described: if the object was replaced
          // since, S3 answers 412 and the stream fails instead of mixing two versions.
          const out = new PassThrough()
          client
            .send(
              new GetObjectCommand({
                Bucket: bucket,
                Key: name,
                IfMatch: etag,
                Range: range ? `bytes=${range.start}-${range.end}` : undefined,
              }),
            )
            .then((object) => {
              const body = object.Body
              if (!(body instanceof Readable)) throw new Error('S3 sent no readable body')
              // Some S3-compatible servers ignore If-Match; the ETag tells the same.
              if (etag && object.ETag && object.ETag !== etag) {
                body.destroy()
                throw new Error(`${key} changed after it was opened`)
              }
              out.on('close', () => body.destroy())
              body.on('error', (error) => out.destroy(error))
              body.pipe(out)
            })
            .catch((error: unknown) => out.destroy(error as Error))
          return out
        },
        // Nothing is held open before `stream` is called.
        close: async () => {},
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }))
    },

    async list(keyPrefix) {
      assertValidKey(keyPrefix, { prefix: true })
      const found: StoredObjectInfo[] = []
      let token: string | undefined
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: `${prefix}${keyPrefix}`,
            ContinuationToken: token,
          }),
        )
        for (const item of page.Contents ?? []) {
          if (!item.Key) continue
          found.push({
            key: item.Key.slice(prefix.length),
            size: item.Size ?? 0,
            updatedAt: item.LastModified ?? new Date(0),
          })
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (token)
      return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    },
  }
  return storage
}
