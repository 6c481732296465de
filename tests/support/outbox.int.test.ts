import { describe, expect, it } from 'vitest'
import { passHumanCheckIn } from './human-check'
import { uniqueEmail } from './identities'
import { waitForOutboxMessage } from './outbox'
import { setUpTestApp } from './test-app'

// A mail that does not arrive fails a test far from its cause (a job that waits, failed or was
// never queued). The failure names what the queue holds for the address, so a run that fails
// once in CI explains itself from its log.

const testApp = setUpTestApp()

describe('waiting for a mail that does not come', () => {
  it('says when no job was queued for the address', async () => {
    await expect(
      waitForOutboxMessage(testApp.app, uniqueEmail('nobody'), { timeoutMs: 0 }),
    ).rejects.toThrow(/\(0 kept, expected more than 0\); no job in the queue for that address$/)
  })

  it('names the job that is queued for the address and its state', async () => {
    const { app } = testApp
    const email = uniqueEmail('waiting')
    const asked = await app.inject({
      method: 'POST',
      url: '/api/account/forgot-password',
      payload: { email, humanCheck: await passHumanCheckIn(app) },
    })
    expect(asked.statusCode).toBe(200)
    // Usually still waiting to start (half a second to two seconds later, as in
    // server/features/auth/service.ts); on a stalled machine it may have run already.
    await expect(waitForOutboxMessage(app, email, { timeoutMs: 0 })).rejects.toThrow(
      /; jobs: account\.reset-code (created \(not due yet\)|created|active|completed)$/,
    )
  })
})
