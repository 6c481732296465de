import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appMeta } from '../db/schema/meta'
import { panels } from '../db/schema/panels'
import { seedReferenceData } from '../db/seed/index'
import { precompressDir } from '../scripts/precompress'
import { emptyClientDir } from '../tests/support/scratch'
import {
  createTestEnvironment,
  type TestEnvironment,
  usingPostgres,
} from '../tests/support/test-app'
import { DataDirLockedError } from './data-dir'
import { translate } from './i18n'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** A process id nobody is using on this machine, as a crashed server would leave behind. */
function deadPid(): number {
  for (let pid = 999_999; ; pid++) {
    try {
      process.kill(pid, 0)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid
    }
  }
}

describe('HTTP API', () => {
  let env: TestEnvironment
  let app: FastifyInstance
  let clientDir: string

  beforeAll(async () => {
    env = await createTestEnvironment()
    clientDir = emptyClientDir()
    app = await env.build({ clientDir })
  })

  afterAll(async () => {
    await app?.close()
    await env?.destroy()
  })

  it('answers the liveness probe', async () => {
    const response = await app.inject({ method: 'GET', url: '/healthz' })

    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ok' })
  })

  it('answers the readiness probe once the database answers', async () => {
    const response = await app.inject({ method: 'GET', url: '/readyz' })

    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ok' })
  })

  it('sends strict security headers', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/session' })
    const csp = String(response.headers['content-security-policy'])

    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).not.toContain('unsafe-eval')
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['x-frame-options']).toBe('DENY')
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    // Plain http: HSTS would only confuse a browser.
    expect(response.headers['strict-transport-security']).toBeUndefined()
  })

  it('sends the security headers on errors too', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nope' })

    expect(String(response.headers['content-security-policy'])).toContain("script-src 'self'")
    expect(response.headers['x-frame-options']).toBe('DENY')
  })

  it('gives every response a request id', async () => {
    for (const url of ['/healthz', '/api/session', '/api/nope']) {
      const response = await app.inject({ method: 'GET', url })
      expect(response.headers['x-request-id'], url).toMatch(UUID)
    }
  })

  it('echoes a well-formed incoming request id', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/nope',
      headers: { 'x-request-id': 'lb-trace-0123456789' },
    })

    expect(response.headers['x-request-id']).toBe('lb-trace-0123456789')
    expect(response.json().requestId).toBe('lb-trace-0123456789')
  })

  it.each(['has spaces in it', 'x'.repeat(200), 'short', 'line\nbreak-injected'])(
    'replaces a malformed incoming request id (%#)',
    async (given) => {
      const response = await app.inject({
        method: 'GET',
        url: '/healthz',
        headers: { 'x-request-id': given },
      })

      expect(response.headers['x-request-id']).not.toBe(given)
      expect(response.headers['x-request-id']).toMatch(UUID)
    },
  )

  it('answers unknown API paths with the shared 404 body', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nope' })

    expect(response.statusCode).toBe(404)
    expect(response.headers['content-type']).toContain('application/json')
    expect(response.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: translate('errors.notFound', 'en'),
      requestId: response.headers['x-request-id'],
    })
  })

  it('says "not found" in Spanish to a Spanish browser', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/nope',
      headers: { 'accept-language': 'es-ES,es;q=0.9' },
    })

    expect(response.statusCode).toBe(404)
    expect(response.json().message).toBe(translate('errors.notFound', 'es'))
    expect(response.json().message).not.toBe(translate('errors.notFound', 'en'))
  })

  it('rejects an unsupported language with a field-level 400', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/countries?lang=xx' })
    const body = response.json()

    expect(response.statusCode).toBe(400)
    expect(body.statusCode).toBe(400)
    expect(body.error).toBe('Bad Request')
    expect(body.message).toBe(translate('errors.validation', 'en'))
    expect(body.requestId).toBe(response.headers['x-request-id'])
    expect(body.issues).toHaveLength(1)
    expect(body.issues[0].field).toBe('querystring.lang')
    expect(body.issues[0].message).toEqual(expect.any(String))
  })

  it('explains the 400 in Spanish to a Spanish browser', async () => {
    const english = (await app.inject({ method: 'GET', url: '/api/countries?lang=xx' })).json()
    const response = await app.inject({
      method: 'GET',
      url: '/api/countries?lang=xx',
      headers: { 'accept-language': 'es' },
    })
    const body = response.json()

    expect(response.statusCode).toBe(400)
    expect(body.message).toBe(translate('errors.validation', 'es'))
    expect(body.issues[0].field).toBe('querystring.lang')
    expect(body.issues[0].message).not.toBe(english.issues[0].message)
  })

  it('lists the 250 countries sorted by their English name by default', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/countries' })
    const list: { code: string; name: string }[] = response.json().countries

    expect(response.statusCode).toBe(200)
    expect(list).toHaveLength(250)
    expect(new Set(list.map((c) => c.code)).size).toBe(250)
    expect(list.find((c) => c.code === 'DE')?.name).toBe('Germany')
    expect(list.find((c) => c.code === 'ES')?.name).toBe('Spain')
    const collator = new Intl.Collator('en')
    expect([...list].sort((a, b) => collator.compare(a.name, b.name))).toEqual(list)
  })

  it('names the countries in Spanish with ?lang=es', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/countries?lang=es' })
    const list: { code: string; name: string }[] = response.json().countries

    expect(list).toHaveLength(250)
    expect(list.find((c) => c.code === 'DE')?.name).toBe('Alemania')
    expect(list.find((c) => c.code === 'ES')?.name).toBe('España')
    const collator = new Intl.Collator('es')
    expect([...list].sort((a, b) => collator.compare(a.name, b.name))).toEqual(list)
  })

  it('names the countries in Spanish for a Spanish browser, and ?lang wins over it', async () => {
    const spanish = await app.inject({
      method: 'GET',
      url: '/api/countries',
      headers: { 'accept-language': 'es-MX' },
    })
    const forced = await app.inject({
      method: 'GET',
      url: '/api/countries?lang=en',
      headers: { 'accept-language': 'es-MX' },
    })
    const find = (body: { countries: { code: string; name: string }[] }) =>
      body.countries.find((c) => c.code === 'DE')?.name

    expect(find(spanish.json())).toBe('Alemania')
    expect(find(forced.json())).toBe('Germany')
  })

  it('tells a visitor that nobody is signed in', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/session' })

    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ user: null })
    expect(response.headers['cache-control']).toBe('no-store')
  })

  it('publishes an OpenAPI 3 document at /api/docs', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs' })
    const doc = response.json()

    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toContain('application/json')
    expect(doc.openapi).toMatch(/^3\./)
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/countries', '/api/session', '/healthz', '/readyz']),
    )
    expect(doc.paths['/api/docs']).toBeUndefined()
  })

  it("lists a country's first-level states from ISO 3166-2, and none where it has none", async () => {
    const spain = await app.inject({ method: 'GET', url: '/api/countries/ES/states' })
    const vatican = await app.inject({ method: 'GET', url: '/api/countries/VA/states' })
    const states: { code: string; name: string }[] = spain.json().states

    expect(spain.statusCode).toBe(200)
    expect(spain.headers['cache-control']).toBe('public, max-age=86400')
    expect(states.map((s) => s.name)).toContain('Andalucía')
    expect(states.every((s) => s.code.startsWith('ES-'))).toBe(true)
    // The 19 autonomous communities and cities, not the 50 provinces inside them.
    expect(states).toHaveLength(19)
    expect(vatican.json()).toEqual({ states: [] })
  })

  it('answers 404 for states of a country that does not exist, 400 for a malformed code', async () => {
    const unknown = await app.inject({ method: 'GET', url: '/api/countries/QQ/states' })
    const malformed = await app.inject({ method: 'GET', url: '/api/countries/es/states' })

    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().message).toBe(translate('errors.notFound', 'en'))
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().issues[0].field).toBe('params.country')
  })

  it('writes nothing when reference data is seeded again', async () => {
    expect(await seedReferenceData(app.db)).toEqual({ changed: 0 })
  })

  it('puts back a panel name that was edited in the table', async () => {
    const [before] = await app.db.select().from(panels).where(eq(panels.id, '01'))
    await app.db
      .update(panels)
      .set({ name: { en: 'Edited', es: 'Editado' } })
      .where(eq(panels.id, '01'))

    expect(await seedReferenceData(app.db)).toEqual({ changed: 1 })
    const [after] = await app.db.select().from(panels).where(eq(panels.id, '01'))
    expect(after).toEqual(before)
  })
})

