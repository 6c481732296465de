import type { BrowserContext } from '@playwright/test'
import type { TestSession } from '../../support/factories'
import { BASE_URL } from './base-url'
import { type HarnessCall, type HarnessCalls, harnessPort } from './harness-protocol'

const HARNESS_URL = `http://127.0.0.1:${harnessPort()}`

/** Runs a test factory in the e2e server's process (see harness-server.ts). */
export async function harness<Name extends HarnessCall>(
  name: Name,
  body: HarnessCalls[Name]['body'],
): Promise<HarnessCalls[Name]['answer']> {
  const response = await fetch(`${HARNESS_URL}/factories/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const answer = await response.json()
  if (!response.ok) throw new Error(`harness ${name}: ${answer.error}`)
  return answer as HarnessCalls[Name]['answer']
}

/**
 * Puts a session's cookies into a browser context, with the attributes the server gives them,
 * so the context's pages and its `request` are signed in.
 */
export async function addSessionCookies(
  context: BrowserContext,
  session: TestSession,
): Promise<void> {
  await context.addCookies(
    session.cookies.map(({ name, value, maxAge }) => ({
      name,
      value,
      url: BASE_URL,
      httpOnly: true,
      sameSite: 'Lax' as const,
      ...(maxAge ? { expires: Math.floor(Date.now() / 1000) + maxAge } : {}),
    })),
  )
}
