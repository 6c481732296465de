import type { APIRequestContext } from '@playwright/test'
import { expect } from '@playwright/test'
import { harness } from './harness'

/** A new access code, made by the access service in the running e2e server. */
export async function createAccessCode(): Promise<string> {
  return (await harness('access-code', {})).code
}

/**
 * Gives the signed-in user of `request` access: a fresh code redeemed through the API. (A test
 * that knows its user can ask for `createUser(…, { access: true })` instead.)
 */
export async function grantAccess(request: APIRequestContext): Promise<void> {
  const response = await request.post('/api/account/access-code', {
    data: { code: await createAccessCode() },
  })
  expect(response.ok(), await response.text()).toBe(true)
}
