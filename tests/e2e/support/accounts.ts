import { randomBytes, randomInt } from 'node:crypto'
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import type { Language } from '../../../domain/i18n'
import { solveHumanCheck } from '../../support/human-check'
import { mailTo, waitForCode } from './mailbox'

// Accounts for end-to-end tests. Only the sign-up test goes through the UI; every other test
// starts from a user made here through the HTTP API, the way the browser would make it: the
// human check solved in Node, the code read from the e-mail the server sent.

export interface TestUser {
  name: string
  email: string
  password: string
}

export interface TestUserOverrides {
  name?: string
  email?: string
  password?: string
  language?: Language
  /** false: register only (the code is mailed, not used), leaving the address unconfirmed. */
  confirmed?: boolean
}

/** Meets the password policy (8+ characters, upper, lower, digit, symbol). */
export const TEST_PASSWORD = 'Harmony-Test-42!'

/** A fresh address each call, so tests (and their repeats) never share an account. */
export function uniqueEmail(label = 'member'): string {
  return `${label}-${randomBytes(6).toString('hex')}@example.test`
}

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

/** A human-check payload, solved in Node for a challenge from this server. */
async function humanCheckFor(request: APIRequestContext): Promise<string> {
  const response = await request.get('/api/captcha/challenge')
  expect(response.ok(), 'human-check challenge').toBe(true)
  return solveHumanCheck(await response.json())
}

async function post(request: APIRequestContext, path: string, data: object) {
  const response = await request.post(path, { data })
  expect(
    response.ok(),
    `POST ${path} answered ${response.status()}: ${await response.text()}`,
  ).toBe(true)
  return response
}

/**
 * Registers a user through the API and confirms the address with the e-mailed code (unless
 * `confirmed: false`). `request` is the test's `request` fixture, or `page.request`.
 */
export async function createUser(
  request: APIRequestContext,
  overrides: TestUserOverrides = {},
): Promise<TestUser> {
  const user: TestUser = {
    name: overrides.name ?? 'Test Member',
    email: (overrides.email ?? uniqueEmail()).toLowerCase(),
    password: overrides.password ?? TEST_PASSWORD,
  }
  const mailsBefore = (await mailTo(user.email)).length
  await post(request, '/api/account/sign-up', {
    ...user,
    language: overrides.language ?? 'en',
    humanCheck: await humanCheckFor(request),
  })
  // Waited for even when not confirming, so a test can count on the mail being there.
  const code = await waitForCode(user.email, mailsBefore)
  if (overrides.confirmed === false) return user
  await post(request, '/api/account/confirm', { email: user.email, code })
  return user
}

/**
 * Signs `user` in through the API. `page.request` and `context.request` share the browser
 * context's cookies, so the next page load is signed in.
 */
export async function signInAs(
  target: Page | BrowserContext,
  user: Pick<TestUser, 'email' | 'password'>,
  { rememberMe = false }: { rememberMe?: boolean } = {},
): Promise<void> {
  await post(target.request, '/api/account/sign-in', {
    email: user.email,
    password: user.password,
    rememberMe,
    humanCheck: await humanCheckFor(target.request),
  })
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
