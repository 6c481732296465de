import { randomBytes } from 'node:crypto'

// Names of test users, free of server imports so that Playwright's workers can load them too.

/** Meets the password policy (8+ characters, upper, lower, digit, symbol). */
export const TEST_PASSWORD = 'Harmony-Test-42!'

/** A fresh address each call, so tests (and their repeats) never share an account. */
export function uniqueEmail(label = 'member'): string {
  return `${label}-${randomBytes(6).toString('hex')}@example.test`
}
