import { setTimeout as sleep } from 'node:timers/promises'
import type { Browser, Page } from 'playwright-core'
import { type Cookie, freshContext } from './browser'

// Bytes are read from the browser's own Resource Timing entries (encodedBodySize: the body as
// it came off the wire, compressed when the server compressed it; decodedBodySize: what the
// engine parses). Chromium fetches a dedicated worker's script in the browser process, where
// neither the page's DevTools session nor Playwright's request events see it; the page's
// Resource Timing does list it, next to everything else, in page time.

/** After an interaction, the loads it started are over once nothing new starts for this long. */
const QUIET_MS = 1_500
const QUIET_LIMIT_MS = 20_000
const USABLE_TIMEOUT_MS = 60_000

export interface Bytes {
  /** Script fetches (modules, chunks, workers). */
  scripts: number
  /** Their bodies as sent: compressed when the server compressed them. */
  scriptTransferred: number
  /** Their bodies once decompressed: what the browser parses. */
  scriptDecoded: number
  /** Every fetch of any kind (the document included), and all their bodies as sent. */
  requests: number
  transferred: number
}

export interface PageVisit {
  url: string
  /** The page is usable once the first match of each is shown and not disabled. */
  usable: string[]
  cookies?: Cookie[]
  /** What a person does next, after which the loads it starts are counted too. */
  interact?: (page: Page) => Promise<void>
}

export interface PageBytes {
  usable: Bytes
  /** Everything up to the end of the loads `interact` started; absent without `interact`. */
  afterInteraction?: Bytes
  /** Page time from navigation to usable. */
  usableMs: number
}

interface Entry {
  name: string
  entryType: string
  transferSize: number
  encodedBodySize: number
  decodedBodySize: number
  responseEnd: number
}

/** The DOM this needs, typed here: the scripts' TypeScript project has no DOM library. */
interface PageGlobal {
  document: {
    querySelector(
      selector: string,
    ): { getClientRects(): ArrayLike<unknown>; disabled?: boolean } | null
  }
  performance: { now(): number; getEntries(): Entry[] }
}

// Runs in the page. A function, not a string: the app's CSP forbids eval, which a string needs.
// Returns the page time it became true at, so entries can be cut there.
function usableAt(selectors: string[]): number | false {
  const { document, performance } = globalThis as unknown as PageGlobal
  const shown = selectors.every((selector) => {
    const element = document.querySelector(selector)
    return !!element && element.getClientRects().length > 0 && !element.disabled
  })
  return shown && performance.now()
}

// Runs in the page or a worker.
function fetchedEntries(): Entry[] {
  const { performance } = globalThis as unknown as PageGlobal
  return performance
    .getEntries()
    .filter((entry) => entry.entryType === 'resource' || entry.entryType === 'navigation')
    .map(({ name, entryType, transferSize, encodedBodySize, decodedBodySize, responseEnd }) => ({
      name,
      entryType,
      transferSize,
      encodedBodySize,
      decodedBodySize,
      responseEnd,
    }))
}

/**
 * Loads `visit.url` in a fresh context and counts what had arrived when the page became usable
 * and, with `interact`, once the loads that started have finished.
 */
export async function measurePageBytes(
  browser: Browser,
  origin: string,
  visit: PageVisit,
): Promise<PageBytes> {
  const context = await freshContext(browser, origin, visit.cookies)
  try {
    let lastRequest = performance.now()
    context.on('request', () => {
      lastRequest = performance.now()
    })
    // Said when the page never becomes usable: a missing chunk is the usual cause, e.g. when
    // the client in dist/ was rebuilt under the running server.
    const refused: string[] = []
    context.on('response', (response) => {
      if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`)
    })
    const page = await context.newPage()
    page.on('worker', () => {
      lastRequest = performance.now()
    })
    await page.goto(`${origin}${visit.url}`, { waitUntil: 'commit' })
    const handle = await page
      .waitForFunction(usableAt, visit.usable, { timeout: USABLE_TIMEOUT_MS })
      .catch((error: unknown) => {
        throw new Error(
          `${visit.url} was not usable (${visit.usable.join(', ')}) after ${USABLE_TIMEOUT_MS / 1000} s; the page is at ${page.url()}${refused.length > 0 ? `; refused: ${refused.join(', ')}` : ''}`,
          { cause: error },
        )
      })
    const usableMs = (await handle.jsonValue()) as number
    const usable = tally(
      (await page.evaluate(fetchedEntries)).filter((e) => e.responseEnd <= usableMs),
    )
    if (!visit.interact) return { usable, usableMs }

    await visit.interact(page)
    lastRequest = performance.now()
    const limit = performance.now() + QUIET_LIMIT_MS
    while (performance.now() - lastRequest < QUIET_MS && performance.now() < limit) {
      await sleep(100)
    }
    const entries = await page.evaluate(fetchedEntries)
    // A worker's own imports are in its timeline; one that has finished took them with it.
    for (const worker of page.workers()) {
      entries.push(...(await worker.evaluate(fetchedEntries).catch(() => [])))
    }
    return { usable, afterInteraction: tally(entries), usableMs }
  } finally {
    await context.close()
  }
}

function tally(entries: Entry[]): Bytes {
  const bytes: Bytes = {
    scripts: 0,
    scriptTransferred: 0,
    scriptDecoded: 0,
    requests: 0,
    transferred: 0,
  }
  for (const entry of entries) {
    // Nothing came over the network: the memory cache answered (a second worker of one file).
    if (entry.transferSize === 0) continue
    bytes.requests += 1
    bytes.transferred += entry.encodedBodySize
    if (!/\.m?js$/.test(new URL(entry.name).pathname)) continue
    bytes.scripts += 1
    bytes.scriptTransferred += entry.encodedBodySize
    bytes.scriptDecoded += entry.decodedBodySize
  }
  return bytes
}
