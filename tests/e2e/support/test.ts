import { test as base, expect } from '@playwright/test'
import type { TestUser, UserOptions } from '../../support/factories'
import { addSessionCookies, harness } from './harness'

interface Fixtures {
  /** Console errors matching this are expected by the test (e.g. offline fetches). */
  allowedConsoleErrors: RegExp | null
  consoleGuard: undefined
  /** What `member` is made with, e.g. `test.use({ memberOptions: { access: true } })`. */
  memberOptions: Omit<UserOptions, 'confirmed'>
  /**
   * A confirmed user of the test's own, already signed in in the test's browser context
   * (`page`, `context.request`, `page.request`), made by the shared factories.
   */
  member: TestUser
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
  memberOptions: [{}, { option: true }],
  member: async ({ context, memberOptions }, use) => {
    const { user, session } = await harness('user', memberOptions)
    if (!session) throw new Error(`no session for ${user.email}`)
    await addSessionCookies(context, session)
    await use(user)
  },
})

export { expect }
