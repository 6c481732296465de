import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FastifyInstance, HTTPMethods } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSignedInUser } from './support/accounts'
import {
  answerProblems,
  excerpt,
  type FuzzRequest,
  findLinks,
  linkCases,
  modelRoutes,
  oddUrlCases,
  RAW_MEDIA_SAMPLE,
  type RouteModel,
  rawHttp,
  routeCases,
  routeUrl,
  withTimeout,
} from './support/fuzz-inputs'
import { createTestEnvironment, type TestEnvironment, usingPostgres } from './support/test-app'

// A schema-driven fuzz test: every route in the app's catalogue (hidden ones included) gets
// malformed and hostile paths, querystrings, bodies and headers, as a visitor, as a signed-in
// member and as the operator. Whatever arrives, the server must answer cleanly: no 5xx, no
// hang, the shared error body with the request id, the security headers, and nothing of its
// insides. All problems are collected and reported together, grouped by route and problem.

const TIMEOUT_MS = 10_000
/** Copies of each route's valid-looking request sent at once, per identity. */
const BURST = 4
/** Links found in answers that get their own cases (signed media links…). */
const MAX_LINKS = 3
/** Answers looked at before deciding that an identity is turned away at the door. */
const GATE_PROBES = 8
/** One case in this many still goes to an identity that is turned away. */
const GATED_SAMPLE = 4

type IdentityName = 'signed out' | 'signed in' | 'operator'

interface Identity {
  name: IdentityName
  cookie?: string
  /** Set when an answer changed cookies (sign-out…): the session is checked before reuse. */
  stale: boolean
  /** The renewal under way, shared by concurrent requests. */
  renewing?: Promise<void>
  headers(): Record<string, string>
  /** A different client address per request, so per-address limits do not hide the rest. */
  address(): string
}

type Response = Awaited<ReturnType<FastifyInstance['inject']>>

interface Failure {
  method: string
  url: string
  /** The route pattern (or the odd URL) the request was about. */
  route: string
  identity: IdentityName
  label: string
  status: number | 'none'
  problem: string
  excerpt: string
}

let environment: TestEnvironment
let app: FastifyInstance
let clientDir: string
let routes: RouteModel[]
let identities: Identity[]
const failures: Failure[] = []
let sent = 0
/** Statuses seen per route, printed at the end to show which paths the inputs reached. */
const statuses = new Map<string, Map<number, number>>()

function addressMaker(prefix: string): () => string {
  let count = 0
  return () => {
    count += 1
    return `${prefix}.${(count >> 8) & 255}.${count & 255}`
  }
}

/** A member with paid access, through the operator's own endpoint, as the CLI does it. */
async function grantAccess(cookie: string) {
  const created = await app.inject({
    method: 'POST',
    url: '/api/operator/codes/create',
    headers: { authorization: `Bearer ${app.secrets.cliToken}` },
    payload: { count: 1, note: 'fuzz' },
    remoteAddress: '127.0.0.1',
  })
  const code = created.statusCode === 200 ? created.json().codes?.[0] : undefined
  if (!code) throw new Error(`the operator could not create a code: ${created.body}`)
  const redeemed = await app.inject({
    method: 'POST',
    url: '/api/account/access-code',
    headers: { cookie },
    payload: { code },
    remoteAddress: '127.0.0.1',
  })
  if (redeemed.statusCode !== 200) throw new Error(`redeeming a code failed: ${redeemed.body}`)
}

async function makeIdentities(): Promise<Identity[]> {
  const member = await createSignedInUser(app, { password: 'Fuzz-Member-99#' })
  const operatorUser = await createSignedInUser(app, { password: 'Fuzz-Operator-99#' })
  await grantAccess(operatorUser.cookie)
  const memberAddress = addressMaker('10.2')
  const operatorAddress = addressMaker('127.0')
  return [
    { name: 'signed out', stale: false, headers: () => ({}), address: addressMaker('10.1') },
    {
      name: 'signed in',
      cookie: member.cookie,
      stale: false,
      headers(): Record<string, string> {
        return this.cookie ? { cookie: this.cookie } : {}
      },
      address: memberAddress,
    },
    {
      name: 'operator',
      cookie: operatorUser.cookie,
      stale: false,
      headers() {
        return {
          authorization: `Bearer ${app.secrets.cliToken}`,
          ...(this.cookie ? { cookie: this.cookie } : {}),
        }
      },
      // Any 127.x address is loopback, which the operator routes require.
      address: operatorAddress,
    },
  ]
}

