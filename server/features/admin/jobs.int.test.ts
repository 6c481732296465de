import { randomUUID } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import type { FailedJobView } from '../../../domain/operators'
import { apiCallsTo } from '../../../tests/support/api-calls'
import { operatorCookie } from '../../../tests/support/operators'
import { setUpTestApp } from '../../../tests/support/test-app'

// The console's Jobs page: what gave up after its retries, with why, and Retry, which runs the
// job once more in its own queue and logs who asked.

const testApp = setUpTestApp({}, { jobs: { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 } })
const call = apiCallsTo(() => testApp.app)

describe('failed jobs in the console', () => {
  it('lists a job that gave up with its reason; Retry runs it once more, once, and the log says who', async () => {
    const operator = await operatorCookie(testApp.app)
    let refusing = true
    const ran: string[] = []
    const queue = await testApp.app.jobs.define<{ to: string }>(
      `test.flaky-${randomUUID().slice(0, 8)}`,
      {
        retryLimit: 0,
        retryDelaySeconds: 1,
        expireInSeconds: 30,
        describe: ({ to }) => `to ${to}`,
      },
      async ({ to }) => {
        if (refusing) throw new Error('the mail server said 421 try later')
        ran.push(to)
      },
    )
    const to = `${randomUUID()}@example.com`
    await queue.send({ to })
    const listed = await vi.waitFor(
      async () => {
        const { jobs } = (await call('GET', '/api/admin/jobs', operator)).json() as {
          jobs: FailedJobView[]
        }
        const job = jobs.find((each) => each.about === `to ${to}`)
        if (!job) throw new Error('not listed yet')
        return job
      },
      { timeout: 20_000, interval: 100 },
    )
    expect(listed).toMatchObject({ attempts: 1, error: 'the mail server said 421 try later' })
    const overview = (await call('GET', '/api/admin/overview', operator)).json()
    expect(overview.mailGaveUp).toEqual(expect.any(Number))

    refusing = false
    const retried = await call('POST', '/api/admin/jobs/retry', operator, { id: listed.id })
    expect(retried.statusCode, retried.body).toBe(200)
    await vi.waitFor(() => expect(ran).toEqual([to]), { timeout: 20_000, interval: 50 })
    const { jobs } = (await call('GET', '/api/admin/jobs', operator)).json()
    expect(jobs.map((job: FailedJobView) => job.about)).not.toContain(`to ${to}`)

    const again = await call('POST', '/api/admin/jobs/retry', operator, { id: listed.id }, 'es')
    expect(again.statusCode).toBe(404)
    expect(again.json().message).toBe(
      'Esta tarea ya no espera a reintentarse: ya se volvió a ejecutar, o falló hace más de una semana.',
    )
    const log = (await call('GET', '/api/admin/audit', operator)).json()
    expect(log.entries[0]).toMatchObject({
      action: 'jobs.retry',
      before: { about: `to ${to}`, error: 'the mail server said 421 try later' },
    })
    expect(
      log.entries.filter((entry: { action: string }) => entry.action === 'jobs.retry'),
    ).toHaveLength(1)
  })

  it('refuses a retry of something that is not a job id', async () => {
    const operator = await operatorCookie(testApp.app)
    for (const body of [{}, { id: 'abc' }, { id: "1' or 1=1" }]) {
      const answer = await call('POST', '/api/admin/jobs/retry', operator, body)
      expect(answer.statusCode, JSON.stringify(body)).toBe(400)
    }
    const unknown = await call('POST', '/api/admin/jobs/retry', operator, { id: randomUUID() })
    expect(unknown.statusCode).toBe(404)
  })
})
