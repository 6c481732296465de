import { test as base, expect } from '@playwright/test'

interface Fixtures {
  /** Console errors matching this are expected by the test (e.g. offline fetches). */
  allowedConsoleErrors: RegExp | null
  consoleGuard: undefined
}

/**
 * The project's Playwright `test`: it fails a test when the page logs an unexpected
 * console.error or throws, which is how CSP violations and React warnings become visible.
 */
export const test = base.extend<Fixtures>({
  allowedConsoleErrors: [null, { option: true }],
  consoleGuard: [
    async ({ page, allowedConsoleErrors }, use) => {
      const errors: string[] = []
      page.on('console', (message) => {
        if (message.type() !== 'error') return
        const text = message.text()
        if (!allowedConsoleErrors?.test(text)) errors.push(text)
      })
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`))
      await use(undefined)
      expect(errors, 'unexpected console errors').toEqual([])
    },
    { auto: true },
  ],
})

export { expect }