/** Signs the identity in again when a fuzzed request ended its session. */
async function refresh(identity: Identity) {
  if (identity.renewing) return identity.renewing
  if (!identity.stale || !identity.cookie) return
  identity.renewing = (async () => {
    identity.stale = false
    const session = await app.auth.api.getSession({
      headers: new Headers({ cookie: identity.cookie ?? '' }),
    })
    if (session) return
    const fresh = await createSignedInUser(app, { password: 'Fuzz-Renewed-99#' })
    if (identity.name === 'operator') await grantAccess(fresh.cookie)
    identity.cookie = fresh.cookie
  })().finally(() => {
    identity.renewing = undefined
  })
  return identity.renewing
}

function shortUrl(url: string): string {
  const clean = JSON.stringify(url).slice(1, -1)
  return clean.length > 120 ? `${clean.slice(0, 100)}…(${url.length} chars)` : clean
}

/** Sends one request as one identity and records every problem with its answer. */
async function send(
  identity: Identity,
  request: FuzzRequest,
  route: string,
): Promise<Response | undefined> {
  await refresh(identity)
  const headers = { ...identity.headers(), ...request.headers }
  const what = () =>
    `${request.method} ${shortUrl(request.url)} [${identity.name}] ${request.label}`
  const fail = (status: Failure['status'], problem: string, text: string) =>
    failures.push({
      method: request.method,
      url: shortUrl(request.url),
      route,
      identity: identity.name,
      label: request.label,
      status,
      problem,
      excerpt: text,
    })
  sent += 1
  let response: Response
  try {
    response = await withTimeout(
      app.inject({
        method: request.method as HTTPMethods,
        url: request.url,
        headers,
        payload: request.payload,
        remoteAddress: identity.address(),
      }),
      TIMEOUT_MS,
      what,
    )
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    fail(
      'none',
      message.startsWith('no answer') ? 'no answer within 10 s' : 'inject failed',
      message,
    )
    return undefined
  }
  if (identity.cookie && response.headers['set-cookie']) identity.stale = true
  const seen = statuses.get(route) ?? new Map<number, number>()
  seen.set(response.statusCode, (seen.get(response.statusCode) ?? 0) + 1)
  statuses.set(route, seen)
  const answer = { status: response.statusCode, headers: response.headers, body: response.body }
  const problems = answerProblems(request, answer)
  if (problems.length > 0) {
    fail(
      response.statusCode,
      problems.map(({ problem }) => problem).join('; '),
      problems.map(({ excerpt: text }) => text).find((text) => text.startsWith('…')) ??
        problems[0]?.excerpt ??
        '',
    )
  }
  return response
}

/** Failures grouped by route and problem, each with one full example and the inputs seen. */
function report(list: Failure[]): string[] {
  const groups = new Map<string, Failure[]>()
  for (const failure of list) {
    const key = `${failure.method} ${failure.route} — ${failure.problem}`
    groups.set(key, [...(groups.get(key) ?? []), failure])
  }
  return [...groups].map(([key, group]) => {
    const [first] = group as [Failure]
    const who = [...new Set(group.map((failure) => failure.identity))].join(', ')
    const statuses = [...new Set(group.map((failure) => failure.status))].join('/')
    const labels = [...new Set(group.map((failure) => failure.label))]
    const shown = labels.slice(0, 12).join(' | ')
    const more = labels.length > 12 ? ` | …${labels.length - 12} more` : ''
    return (
      `${key}: ${group.length} request(s), status ${statuses}, as ${who}; ` +
      `e.g. [${first.identity}] ${first.label}: ${first.method} ${first.url} → ${first.status} ` +
      `${first.excerpt}; inputs: ${shown}${more}`
    )
  })
}

beforeAll(async () => {
  environment = await createTestEnvironment()
  // No built client: only the API's routes are registered (no static-file wildcard).
  clientDir = mkdtempSync(path.join(tmpdir(), 'harmonize-fuzz-client-'))
  app = await environment.build({ clientDir })
  await app.ready()
  routes = modelRoutes(app.routeCatalog)
  identities = await makeIdentities()
})

