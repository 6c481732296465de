// What the harness port answers (tests/e2e/support/harness-server.ts) and the specs send
// (tests/e2e/support/harness.ts). Types only, so both sides agree at compile time.
import type { OperatorMedia } from '../../../domain/harmonize'
import type { TestSession, TestUser, UserOptions } from '../../support/factories'

export interface HarnessCalls {
  /** A user (see `buildUser`), with a session unless unconfirmed. */
  user: { body: UserOptions; answer: { user: TestUser; session: TestSession | null } }
  /** A new session for an existing, confirmed user. */
  session: { body: { email: string; rememberMe?: boolean }; answer: TestSession }
  /** A fresh, unredeemed access code. */
  'access-code': { body: Record<string, never>; answer: { code: string } }
  /** The operator role for an existing, confirmed user, as `npm run cli -- operators add` gives it. */
  operator: { body: { email: string }; answer: { changed: boolean } }
  /** Access for an existing user, through a redeemed code. */
  access: { body: { email: string }; answer: { code: string } }
  /**
   * Media files on a panel lent to the caller alone until it gives the lease back, so the
   * session on that panel plays exactly these files.
   */
  media: {
    body: { files: { name: string; base64: string; backing?: boolean }[] }
    answer: { lease: string; panelId: string; media: OperatorMedia[] }
  }
  /** Moves a member's sandbox billing clock on (renewals and installments that fall due run). */
  'billing-advance': { body: { email: string; days: number }; answer: { clock: string } }
  /** Gives a media lease back; its files leave the panel. */
  'media-release': { body: { lease: string }; answer: Record<string, never> }
}

export type HarnessCall = keyof HarnessCalls

/** The harness's one loopback port: e-mail received (GET /messages) and the factories. */
export function harnessPort(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env.E2E_HARNESS_PORT ?? env.E2E_MAIL_PORT ?? 3112)
}
