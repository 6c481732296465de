import type { Page } from '@playwright/test'

/**
 * Holds back every request for `pathname`, as a slow network would, until `release` is called;
 * `asked` resolves once the browser has asked for it.
 */
export async function holdBack(page: Page, pathname: string) {
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  const asked = page.waitForRequest((request) => new URL(request.url()).pathname === pathname)
  await page.route(
    (url) => url.pathname === pathname,
    async (route) => {
      await held
      await route.continue()
    },
  )
  return { release, asked }
}
