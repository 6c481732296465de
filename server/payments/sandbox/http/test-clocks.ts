import type { FastifyInstance } from 'fastify'
import { advancingRefusal, notForward } from '../clocks'
import type { SandboxGateway } from '../gateway'
import {
  idempotencyKeyOf,
  invalidRequest,
  LIST_PARAMS,
  missingResource,
  onlyKnown,
  optionalText,
  pageOf,
  paramsOf,
  requiredInteger,
  retrieveRoute,
} from './protocol'
import { renderTestClock } from './render'

// Stripe's test clocks (test helpers): a clock made at a frozen_time, customers made on it, and
// advances that answer at once with the clock `advancing` and run its customers' renewals,
// retries and ends after, the clock `ready` again when they are done, so the app waits for it as
// it must on Stripe. The sandbox's clock runs on with real time between advances (clocks.ts).
//
// Stripe refuses an advance past two intervals of the clock's shortest subscription; the sandbox
// allows any, and the Stripe gateway advances in steps that Stripe would take.

export function testClockRoutes(app: FastifyInstance, gateway: SandboxGateway): void {
  // An advance goes on after its answer: the server closes once the advances have finished, so
  // no work is left running on a database that is going away.
  const running = new Set<Promise<unknown>>()
  app.addHook('onClose', async () => {
    await Promise.allSettled([...running])
  })

  app.post('/v1/test_helpers/test_clocks', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, ['frozen_time', 'name'])
    const clock = await gateway.createTestClock(
      {
        frozenTime: requiredInteger(params, 'frozen_time'),
        name: optionalText(params, 'name') ?? null,
      },
      { idempotencyKey: idempotencyKeyOf(request) },
    )
    return renderTestClock(clock)
  })

  app.get('/v1/test_helpers/test_clocks', async (request) => {
    const params = paramsOf(request)
    onlyKnown(params, LIST_PARAMS)
    return pageOf(
      await gateway.listTestClocks(),
      params,
      '/v1/test_helpers/test_clocks',
      renderTestClock,
    )
  })

  retrieveRoute(
    app,
    '/v1/test_helpers/test_clocks/:id',
    (id) => gateway.retrieveTestClock(id),
    renderTestClock,
    { what: 'test_clock', param: 'test_clock' },
  )

  app.post<{ Params: { id: string } }>(
    '/v1/test_helpers/test_clocks/:id/advance',
    async (request) => {
      const params = paramsOf(request)
      onlyKnown(params, ['frozen_time'])
      const frozenTime = requiredInteger(params, 'frozen_time')
      const current = await gateway.retrieveTestClock(request.params.id)
      if (!current) throw missingResource('test_clock', request.params.id, 'test_clock')
      // Checked here too so that the refusal names its parameter; the gateway checks again
      // under the clock's lock.
      if (current.status === 'advancing') {
        throw invalidRequest(advancingRefusal(current.id).message)
      }
      if (frozenTime <= current.frozen_time) {
        throw invalidRequest(notForward(current.frozen_time).message, { param: 'frozen_time' })
      }
      const { clock, done } = await gateway.advanceTestClock(current.id, frozenTime)
      // Its failure is the clock's status (internal_failure), read by whoever polls it.
      const settled = done.catch(() => undefined).finally(() => running.delete(settled))
      running.add(settled)
      return renderTestClock(clock)
    },
  )
}
