import type { FastifyError, FastifyInstance } from 'fastify'
import type { FormatEnum, Metadata } from 'sharp'
import { IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS, IMAGE_MAX_SIDE_PX } from '../domain/images'
import { AppError } from './errors'

/**
 * Types we accept, by what the bytes say (never by the name or the declared type), each with the
 * decoder sharp must agree to use: a file that sniffs as one thing and decodes as another is
 * refused.
 */
const ACCEPTED: Record<string, keyof FormatEnum> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  // Animated PNG is PNG to every decoder; only its first frame is kept.
  'image/apng': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  // libvips reads AVIF through its HEIF loader.
  'image/avif': 'heif',
}

export interface ImageOutput {
  /** The box the picture is fitted to, in pixels. */
  width: number
  height: number
  /** 'cover' crops to fill the box; 'inside' keeps the whole picture within it, never enlarged. */
  fit: 'cover' | 'inside'
  format: 'webp' | 'jpeg'
  quality: number
}

/**
 * Checks that `bytes` are a picture we accept and re-encodes it: turned upright by its EXIF
 * orientation, fitted to the output's box, in the output's format, with no metadata left (no
 * location, camera or colour profile). Throws AppError 415 or 422 with an `image.*` message.
 */
export async function processImage(bytes: Buffer, output: ImageOutput): Promise<Buffer> {
  // libvips and the sniffer are loaded on the first upload: most processes never see one, and
  // they would keep about 25 MB resident from start-up.
  const [{ fileTypeFromBuffer }, { default: sharp }] = await Promise.all([
    import('file-type'),
    import('sharp'),
  ])
  const sniffed = await fileTypeFromBuffer(bytes)
  const decoder = sniffed ? ACCEPTED[sniffed.mime] : undefined
  if (!decoder) throw new AppError(415, 'image.unsupportedType')

  // The pixel limit stops libvips before it allocates anything for a decompression bomb.
  const options = { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error', autoOrient: true } as const
  let metadata: Metadata
  try {
    metadata = await sharp(bytes, options).metadata()
  } catch {
    throw new AppError(422, 'image.unreadable')
  }
  if (metadata.format !== decoder) throw new AppError(415, 'image.unsupportedType')
  const { width, height } = metadata
  if (
    !width ||
    !height ||
    width > IMAGE_MAX_SIDE_PX ||
    height > IMAGE_MAX_SIDE_PX ||
    width * height > IMAGE_MAX_PIXELS
  ) {
    throw new AppError(422, 'image.tooManyPixels')
  }

  try {
    // sharp writes no metadata unless asked to (keepMetadata/withMetadata), so none is kept.
    const resized = sharp(bytes, options).resize(output.width, output.height, {
      fit: output.fit,
      withoutEnlargement: output.fit === 'inside',
    })
    return await (output.format === 'webp'
      ? resized.webp({ quality: output.quality })
      : resized.flatten({ background: '#ffffff' }).jpeg({ quality: output.quality, mozjpeg: true })
    ).toBuffer()
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new AppError(422, 'image.tooManyPixels')
    }
    throw new AppError(422, 'image.unreadable')
  }
}

/**
 * Makes an encapsulated route plugin read request bodies as raw image bytes (image/* or
 * application/octet-stream, up to IMAGE_MAX_BYTES) and nothing else; JSON and every other parser
 * stay available to the rest of the API. Fastify's own refusals of such a body speak of sizes
 * and media types in general terms; here we know a picture was meant, so they say what to do.
 */
export function acceptImageBodies(app: FastifyInstance) {
  app.removeAllContentTypeParsers()
  const keepBytes = (
    _request: unknown,
    body: string | Buffer,
    done: (error: null, body: Buffer | string) => void,
  ) => done(null, body)
  const limits = { parseAs: 'buffer', bodyLimit: IMAGE_MAX_BYTES } as const
  app.addContentTypeParser('application/octet-stream', limits, keepBytes)
  app.addContentTypeParser(/^image\/[\w.+-]+$/, limits, keepBytes)
  app.setErrorHandler((error: FastifyError) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new AppError(413, 'image.tooLarge')
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      throw new AppError(415, 'image.unsupportedType')
    }
    throw error
  })
}

/** The body an image route received, or 415 when it holds no bytes. */
export function imageBody(body: unknown): Buffer {
  if (!Buffer.isBuffer(body) || body.length === 0) throw new AppError(415, 'image.unsupportedType')
  return body
}
