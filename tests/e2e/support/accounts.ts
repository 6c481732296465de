import { randomInt } from 'node:crypto'
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import type { TestUser, UserOptions } from '../../support/factories'
import { solveHumanCheck } from '../../support/human-check'
import { addSessionCookies, harness } from './harness'
import { waitForCode } from './mailbox'

// Accounts for end-to-end tests. Only the sign-up tests go through the forms and the mail;
// every other test starts from a user made by the shared factories (tests/support/factories.ts)
// in the server's process, and is signed in by putting a session cookie into its browser.

export type { TestUser } from '../../support/factories'
export { TEST_PASSWORD, uniqueEmail } from '../../support/identities'

export type TestUserOverrides = Omit<UserOptions, 'rememberMe'>

/**
 * The sign-in page's heading: a new visitor is welcomed to Harmonize, someone who signed in on
 * this browser before is welcomed back.
 */
export const WELCOME = /^Welcome (back|to Harmonize)$/

/**
 * Every limit that protects sign-up, sign-in and codes is counted per client address (10 code
 * mails an hour), so a suite that shares one address runs out of them. With this as a test's
 * `extraHTTPHeaders`, everything the test sends (browser, `page.request`, the `request`
 * fixture) comes from a visitor of its own; the e2e server trusts X-Forwarded-For from
 * loopback (TRUST_PROXY in playwright.config.ts).
 *
 *   test.use(ownClientAddress)
 */
export const ownClientAddress = {
  extraHTTPHeaders: async (
    { extraHTTPHeaders }: { extraHTTPHeaders: Record<string, string> | undefined },
    use: (headers: Record<string, string>) => Promise<void>,
  ) => {
    const address = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': address })
  },
}

/**
 * A new user. Confirmed by default, with no mail sent; `confirmed: false` signs up the way a
 * visitor does and waits until the code has been mailed, so that mail is the address's first.
 * `access: true` also opens the panels. The first argument is not used any more; it stays so
 * that calls written as `createUser(page.request)` keep working.
 */
export async function createUser(
  _request?: APIRequestContext,
  overrides: TestUserOverrides = {},
): Promise<TestUser> {
  const { user } = await harness('user', overrides)
  if (overrides.confirmed === false) await waitForCode(user.email)
  return user
}

/**
 * Signs `user` in by giving the browser context a fresh session cookie (no form, no human
 * check). `page.request` and `context.request` share the context's cookies.
 */
export async function signInAs(
  target: Page | BrowserContext,
  user: Pick<TestUser, 'email'>,
  { rememberMe = false }: { rememberMe?: boolean } = {},
): Promise<void> {
  const context = 'context' in target ? target.context() : target
  await addSessionCookies(context, await harness('session', { email: user.email, rememberMe }))
}

/** A human-check payload, solved in Node for a challenge from this server. */
async function humanCheckFor(request: APIRequestContext): Promise<string> {
  const response = await request.get('/api/captcha/challenge')
  expect(response.ok(), 'human-check challenge').toBe(true)
  return solveHumanCheck(await response.json())
}

/**
 * Signs in through the sign-in API with the password and a solved human check, as the form
 * does: for tests whose point is that the credentials work.
 */
export async function signInWithPassword(
  target: Page | BrowserContext,
  user: Pick<TestUser, 'email' | 'password'>,
): Promise<void> {
  const response = await target.request.post('/api/account/sign-in', {
    data: {
      email: user.email,
      password: user.password,
      rememberMe: false,
      humanCheck: await humanCheckFor(target.request),
    },
  })
  expect(response.ok(), `sign-in answered ${response.status()}: ${await response.text()}`).toBe(
    true,
  )
}

/**
 * Passes the human check in the page the way a person does: tick 'I am human' and wait until
 * the widget says 'Verified'. Pass the texts of another language when the page speaks it.
 */
export async function completeHumanCheck(
  page: Page,
  { label = 'I am human', verified = 'Verified' }: { label?: string; verified?: string } = {},
): Promise<void> {
  const widget = page.getByTestId('human-check')
  await widget.getByRole('checkbox', { name: label }).click()
  await expect(widget.getByRole('checkbox', { name: verified })).toBeChecked()
}
