import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

/** Text files worth compressing; images and fonts are compressed already. */
const TEXT = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/
/** Below this, the headers of a compressed answer cost about what they save. */
const MIN_BYTES = 1024

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    return statSync(full).isDirectory() ? filesUnder(full) : [full]
  })
}

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside each text file of the build, at the
 * strongest settings: compressing once here costs seconds, compressing on every request would
 * cost the server's CPU. The file server picks the copy the browser accepts.
 */
export function precompressDir(dir: string): { files: number; bytes: number; brotli: number } {
  let files = 0
  let bytes = 0
  let brotli = 0
  for (const file of filesUnder(dir)) {
    if (!TEXT.test(file)) continue
    const content = readFileSync(file)
    if (content.length < MIN_BYTES) continue
    const br = brotliCompressSync(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    })
    const gz = gzipSync(content, { level: 9 })
    if (br.length < content.length) writeFileSync(`${file}.br`, br)
    if (gz.length < content.length) writeFileSync(`${file}.gz`, gz)
    files += 1
    bytes += content.length
    brotli += br.length
  }
  return { files, bytes, brotli }
}

/** The Vite plugin: runs after every other plugin has written its files (the service worker). */
export function precompress(outDir: string): Plugin {
  return {
    name: 'harmonize-precompress',
    apply: 'build',
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        precompressDir(outDir)
      },
    },
  }
}
