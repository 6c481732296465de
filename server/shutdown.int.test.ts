import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestEnvironment, type TestEnvironment } from '../tests/support/test-app'

describe('graceful shutdown', () => {
  let environment: TestEnvironment

  beforeAll(async () => {
    environment = await createTestEnvironment()
  })

  afterAll(async () => {
    await environment.destroy()
  })

  it('lets an in-flight request finish before closing', async () => {
    const app = await environment.build()
    let finish: () => void = () => {}
    let started: () => void = () => {}
    const requestStarted = new Promise<void>((resolve) => {
      started = resolve
    })
    app.get('/slow', async () => {
      started()
      await new Promise<void>((resolve) => {
        finish = resolve
      })
      return { done: true }
    })
    let letStop = () => {}
    let stopped = () => {}
    const stopping = new Promise<void>((resolve) => {
      stopped = resolve
    })
    app.addHook('preClose', async () => {
      stopped()
      await new Promise<void>((resolve) => {
        letStop = resolve
      })
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo

    const inFlight = fetch(`http://127.0.0.1:${port}/slow`)
    await requestStarted
    let closed = false
    const closing = app.close().then(() => {
      closed = true
    })
    // While the slow request runs, the server has not finished closing, and says it is not
    // ready for more.
    await new Promise((resolve) => setImmediate(resolve))
    expect(closed).toBe(false)
    // Still listening while it stops its jobs (held open here): not ready for more.
    await stopping
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(503)
    letStop()

    finish()
    const response = await inFlight
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ done: true })
    await closing
    expect(closed).toBe(true)
  })
})
