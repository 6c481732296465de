import { rmSync } from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'
import { inputsHash, isStale, writeStamp } from './build-stamp'

const root = path.resolve(import.meta.dirname, '..')
export const serverOutDir = path.join(root, 'dist/server')
export const serverEntry = path.join(serverOutDir, 'server.mjs')
export const SERVER_INPUTS = ['server', 'db', 'domain', 'package.json', 'scripts/build-server.ts']
const stampFile = (outDir: string) => path.join(outDir, '.inputs')
/** The default build's stamp, from the package root. */
export const serverStampFile = path.relative(root, stampFile(serverOutDir))

/**
 * Left out of the bundle and loaded from node_modules: native addons and WebAssembly (PGlite,
 * argon2, sharp), packages that read their own files at run time (pdfkit's fonts, the country
 * lists, pino's worker transports), and the ones loaded only when used (S3, Redis, mail), so
 * that a server that never uses them never parses them.
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@node-rs/argon2',
  'sharp',
  '@aws-sdk/*',
  'pg-native',
  'pdfkit',
  'file-type',
  'i18n-iso-countries',
  'iso-3166',
  'pino',
  'pino-pretty',
  'thread-stream',
  'ioredis',
  'nodemailer',
]

/** True when dist/server is missing or was built from other sources or packages. */
export function serverNeedsBuild(outDir = serverOutDir): boolean {
  return isStale(stampFile(outDir), inputsHash(root, SERVER_INPUTS))
}

/**
 * Compiles the server into one ES module (plus the chunks of what it imports lazily), so that
 * production runs JavaScript straight away: no TypeScript loader, no resolving of 1,500 files at
 * start-up (docs/decisions/0011-compiled-server.md).
 */
export async function buildServer(outDir = serverOutDir): Promise<void> {
  const hash = inputsHash(root, SERVER_INPUTS)
  // Chunks are named by their content: without this, every build would leave the last one's.
  rmSync(outDir, { recursive: true, force: true })
  await build({
    absWorkingDir: root,
    entryPoints: { server: path.join(root, 'server/server.ts') },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Without splitting, esbuild hoists a lazily imported module's own imports (the S3 SDK's)
    // into the entry, and they load at start-up after all.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    external: EXTERNAL,
    // Whitespace and syntax only: with identifiers unshortened, stack traces and error names
    // read as in the sources without esbuild's keepNames, which wraps every function in a
    // defineProperty call (on Fastify's per-request closures that was 9 % of a request's CPU).
    // A name two packages share is numbered (`DatabaseError2`): see ADR 0011.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    legalComments: 'linked',
    // CommonJS packages inside an ES module bundle call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __harmonizeRequire } from 'node:module'; const require = __harmonizeRequire(import.meta.url);",
    },
    logLevel: 'warning',
  })
  writeStamp(stampFile(outDir), hash)
}