describe('server errors', () => {
  let env: TestEnvironment
  let app: FastifyInstance

  beforeAll(async () => {
    env = await createTestEnvironment()
    app = await env.build({ clientDir: emptyClientDir() })
    app.get('/api/test-explode', { config: { public: true } }, async () => {
      throw new Error('secret database password xyz')
    })
  })

  afterAll(async () => {
    await app?.close()
    await env?.destroy()
  })

  it('answers a 500 without leaking what went wrong', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test-explode' })
    const body = response.json()

    expect(response.statusCode).toBe(500)
    expect(response.body).not.toContain('secret')
    expect(response.body).not.toContain('xyz')
    expect(response.body).not.toMatch(/stack|\.ts:\d+|at .*\(/)
    expect(body).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: translate('errors.internal', 'en'),
      requestId: response.headers['x-request-id'],
    })
  })

  it('apologises in Spanish to a Spanish browser', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/test-explode',
      headers: { 'accept-language': 'es' },
    })

    expect(response.statusCode).toBe(500)
    expect(response.json().message).toBe(translate('errors.internal', 'es'))
    expect(response.body).not.toContain('secret')
  })
})

describe('restarts', () => {
  let env: TestEnvironment
  let clientDir: string
  let app: FastifyInstance | undefined

  beforeAll(async () => {
    env = await createTestEnvironment()
    clientDir = emptyClientDir()
  })

  afterAll(async () => {
    await app?.close()
    await env?.destroy()
  })

  it('keeps data, the installation id and the generated secret across a restart', async () => {
    const first = await env.build({ clientDir })
    app = first
    await first.db.insert(appMeta).values({ key: 'test:note', value: { text: 'still here' } })
    const installationId = first.installationId
    const authSecret = first.secrets.authSecret
    await first.close()

    const second = await env.build({ clientDir })
    app = second
    const [row] = await second.db.select().from(appMeta).where(eq(appMeta.key, 'test:note'))

    expect(row?.value).toEqual({ text: 'still here' })
    expect(installationId).toMatch(UUID)
    expect(second.installationId).toBe(installationId)
    expect(second.secrets.authSecret).toBe(authSecret)
    expect((await second.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
  })

  it('stores the generated secret in DATA_DIR/secrets.json, readable by the owner only', () => {
    const file = path.join(env.dataDir, 'secrets.json')
    const { mode } = statSync(file)

    expect(mode & 0o777).toBe(0o600)
    expect(app?.secrets.authSecret.length).toBeGreaterThanOrEqual(32)
  })
})

describe('AUTH_SECRET from the environment', () => {
  const authSecret = 'an-operator-chosen-secret-of-at-least-32-chars'
  let env: TestEnvironment
  let app: FastifyInstance

  beforeAll(async () => {
    env = await createTestEnvironment({ AUTH_SECRET: authSecret })
    app = await env.build({ clientDir: emptyClientDir() })
  })

  afterAll(async () => {
    await app?.close()
    await env?.destroy()
  })

  it('wins over the generated one', () => {
    expect(app.secrets.authSecret).toBe(authSecret)
  })
})

describe('serving the client', () => {
  let env: TestEnvironment
  let app: FastifyInstance
  let clientDir: string

  beforeAll(async () => {
    env = await createTestEnvironment()
    clientDir = emptyClientDir()
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>t</title>')
    mkdirSync(path.join(clientDir, 'assets'))
    writeFileSync(path.join(clientDir, 'assets', 'app-123.js'), 'console.log("app")\n')
    app = await env.build({ clientDir })
  })

  afterAll(async () => {
    await app?.close()
    await env?.destroy()
  })

  it.each(['/', '/home', '/panel-info/3', '/my-account/single-payment', '/home?lang=es'])(
    'serves the app for the page %s',
    async (url) => {
      const response = await app.inject({ method: 'GET', url })

      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toContain('text/html')
      expect(response.headers['cache-control']).toBe('no-cache')
      expect(response.body).toBe('<!doctype html><title>t</title>')
    },
  )

  it('answers 404 for a path outside the route table but still sends the app', async () => {
    const response = await app.inject({ method: 'GET', url: '/definitely-not-a-page' })

    expect(response.statusCode).toBe(404)
    expect(response.headers['content-type']).toContain('text/html')
    expect(response.body).toBe('<!doctype html><title>t</title>')
  })

  describe('prerendered pages', () => {
    beforeAll(() => {
      for (const language of ['en', 'es']) {
        mkdirSync(path.join(clientDir, 'pages', language), { recursive: true })
        for (const name of ['login', 'home', 'not-found']) {
          writeFileSync(
            path.join(clientDir, 'pages', language, `${name}.html`),
            `${name} ${language}`,
          )
        }
      }
    })
    afterAll(() => rmSync(path.join(clientDir, 'pages'), { recursive: true, force: true }))

    it('sends a page in the language the browser asks for, and says it varies so', async () => {
      const english = await app.inject({ method: 'GET', url: '/login' })
      const spanish = await app.inject({
        method: 'GET',
        url: '/login',
        headers: { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' },
      })

      expect(english.body).toBe('login en')
      expect(spanish.body).toBe('login es')
      expect(spanish.headers.vary).toContain('Accept-Language')
      expect(spanish.headers.vary).toContain('Cookie')
      expect(spanish.headers['cache-control']).toBe('no-cache')
    })

    it('sends the language chosen in the app over the browser’s', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/login',
        headers: { 'accept-language': 'en', cookie: 'theme=dark; harmonize-language=es' },
      })

      expect(response.body).toBe('login es')
    })

    it('sends a member’s page as its shell, whatever its query', async () => {
      const response = await app.inject({ method: 'GET', url: '/home?panel=3' })

      expect(response.statusCode).toBe(200)
      expect(response.body).toBe('home en')
    })

    it('leaves a visitor’s page with a query to the browser, which reads the query', async () => {
      const response = await app.inject({ method: 'GET', url: '/login?email=a%40b.co' })

      expect(response.body).toBe('<!doctype html><title>t</title>')
    })

    it('sends the prerendered 404 page with its status', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/no-such-page',
        headers: { 'accept-language': 'es' },
      })

      expect(response.statusCode).toBe(404)
      expect(response.body).toBe('not-found es')
    })

    it('falls back to index.html for a page the build did not render', async () => {
      const response = await app.inject({ method: 'GET', url: '/upgrade-plan' })

      expect(response.statusCode).toBe(200)
      expect(response.body).toBe('<!doctype html><title>t</title>')
    })

    it('answers a sign-in form sent before the page’s code ran by opening the page again', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=a%40b.co&password=secret-words',
      })

      expect(response.statusCode).toBe(303)
      expect(response.headers.location).toBe('/login')
    })

    it('never sends a form to another host, whatever slashes the address starts with', async () => {
      const response = await app.inject({ method: 'POST', url: '//', payload: 'a=1' })

      expect(response.statusCode).toBe(303)
      expect(response.headers.location).toBe('/')
    })

    it('still answers a POST to an unknown API path with the JSON 404', async () => {
      const response = await app.inject({ method: 'POST', url: '/api/nope', payload: {} })

      expect(response.statusCode).toBe(404)
      expect(response.headers['content-type']).toContain('application/json')
    })
  })

  it('lets browsers keep hashed assets for a year', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/app-123.js' })

    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toContain('javascript')
    expect(response.headers['cache-control']).toContain('immutable')
    expect(response.body).toBe('console.log("app")\n')
  })

  it('sends the Brotli or gzip copy the build wrote to a browser that takes it', async () => {
    const script = `export const words = ${JSON.stringify('calm water '.repeat(400))}\n`
    writeFileSync(path.join(clientDir, 'assets', 'big-789.js'), script)
    const page = `<!doctype html><title>t</title>${'<p>calm</p>'.repeat(200)}`
    writeFileSync(path.join(clientDir, 'index.html'), page)
    precompressDir(clientDir)
    const get = (url: string, encoding?: string) =>
      app.inject({
        method: 'GET',
        url,
        headers: encoding ? { 'accept-encoding': encoding } : {},
      })

    const brotli = await get('/assets/big-789.js', 'gzip, deflate, br')
    expect(brotli.headers['content-encoding']).toBe('br')
    expect(brotli.headers['content-type']).toContain('javascript')
    expect(brotli.headers['cache-control']).toContain('immutable')
    expect(brotli.headers.vary).toContain('accept-encoding')
    expect(brotli.rawPayload.length).toBeLessThan(script.length / 10)
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(script)

    const gzip = await get('/assets/big-789.js', 'gzip')
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script)

    const plain = await get('/assets/big-789.js')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(script)

    // The app's page too, and it is never cached.
    try {
      const html = await get('/home', 'br')
      expect(html.statusCode).toBe(200)
      expect(html.headers['content-encoding']).toBe('br')
      expect(html.headers['cache-control']).toBe('no-cache')
      expect(brotliDecompressSync(html.rawPayload).toString()).toBe(page)
    } finally {
      writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>t</title>')
      for (const copy of ['index.html.br', 'index.html.gz']) rmSync(path.join(clientDir, copy))
    }
  })

  it('serves files built after the server started (a rebuild while it runs)', async () => {
    writeFileSync(path.join(clientDir, 'assets', 'app-456.js'), 'console.log("new build")\n')
    const response = await app.inject({ method: 'GET', url: '/assets/app-456.js' })

    expect(response.statusCode).toBe(200)
    expect(response.body).toBe('console.log("new build")\n')
  })

  it('never serves files outside the build or hidden ones', async () => {
    writeFileSync(path.join(clientDir, '.env'), 'SECRET=1\n')
    for (const url of [
      '/.env',
      '/assets/..%2f.env',
      '/..%2f..%2fetc%2fpasswd',
      '/assets/%2e%2e/.env',
    ]) {
      const response = await app.inject({ method: 'GET', url })
      expect(response.body, url).not.toContain('SECRET')
      expect(response.body, url).not.toContain('root:')
      expect([400, 403, 404], url).toContain(response.statusCode)
    }
  })

  it('answers a missing file with the JSON 404, not the app', async () => {
    const response = await app.inject({ method: 'GET', url: '/missing.js' })

    expect(response.statusCode).toBe(404)
    expect(response.headers['content-type']).toContain('application/json')
    expect(response.json().message).toBe(translate('errors.notFound', 'en'))
  })

  it('answers an unknown API path with the JSON 404, not the app', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nope' })

    expect(response.statusCode).toBe(404)
    expect(response.headers['content-type']).toContain('application/json')
    expect(response.json().statusCode).toBe(404)
  })
})

