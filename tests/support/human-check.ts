import { type Challenge, solveChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import type { FastifyInstance } from 'fastify'

// Passing the human check without a browser, for tests: solve the server's challenge the way the
// widget does and encode the payload the way it submits it. No test-runner imports here, so both
// Vitest and Playwright can use it.

/** The payload the widget would submit for this challenge. */
export async function solveHumanCheck(challenge: unknown): Promise<string> {
  const solution = await solveChallenge({ challenge: challenge as Challenge, deriveKey })
  if (!solution) throw new Error('The human-check challenge could not be solved.')
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
}

/** Fetches a challenge from a running server and solves it. */
export async function passHumanCheck(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/captcha/challenge`)
  if (!response.ok) throw new Error(`challenge request failed with ${response.status}`)
  return solveHumanCheck(await response.json())
}

let challenges = 0

/**
 * Fetches a challenge from an app through `inject` and solves it. Challenges are limited per
 * client address, and that limit is not what the caller tests: each comes from an address of
 * its own.
 */
export async function passHumanCheckIn(app: FastifyInstance): Promise<string> {
  const n = ++challenges
  const challenge = await app.inject({
    method: 'GET',
    url: '/api/captcha/challenge',
    remoteAddress: `10.${200 + Math.floor(n / 60_000)}.${Math.floor(n / 250) % 240}.${(n % 250) + 1}`,
  })
  return solveHumanCheck(challenge.json())
}
