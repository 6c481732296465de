import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'

export const CHROMIUM_HELP = `No Chromium found for the end-to-end tests. Get one of these:
  - Debian/Ubuntu (root): apt-get install -y --no-install-recommends chromium
  - any Linux x64, no root: npm install --no-save @sparticuz/chromium
  - or point CHROMIUM_PATH at a Chromium or Chrome binary.
The end-to-end tests never skip themselves: they fail until a browser is available.`

/**
 * Finds a Chromium to drive: CHROMIUM_PATH, then Debian's /usr/bin/chromium, then the headless
 * build inside @sparticuz/chromium when that package is installed. Throws with instructions.
 */
export async function findChromium(env = process.env): Promise<string> {
  if (env.CHROMIUM_PATH) {
    if (existsSync(env.CHROMIUM_PATH)) return env.CHROMIUM_PATH
    throw new Error(`CHROMIUM_PATH=${env.CHROMIUM_PATH} does not exist.\n\n${CHROMIUM_HELP}`)
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium'
  const require = createRequire(import.meta.url)
  let sparticuzPath: string | undefined
  try {
    sparticuzPath = require.resolve('@sparticuz/chromium')
  } catch {
    throw new Error(CHROMIUM_HELP)
  }
  const sparticuz = (await import(sparticuzPath)).default as { executablePath(): Promise<string> }
  return sparticuz.executablePath()
}

/** Flags known to work on these machines (see ENVIRONMENT.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