describe('without a built client', () => {
  let env: TestEnvironment
  let app: FastifyInstance
  let clientDir: string

  beforeAll(async () => {
    env = await createTestEnvironment()
    clientDir = emptyClientDir()
    app = await env.build({ clientDir })
  })

  afterAll(async () => {
    await app?.close()
    await env?.destroy()
  })

  it('serves the API only and answers pages with the JSON 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/' })

    expect(response.statusCode).toBe(404)
    expect(response.headers['content-type']).toContain('application/json')
    expect(response.json().statusCode).toBe(404)
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
  })
})

describe.runIf(!usingPostgres)('locking the embedded database', () => {
  let env: TestEnvironment
  let clientDir: string
  const open: FastifyInstance[] = []

  beforeAll(async () => {
    env = await createTestEnvironment()
    clientDir = emptyClientDir()
  })

  afterAll(async () => {
    for (const app of open) await app.close()
    await env?.destroy()
  })

  it('refuses a second app on the same DATA_DIR while the first is open', async () => {
    const first = await env.build({ clientDir })
    open.push(first)

    const second = env.build({ clientDir })
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError)
    await expect(second).rejects.toThrow(/already in use/)

    // The first app is unharmed by the refused attempt.
    expect((await first.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
    await first.close()
    open.pop()

    const third = await env.build({ clientDir })
    open.push(third)
    expect((await third.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
    await third.close()
    open.pop()
  })

  it('takes over a lock left by a process that died', async () => {
    const lockFile = path.join(env.dataDir, 'harmonize.lock')
    const stale = { pid: deadPid(), host: hostname(), since: new Date() }
    writeFileSync(lockFile, JSON.stringify(stale))

    const app = await env.build({ clientDir })
    open.push(app)

    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
    expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(process.pid)
    await app.close()
    open.pop()
    expect(existsSync(lockFile)).toBe(false)
  })
})
