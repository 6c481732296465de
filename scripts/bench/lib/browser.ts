import { type Browser, type BrowserContext, chromium } from 'playwright-core'
import { CHROMIUM_ARGS, findChromium } from '../../../tests/e2e/support/chromium'

export interface Cookie {
  name: string
  value: string
}

/** Headless Chromium with the flags known to work on these machines. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await findChromium(), args: CHROMIUM_ARGS })
}

/**
 * A context with nothing from an earlier run: no cache, no cookies but `cookies`, and no service
 * worker, which would otherwise answer a later load from its own cache and hide the network.
 */
export async function freshContext(
  browser: Browser,
  origin: string,
  cookies: Cookie[] = [],
): Promise<BrowserContext> {
  const context = await browser.newContext({ serviceWorkers: 'block' })
  if (cookies.length > 0) {
    await context.addCookies(cookies.map(({ name, value }) => ({ name, value, url: origin })))
  }
  return context
}
