import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestEnvironment, type TestEnvironment } from '../../tests/support/test-app'

// Signed in by default: every route under /api needs a session unless it says `public`, so a
// new route that forgets to check cannot leak. These lists change only on purpose.

let environment: TestEnvironment
let app: FastifyInstance

beforeAll(async () => {
  environment = await createTestEnvironment()
  app = await environment.build()
})

afterAll(async () => {
  await app.close()
  await environment.destroy()
})

const apiRoutes = () =>
  app.routeCatalog
    .filter((route) => route.url.startsWith('/api/') && route.method !== 'HEAD')
    .map((route) => ({ route, name: `${route.method} ${route.url}` }))

/** A concrete URL for a route pattern: any value for each parameter. */
const concrete = (url: string) => url.replace(/:[^/]+/g, '01').replace('*', 'medias/x.mp4')

describe('authentication by default under /api', () => {
  it('lets a visitor reach only the routes named public', () => {
    const open = apiRoutes()
      .filter(({ route }) => route.config?.public)
      .map(({ name }) => name)
      .sort()
    expect(open).toEqual([
      // The console's API: public to the sign-in check, each answered by the console's own
      // guard (403 to anyone but an operator who passed the second factor).
      'DELETE /api/admin/media/uploads/:id',
      'GET /api/admin/audit',
      'GET /api/admin/codes',
      'GET /api/admin/jobs',
      'GET /api/admin/media',
      'GET /api/admin/members',
      'GET /api/admin/members/:id',
      'GET /api/admin/members/:id/invoices/:invoiceId/pdf',
      'GET /api/admin/overview',
      'GET /api/admin/prices',
      'GET /api/affirmations',
      'GET /api/captcha/challenge',
      'GET /api/countries',
      'GET /api/countries/:country/states',
      'GET /api/docs',
      'GET /api/info/contact',
      'GET /api/media/*',
      'GET /api/panels',
      'GET /api/panels/:id',
      'GET /api/session',
      'POST /api/access-codes/check',
      'POST /api/account/confirm',
      'POST /api/account/forgot-password',
      'POST /api/account/resend-code',
      'POST /api/account/reset-password',
      'POST /api/account/sign-in',
      'POST /api/account/sign-out',
      'POST /api/account/sign-up',
      'POST /api/admin/codes',
      'POST /api/admin/codes/revoke',
      'POST /api/admin/jobs/retry',
      'POST /api/admin/media/remove',
      'POST /api/admin/media/uploads',
      'POST /api/admin/media/uploads/:id/complete',
      'POST /api/admin/members/:id/block',
      'POST /api/admin/members/:id/complimentary',
      'POST /api/admin/members/:id/complimentary/end',
      'POST /api/admin/members/:id/invoices/:invoiceId/resend',
      'POST /api/admin/members/:id/plan/cancel',
      'POST /api/admin/members/:id/refund',
      'POST /api/admin/members/:id/sign-out',
      'POST /api/admin/members/:id/unblock',
      'POST /api/admin/prices',
      'POST /api/admin/prices/archive',
      'POST /api/billing/webhook',
      'POST /api/operator/backup',
      'POST /api/operator/billing/advance',
      'POST /api/operator/billing/sync',
      'POST /api/operator/codes/create',
      'POST /api/operator/codes/list',
      'POST /api/operator/codes/revoke',
      'POST /api/operator/jobs/failed',
      'POST /api/operator/media/add',
      'POST /api/operator/media/list',
      'POST /api/operator/media/remove',
      'POST /api/operator/operators/add',
      'POST /api/operator/operators/list',
      'POST /api/operator/operators/remove',
      'POST /api/operator/prices/archive',
      'POST /api/operator/prices/create',
      'POST /api/operator/prices/list',
      'PUT /api/admin/media/uploads/:id/parts/:index',
    ])
  })

  it('answers 401 to a visitor on every other route, before reading what was sent', async () => {
    const closed = apiRoutes().filter(({ route }) => !route.config?.public)
    expect(closed.length).toBeGreaterThan(8)
    for (const { route, name } of closed) {
      const response = await app.inject({
        method: route.method as 'GET',
        url: concrete(route.url),
        // Not even valid: a visitor is turned away before the body is looked at.
        headers: { 'content-type': 'application/json' },
        payload: '{ not json',
      })
      expect(response.statusCode, name).toBe(401)
      expect(response.json().message, name).toBe('Please sign in to continue.')
    }
  })

  it('still answers 404, not 401, for a path that is no route at all', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/no-such-thing' })
    expect(response.statusCode).toBe(404)
  })
})
