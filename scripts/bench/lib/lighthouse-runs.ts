import { launch } from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { findChromium } from '../../../tests/e2e/support/chromium'
import { median } from './stats'

// Lighthouse's default configuration: a mobile device, simulated slow 4G and CPU slow-down.
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu']
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
const METRICS = {
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  fcp: 'first-contentful-paint',
} as const

export interface LighthousePage {
  label: string
  url: string
  /** Sent with every request as the Cookie header: Lighthouse clears the profile's cookies. */
  cookieHeader?: string
}

export type Figures = Record<
  (typeof CATEGORIES)[number] | keyof typeof METRICS | 'benchmarkIndex',
  number
>

export interface LighthouseResult {
  label: string
  /** Each figure is the median of the runs on its own (no run is picked as a whole). */
  median?: Figures
  runs: number
  /** Why this page has no figures: it failed every try. */
  error?: string
}

/**
 * A run fails now and then on this busy machine with an error that names no fault of the page
 * (Lighthouse's own advice for NO_NAVSTART and its kin: run it again), so each run gets tries.
 */
const TRIES = 3

/** Runs Lighthouse `runs` times on each page, in one Chromium, and keeps each figure's median. */
export async function runLighthouse(
  pages: LighthousePage[],
  runs: number,
  onRun?: (label: string, run: number, failure?: string) => void,
): Promise<LighthouseResult[]> {
  const chrome = await launch({
    chromePath: await findChromium(),
    chromeFlags: CHROME_FLAGS,
    logLevel: 'silent',
  })
  try {
    const results: LighthouseResult[] = []
    for (const page of pages) {
      const all: Figures[] = []
      try {
        for (let run = 1; run <= runs; run++) {
          for (let attempt = 1; ; attempt++) {
            onRun?.(page.label, run)
            try {
              all.push(await runOnce(chrome.port, page))
              break
            } catch (error) {
              const message = error instanceof Error ? error.message : String(error)
              if (attempt >= TRIES) throw error
              onRun?.(page.label, run, message)
            }
          }
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        results.push({ label: page.label, runs, error: `${message} (${TRIES} tries)` })
        continue
      }
      const keys = Object.keys(all[0] ?? {}) as (keyof Figures)[]
      const middle = {} as Figures
      for (const key of keys) middle[key] = median(all.map((figures) => figures[key]))
      results.push({ label: page.label, median: middle, runs })
    }
    return results
  } finally {
    chrome.kill()
  }
}

async function runOnce(port: number, page: LighthousePage): Promise<Figures> {
  const result = await lighthouse(page.url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    ...(page.cookieHeader ? { extraHeaders: { Cookie: page.cookieHeader } } : {}),
  })
  if (!result) throw new Error(`Lighthouse returned nothing for ${page.url}`)
  const { lhr } = result
  if (lhr.runtimeError) {
    throw new Error(`Lighthouse on ${page.url}: ${lhr.runtimeError.message}`)
  }
  // A signed-in page that lands on /login measured the wrong page.
  const landed = new URL(lhr.finalDisplayedUrl).pathname
  if (landed !== new URL(page.url).pathname) {
    throw new Error(`Lighthouse on ${page.url} ended on ${landed}`)
  }
  const figures = {} as Figures
  for (const category of CATEGORIES) {
    figures[category] = (lhr.categories[category]?.score ?? Number.NaN) * 100
  }
  for (const [key, audit] of Object.entries(METRICS) as [keyof typeof METRICS, string][]) {
    figures[key] = lhr.audits[audit]?.numericValue ?? Number.NaN
  }
  // How fast Lighthouse found this machine at the time: its CPU slow-down is relative to it.
  figures.benchmarkIndex = lhr.environment.benchmarkIndex
  return figures
}