afterAll(async () => {
  await app?.close()
  await environment?.destroy()
  if (clientDir) rmSync(clientDir, { recursive: true, force: true })
})

describe(`fuzzing every route (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('covers every route of the OpenAPI document', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs' })
    expect(response.statusCode).toBe(200)
    const paths = response.json().paths as Record<string, Record<string, unknown>>
    const documented = Object.entries(paths).flatMap(([url, operations]) =>
      Object.keys(operations)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(
          (method) =>
            `${method.toUpperCase()} ${url.replace(/\{\*\}/g, '*').replace(/\{(\w+)\}/g, ':$1')}`,
        ),
    )
    const fuzzed = new Set(routes.map((route) => `${route.method} ${route.url}`))
    expect(documented.length).toBeGreaterThan(10)
    expect(documented.filter((route) => !fuzzed.has(route))).toEqual([])
    // Hidden routes (operator, local mailbox) come on top of the documented ones.
    expect(routes.length).toBeGreaterThanOrEqual(documented.length)
  })

  it('survives hostile input on every route, as a visitor, a member and the operator', async () => {
    const started = Date.now()
    const operator = identities.find((identity) => identity.name === 'operator') as Identity
    const links = new Set<string>()

    for (const route of routes) {
      // A write route without a JSON body may take raw bytes (uploads): if a small real file is
      // not refused as the wrong type, it is the valid-looking body for the route's other cases.
      let rawBody: Buffer | undefined
      if (!route.body && ['POST', 'PUT', 'PATCH'].includes(route.method)) {
        const probe: FuzzRequest = {
          label: 'raw bytes probe',
          method: route.method,
          url: routeUrl(route),
          headers: { 'content-type': 'application/octet-stream' },
          payload: RAW_MEDIA_SAMPLE,
        }
        const answer = await send(operator, probe, route.url)
        if (answer && answer.statusCode !== 415) rawBody = RAW_MEDIA_SAMPLE
      }
      const cases = routeCases(route, rawBody)
      // An identity the route turns away before reading anything (401 for a visitor, 404 on
      // the operator's routes) gets every case at first, then only every GATED_SAMPLE-th one:
      // the rest would take the same path.
      const firstStatuses = new Map<IdentityName, number[]>()
      for (const [index, request] of cases.entries()) {
        for (const identity of identities) {
          const seen = firstStatuses.get(identity.name) ?? []
          const gated =
            seen.length >= GATE_PROBES &&
            (seen[0] === 401 || seen[0] === 404) &&
            seen.every((status) => status === seen[0])
          if (gated && index % GATED_SAMPLE !== 0) continue
          const answer = await send(identity, request, route.url)
          if (answer && seen.length < GATE_PROBES) {
            firstStatuses.set(identity.name, [...seen, answer.statusCode])
          }
          if (request === cases[0] && answer && answer.statusCode < 300) {
            for (const link of findLinks(answer.body, app.config.publicUrl)) links.add(link)
          }
        }
      }
      // The same valid-looking request several times at once: races between equal writes.
      const valid = cases[0] as FuzzRequest
      const burst = { ...valid, label: `burst of ${BURST} concurrent valid-looking requests` }
      await Promise.all(
        identities.flatMap((identity) =>
          Array.from({ length: BURST }, () => send(identity, burst, route.url)),
        ),
      )
    }
    // Links the API handed out (signed media links…): ranges, validators and tampering. Asked
    // again now that every route ran, so things made along the way (uploads…) are listed too.
    for (const route of routes) {
      if (route.method !== 'GET') continue
      const answer = await send(operator, routeCases(route)[0] as FuzzRequest, route.url)
      if (answer && answer.statusCode < 300) {
        for (const link of findLinks(answer.body, app.config.publicUrl)) links.add(link)
      }
    }
    const byPath = new Map<string, string>()
    for (const link of links) byPath.set(link.split('?')[0] ?? link, link)
    for (const link of [...byPath.values()].slice(0, MAX_LINKS)) {
      const route = `link ${(link.split('?')[0] ?? link).replace(/[^/]+$/, '…')}`
      for (const request of linkCases(link)) {
        for (const identity of identities) await send(identity, request, route)
      }
    }
    for (const [index, request] of oddUrlCases(routes).entries()) {
      const route = request.label === 'odd URL' ? shortUrl(request.url) : request.url
      // A method no route has is refused before anyone is looked up: one identity each, in turn.
      const who = request.label.startsWith('unknown method')
        ? [identities[index % identities.length] as Identity]
        : identities
      for (const identity of who) await send(identity, request, route)
    }

    const polluted = ({} as Record<string, unknown>).polluted
    if (polluted !== undefined) {
      failures.push({
        method: '*',
        url: '*',
        route: 'Object.prototype',
        identity: 'signed out',
        label: '__proto__ inputs',
        status: 'none',
        problem: 'Object.prototype was polluted',
        excerpt: excerpt(String(polluted)),
      })
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    const reached = [...statuses]
      .filter(([route]) => route.startsWith('/') || route.startsWith('link'))
      .map(([route, counts]) => {
        const list = [...counts].sort(([a], [b]) => a - b).map(([code, n]) => `${code}×${n}`)
        return `  ${route}: ${list.join(' ')}`
      })
    console.info(
      `fuzz: ${sent} requests to ${routes.length} routes in ${seconds} s ` +
        `(${usingPostgres ? 'PostgreSQL' : 'PGlite'}), ${failures.length} failed checks; ` +
        `statuses per route:\n${reached.join('\n')}`,
    )
    expect(report(failures)).toEqual([])
  }, 600_000)

  it('answers malformed requests on a real socket with the same care', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo
    const withParam = routes.find((route) => route.paramNames.some((name) => name !== '*'))
    const longParam = withParam
      ? routeUrl(
          withParam,
          Object.fromEntries(withParam.paramNames.map((name) => [name, 'p'.repeat(150)])),
        )
      : `/api/panels/${'p'.repeat(150)}`
    const lines: Array<[string, string]> = [
      ['GET', '/api/%ff'],
      ['GET', '/api/panels/%ff'],
      ['GET', longParam],
      ['GET', '//api//panels'],
      ['GET', '/api/panels/../account/sign-in'],
      ['GET', '/api/panels?%ff=1'],
      ['GET', '/api/panels;jsessionid=1'],
      ['GET', '/api/PANELS'],
      ['GET', `/api/${'x'.repeat(20_000)}`],
      ['GET', '/api/panels/%00'],
      ['GET', '/api/panels/<script>'],
      ['GET', '/api/panels/ñandú'],
      ['PROPFIND', '/api/panels'],
      ['DELETE', '/api/panels'],
    ]
    const requests = lines.map(([method, target]) => ({
      label: target.length > 60 ? `${target.slice(0, 40)}…(${target.length} chars)` : target,
      method,
      text: `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    }))
    requests.push({
      label: '/api/account/sign-in with the body {',
      method: 'POST',
      text:
        'POST /api/account/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n' +
        'Content-Type: application/json\r\nContent-Length: 1\r\n\r\n{',
    })
    requests.push({
      label: '/api/pan<NUL>els (a NUL byte in the request line)',
      method: 'GET',
      text: 'GET /api/pan\u0000els HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    })
    const socketFailures: Failure[] = []
    for (const request of requests) {
      const fail = (status: Failure['status'], problem: string, text: string) =>
        socketFailures.push({
          method: request.method,
          url: request.label,
          route: `socket ${request.label}`,
          identity: 'signed out',
          label: 'raw socket',
          status,
          problem,
          excerpt: text,
        })
      sent += 1
      try {
        const answer = await rawHttp(port, request.text, TIMEOUT_MS)
        const problems = answerProblems(request, answer)
        if (problems.length > 0) {
          const text = problems.find(({ excerpt: piece }) => piece.startsWith('…'))?.excerpt
          fail(
            answer.status,
            problems.map(({ problem }) => problem).join('; '),
            text ?? problems[0]?.excerpt ?? '',
          )
        }
      } catch (error) {
        fail('none', 'no clean answer', error instanceof Error ? error.message : String(error))
      }
    }
    console.info(`fuzz: ${requests.length} raw requests over a real socket`)
    expect(report(socketFailures)).toEqual([])
  })
})
