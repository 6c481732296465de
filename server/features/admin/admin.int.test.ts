import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accessCodes, complimentaryAccess } from '../../../db/schema/access'
import { auditEntries } from '../../../db/schema/admin'
import { users } from '../../../db/schema/auth'
import {
  billingInvoices,
  billingPaymentIntents,
  billingPrices,
  billingSubscriptions,
} from '../../../db/schema/billing'
import { hasAccess } from '../../../domain/access'
import { ACCESS_SOURCES, MEMBER_PAGE_SIZE, SIGN_UP_DAYS } from '../../../domain/members'
import { AUDIT_PAGE_SIZE } from '../../../domain/operators'
import {
  buildUser,
  createSession,
  grantAccess,
  TEST_PASSWORD,
} from '../../../tests/support/factories'
import { passHumanCheckIn } from '../../../tests/support/human-check'
import { operatorCookie as operatorCookieFor } from '../../../tests/support/operators'
import { setUpTestApp } from '../../../tests/support/test-app'
import { accessFactsFor, accessSourceOf, countAccessSources } from '../access/public'
import { addOperator } from './operators'

const testApp = setUpTestApp()

let addresses = 0

/** Every route of the console's API, as the app registered them. */
const adminRoutes = () =>
  testApp.app.routeCatalog
    .filter((route) => route.url.startsWith('/api/admin/'))
    .flatMap((route) => [route.method].flat().map((method) => ({ method, url: route.url })))
    .filter((route) => route.method !== 'HEAD')

function call(method: string, url: string, cookie?: string) {
  return testApp.app.inject({
    method: method as 'GET',
    url,
    remoteAddress: `10.30.0.${++addresses}`,
    headers: { 'accept-language': 'en', ...(cookie ? { cookie } : {}) },
    // A body for the routes that take one: the guard answers before it is read.
    ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
  })
}

/** An operator's session cookie, with the second factor passed in it or not. */
const operatorCookie = (passed: boolean) => operatorCookieFor(testApp.app, { passed })

describe('the console’s API', () => {
  it('answers 403 on every route to a visitor, a member and an operator without the factor', async () => {
    const routes = adminRoutes()
    expect(routes.map((route) => `${route.method} ${route.url}`)).toContain('GET /api/admin/audit')
    const member = (await buildUser(testApp.app)).session?.header
    const withoutFactor = await operatorCookie(false)
    for (const { method, url } of routes) {
      for (const [who, cookie, message] of [
        ['a visitor', undefined, 'This is for the people who run Harmonize.'],
        ['a member', member, 'This is for the people who run Harmonize.'],
        [
          'an operator without the factor',
          withoutFactor,
          'Enter a code from your authenticator first.',
        ],
      ] as const) {
        const answer = await call(method, url, cookie)
        expect(answer.statusCode, `${method} ${url} as ${who}`).toBe(403)
        expect(answer.json().message, `${method} ${url} as ${who}`).toBe(message)
      }
    }
  })

  it('shows the audit log to an operator with the factor, newest first, a page at a time', async () => {
    const cookie = await operatorCookie(true)
    const memberId = randomUUID()
    // More entries about one member than a page holds, all at one instant (a minute ago): the
    // pages still follow each other without a gap or a repeat.
    const at = new Date(Date.now() - 60_000)
    await testApp.app.db.insert(auditEntries).values(
      Array.from({ length: AUDIT_PAGE_SIZE + 5 }, (_, index) => ({
        id: `${String(index).padStart(3, '0')}-${randomUUID()}`,
        at,
        actor: 'command line',
        action: 'test.entry',
        memberId,
        memberEmail: 'someone@example.test',
        before: { n: index },
        after: { n: index + 1 },
      })),
    )
    const first = await call('GET', `/api/admin/audit?member=${memberId}`, cookie)
    expect(first.statusCode).toBe(200)
    expect(first.headers['cache-control']).toBe('no-store')
    const one = first.json()
    expect(one.entries).toHaveLength(AUDIT_PAGE_SIZE)
    expect(one.entries[0]).toMatchObject({ action: 'test.entry', memberId, actor: 'command line' })
    expect(one.next).toEqual(expect.any(String))
    const two = (
      await call('GET', `/api/admin/audit?member=${memberId}&after=${one.next}`, cookie)
    ).json()
    expect(two.entries).toHaveLength(5)
    expect(two.next).toBeNull()
    const ids = [...one.entries, ...two.entries].map((entry: { id: string }) => entry.id)
    expect(new Set(ids).size).toBe(AUDIT_PAGE_SIZE + 5)
    expect(ids).toEqual([...ids].sort().reverse())

    // The whole log, newest first, begins with the operator's own set-up.
    const all = (await call('GET', '/api/admin/audit', cookie)).json()
    expect(all.entries.map((entry: { action: string }) => entry.action)).toContain(
      'operators.second-factor-set-up',
    )
  })

  it('is in the OpenAPI document, and the second factor’s set-up is not under it', async () => {
    const { paths } = (await call('GET', '/api/docs')).json()
    for (const { url } of adminRoutes()) {
      expect(paths).toHaveProperty([url.replace(/:(\w+)/g, '{$1}')])
    }
    expect(paths).toHaveProperty(['/api/operator-factor/set-up'])
    expect(
      Object.keys(paths).filter((path) => path.startsWith('/api/admin/operator-factor')),
    ).toEqual([])
  })

  it('misses no entry written in the same millisecond as a page’s last', async () => {
    const cookie = await operatorCookie(true)
    const memberId = randomUUID()
    // The database's own clock, microseconds apart: stored to the millisecond.
    await testApp.app.db.execute(sql`
      insert into audit_entry (id, at, actor, action, member_id)
      select gen_random_uuid()::text, clock_timestamp(), 'command line', 'test.burst', ${memberId}
      from generate_series(1, ${AUDIT_PAGE_SIZE + 3})`)
    const seen = new Set<string>()
    let after = ''
    do {
      const page = (
        await call(
          'GET',
          `/api/admin/audit?member=${memberId}${after ? `&after=${after}` : ''}`,
          cookie,
        )
      ).json()
      for (const entry of page.entries) seen.add(entry.id)
      after = page.next ?? ''
    } while (after)
    expect(seen.size).toBe(AUDIT_PAGE_SIZE + 3)
  })

  it('says a page that is no page is gone, in the asker’s words', async () => {
    const cookie = await operatorCookie(true)
    const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    for (const after of [
      'not-a-cursor',
      cursor(['-100000-01-01T00:00:00Z', 'x']),
      cursor(['2026-11-27T10:00:00.000Z', 'a\u0000b']),
      cursor({ at: 1 }),
    ]) {
      const answer = await call('GET', `/api/admin/audit?after=${after}`, cookie)
      expect(answer.statusCode, after).toBe(400)
      expect(answer.json().message).toMatch(
        /^(This page of the list no longer exists\. Start again from the first page\.|.*after.*)$/,
      )
    }
  })
})

/** A JSON request as an operator (or anyone holding `cookie`). */
function send(
  method: 'POST' | 'GET',
  url: string,
  cookie: string,
  payload?: object,
  language = 'en',
) {
  return testApp.app.inject({
    method,
    url,
    remoteAddress: `10.30.2.${++addresses % 250}`,
    headers: { 'accept-language': language, cookie },
    ...(payload ? { payload } : {}),
  })
}

/** A member's own answer to "may I play?". */
async function memberHasAccess(cookie: string): Promise<boolean> {
  const answer = await send('GET', '/api/access', cookie)
  expect(answer.statusCode).toBe(200)
  return answer.json().hasAccess
}

describe('the console’s members', () => {
  it('finds members by any part of the e-mail or the name, newest first, a page at a time', async () => {
    const cookie = await operatorCookie(true)
    const tag = randomUUID().slice(0, 8)
    // More members than a page holds, written at one instant: pages still neither skip nor repeat.
    await testApp.app.db.execute(sql`
      insert into "user" (id, name, email, email_verified, created_at)
      select ${tag} || '-' || n, 'Marta ' || ${tag} || ' Núñez ' || n,
        'm' || n || '.' || ${tag} || '@example.test', true, now() - interval '1 day'
      from generate_series(1, ${MEMBER_PAGE_SIZE + 2}) as n`)
    const seen: string[] = []
    let after = ''
    do {
      const page = (
        await send('GET', `/api/admin/members?q=${tag}${after ? `&after=${after}` : ''}`, cookie)
      ).json()
      seen.push(...page.members.map((member: { id: string }) => member.id))
      after = page.next ?? ''
    } while (after)
    expect(seen).toHaveLength(MEMBER_PAGE_SIZE + 2)
    expect(new Set(seen).size).toBe(MEMBER_PAGE_SIZE + 2)

    // By the name, in any case; `%` is a letter like any other, not "anything".
    const byName = (
      await send('GET', `/api/admin/members?q=${encodeURIComponent(`NÚÑEZ 7`)}`, cookie)
    ).json()
    expect(byName.members.map((member: { email: string }) => member.email)).toContain(
      `m7.${tag}@example.test`,
    )
    const percent = (await send('GET', `/api/admin/members?q=${tag}%25`, cookie)).json()
    expect(percent.members).toEqual([])

    const member = byName.members.find((row: { email: string }) => row.email.startsWith('m7.'))
    expect(member).toMatchObject({ name: `Marta ${tag} Núñez 7`, access: null, planStatus: null })
  })

  it('filters by where access comes from', async () => {
    const cookie = await operatorCookie(true)
    const coded = (await buildUser(testApp.app, { access: true })).user
    const without = (await buildUser(testApp.app)).user
    const search = async (access: string, email: string) =>
      (
        await send(
          'GET',
          `/api/admin/members?access=${access}&q=${encodeURIComponent(email)}`,
          cookie,
        )
      ).json().members.length
    expect(await search('code', coded.email)).toBe(1)
    expect(await search('none', coded.email)).toBe(0)
    expect(await search('none', without.email)).toBe(1)
    expect(await search('complimentary', without.email)).toBe(0)
    const bad = await send('GET', '/api/admin/members?access=gift', cookie, undefined, 'es')
    expect(bad.statusCode).toBe(400)
  })

  it('counts access as the member’s own door does, whatever their codes, plans and payments', async () => {
    const db = testApp.app.db
    const subscription = (userId: string, status: string, plan = 'subscription') => ({
      id: `sub_${randomUUID()}`,
      userId,
      priceId: 'price_test',
      plan: plan as 'subscription',
      status: status as 'active',
      gatewayStatus: status,
      currentPeriodStart: new Date(),
      currentPeriodEnd: new Date(Date.now() + 86_400_000),
      cancelAtPeriodEnd: false,
      paused: false,
      createdAt: new Date(),
    })
    const payment = (userId: string, status: string) => ({
      id: `pi_${randomUUID()}`,
      userId,
      priceId: 'price_test',
      amount: 9900,
      currency: 'usd' as const,
      status,
      createdAt: new Date(),
    })
    const gift = (userId: string, more: { endsAt?: Date; endedAt?: Date } = {}) => ({
      id: randomUUID(),
      userId,
      reason: 'test',
      grantedBy: 'operator@example.test',
      ...more,
    })
    const cases: [string, (userId: string) => Promise<unknown>, string | null][] = [
      ['nothing', async () => {}, null],
      ['an access code', (id) => grantAccess(testApp.app, id), 'code'],
      [
        'a revoked code',
        async (id) => {
          const code = await grantAccess(testApp.app, id)
          await db.update(accessCodes).set({ revokedAt: new Date() }).where(sql`code = ${code}`)
        },
        null,
      ],
      [
        'a subscription',
        (id) => db.insert(billingSubscriptions).values(subscription(id, 'active')),
        'subscription',
      ],
      [
        'four payments paid in full',
        (id) => db.insert(billingSubscriptions).values(subscription(id, 'paid', 'four_payments')),
        'four_payments',
      ],
      [
        // Its card is tried again by itself: the plan keeps its access meanwhile.
        'a failed renewal being retried',
        (id) => db.insert(billingSubscriptions).values(subscription(id, 'past_due')),
        'subscription',
      ],
      [
        'a renewal whose retries are used up',
        (id) => db.insert(billingSubscriptions).values(subscription(id, 'unpaid')),
        null,
      ],
      [
        'a plan out of retries after a lifetime payment',
        async (id) => {
          await db.insert(billingPaymentIntents).values(payment(id, 'succeeded'))
          await db.insert(billingSubscriptions).values(subscription(id, 'unpaid'))
        },
        'one_payment',
      ],
      [
        'a payment refused',
        (id) => db.insert(billingPaymentIntents).values(payment(id, 'requires_payment_method')),
        null,
      ],
      [
        'a payment',
        (id) => db.insert(billingPaymentIntents).values(payment(id, 'succeeded')),
        'one_payment',
      ],
      [
        'complimentary access',
        (id) => db.insert(complimentaryAccess).values(gift(id)),
        'complimentary',
      ],
      [
        'complimentary access over a failed renewal',
        async (id) => {
          await db.insert(billingSubscriptions).values(subscription(id, 'past_due'))
          await db
            .insert(complimentaryAccess)
            .values(gift(id, { endsAt: new Date(Date.now() + 86_400_000) }))
        },
        'complimentary',
      ],
      [
        'complimentary access past its end',
        (id) =>
          db.insert(complimentaryAccess).values(gift(id, { endsAt: new Date(Date.now() - 1_000) })),
        null,
      ],
      [
        'complimentary access ended, over a code',
        async (id) => {
          await grantAccess(testApp.app, id)
          await db.insert(complimentaryAccess).values(gift(id, { endedAt: new Date() }))
        },
        'code',
      ],
    ]
    const before = await countAccessSources(db)
    for (const [label, arrange, source] of cases) {
      const { user } = await buildUser(testApp.app)
      await arrange(user.id)
      const [row] = await db
        .select({ source: accessSourceOf(users.id) })
        .from(users)
        .where(sql`${users.id} = ${user.id}`)
      expect(row?.source, label).toBe(source)
      expect(hasAccess(await accessFactsFor(db, user.id)), label).toBe(source !== null)
    }
    // The overview counts everyone at once, by joins rather than member by member: the same.
    const after = await countAccessSources(db)
    for (const source of [null, ...ACCESS_SOURCES]) {
      const expected = cases.filter(([, , each]) => each === source).length
      expect((after.get(source) ?? 0) - (before.get(source) ?? 0), String(source)).toBe(expected)
    }
  })

  it('grants complimentary access and ends it: the member’s door opens and closes, the log says who and why', async () => {
    const cookie = await operatorCookie(true)
    const { user, session } = await buildUser(testApp.app)
    const memberCookie = session?.header ?? ''
    expect(await memberHasAccess(memberCookie)).toBe(false)

    const granted = await send('POST', `/api/admin/members/${user.id}/complimentary`, cookie, {
      reason: 'Renewal failed while travelling',
      endsOn: '2099-01-31',
    })
    expect(granted.statusCode).toBe(200)
    expect(granted.json()).toMatchObject({
      reason: 'Renewal failed while travelling',
      // The member still plays on the last day named; it ends as the next begins (UTC).
      endsAt: '2099-02-01T00:00:00.000Z',
    })
    expect(await memberHasAccess(memberCookie)).toBe(true)
    const detail = (await send('GET', `/api/admin/members/${user.id}`, cookie)).json()
    expect(detail.access).toMatchObject({ hasAccess: true, source: 'complimentary' })
    expect(detail.access.complimentary.reason).toBe('Renewal failed while travelling')

    const again = await send(
      'POST',
      `/api/admin/members/${user.id}/complimentary`,
      cookie,
      {
        reason: 'Twice',
      },
      'es',
    )
    expect(again.statusCode).toBe(409)
    expect(again.json().message).toBe(
      'Este miembro ya tiene acceso de cortesía. Finalízalo primero para concederlo de nuevo.',
    )

    const ended = await send('POST', `/api/admin/members/${user.id}/complimentary/end`, cookie, {
      reason: 'Card updated',
    })
    expect(ended.statusCode).toBe(200)
    expect(await memberHasAccess(memberCookie)).toBe(false)
    const endAgain = await send('POST', `/api/admin/members/${user.id}/complimentary/end`, cookie, {
      reason: 'Card updated',
    })
    expect(endAgain.statusCode).toBe(409)

    const log = (await send('GET', `/api/admin/audit?member=${user.id}`, cookie)).json()
    expect(
      log.entries.map((entry: { action: string; reason: string; memberEmail: string }) => [
        entry.action,
        entry.reason,
        entry.memberEmail,
      ]),
    ).toEqual([
      ['members.complimentary.end', 'Card updated', user.email],
      ['members.complimentary.grant', 'Renewal failed while travelling', user.email],
    ])
    expect(log.entries[1].actor).toMatch(/@/)
  })

  it('ends complimentary access at its end, though the member’s answer was kept', async () => {
    const { user, session } = await buildUser(testApp.app)
    const memberCookie = session?.header ?? ''
    await testApp.app.db.insert(complimentaryAccess).values({
      id: randomUUID(),
      userId: user.id,
      reason: 'A short gift',
      grantedBy: 'operator@example.test',
      endsAt: new Date(Date.now() + 2_000),
    })
    // Asked twice: the second answer comes from the cache, which keeps it no longer than that.
    expect(await memberHasAccess(memberCookie)).toBe(true)
    expect(await memberHasAccess(memberCookie)).toBe(true)
    await expect.poll(() => memberHasAccess(memberCookie), { timeout: 10_000 }).toBe(false)
  })

  it('refuses a change that says no reason, ends in the past or names no member, and writes nothing', async () => {
    const cookie = await operatorCookie(true)
    const { user } = await buildUser(testApp.app)
    const cases: [string, object, number, string][] = [
      [
        user.id,
        { reason: '   ' },
        400,
        'Di por qué, en pocas palabras: el registro de auditoría lo guarda.',
      ],
      [user.id, { reason: 'x'.repeat(501) }, 400, 'El motivo debe tener menos de 500 caracteres.'],
      [
        user.id,
        { reason: 'Gift', endsOn: '31/01/2099' },
        400,
        'Indica el último día como una fecha, por ejemplo 2027-01-31, o déjalo vacío.',
      ],
      [
        user.id,
        { reason: 'Gift', endsOn: '2099-02-30' },
        400,
        'Indica el último día como una fecha, por ejemplo 2027-01-31, o déjalo vacío.',
      ],
      [
        user.id,
        { reason: 'Gift', endsOn: '2020-01-01' },
        400,
        'El último día debe ser hoy o un día que aún no ha llegado.',
      ],
      [
        user.id,
        { reason: 'Line one\nline two' },
        400,
        'Escribe el motivo en una sola línea, sin tabulaciones.',
      ],
      ['no-such-member', { reason: 'Gift' }, 404, 'Ningún miembro tiene este identificador.'],
      [
        (await send('GET', '/api/session', cookie)).json().user.id,
        { reason: 'For me' },
        403,
        'Tu propia cuenta no la puedes cambiar aquí',
      ],
    ]
    for (const [id, payload, status, message] of cases) {
      const answer = await send(
        'POST',
        `/api/admin/members/${id}/complimentary`,
        cookie,
        payload,
        'es',
      )
      expect(answer.statusCode, JSON.stringify(payload)).toBe(status)
      // A field's own message comes in the answer's issues, beside a general one.
      expect(JSON.stringify(answer.json()), JSON.stringify(payload)).toContain(message)
    }
    const detail = (await send('GET', `/api/admin/members/${user.id}`, cookie)).json()
    expect(detail.access).toEqual({ hasAccess: false, source: null, complimentary: null })
    const log = (await send('GET', `/api/admin/audit?member=${user.id}`, cookie)).json()
    expect(log.entries).toEqual([])
    expect((await send('GET', '/api/admin/members/no-such-member', cookie)).statusCode).toBe(404)
  })
})

describe('the console’s overview', () => {
  it('counts members, access by source, money in and owed, and today’s sign-ups', async () => {
    const cookie = await operatorCookie(true)
    const db = testApp.app.db
    const read = async () => {
      const answer = await send('GET', '/api/admin/overview', cookie)
      expect(answer.statusCode).toBe(200)
      return answer.json()
    }
    const before = await read()
    expect(before.signUps).toHaveLength(SIGN_UP_DAYS)

    const priceId = `price_${randomUUID()}`
    await db.insert(billingPrices).values({
      id: priceId,
      productId: 'prod_test',
      nickname: 'Test monthly',
      plan: 'subscription',
      unitAmount: 1_500,
      currency: 'usd',
      active: false,
      createdAt: new Date(),
    })
    const plan = (userId: string, status: 'active' | 'past_due') => ({
      id: `sub_${randomUUID()}`,
      userId,
      priceId,
      plan: 'subscription' as const,
      status,
      gatewayStatus: status,
      currentPeriodStart: new Date(),
      currentPeriodEnd: new Date(Date.now() + 86_400_000),
      cancelAtPeriodEnd: false,
      paused: false,
      createdAt: new Date(),
    })
    const payer = (await buildUser(testApp.app)).user
    const late = (await buildUser(testApp.app)).user
    await buildUser(testApp.app, { access: true })
    const paying = plan(payer.id, 'active')
    await db.insert(billingSubscriptions).values([paying, plan(late.id, 'past_due')])
    // A ONE PAYMENT bought as an upgrade is both an invoice and a payment: counted once.
    const upgrader = (await buildUser(testApp.app)).user
    await db.insert(billingInvoices).values({
      id: `in_${randomUUID()}`,
      number: `TEST-${randomUUID().slice(0, 8)}`,
      userId: upgrader.id,
      subscriptionId: null,
      status: 'paid',
      billingReason: 'manual',
      currency: 'usd',
      subtotal: 9_900,
      total: 9_900,
      amountDue: 9_900,
      amountPaid: 9_900,
      lines: [],
      customerName: 'Upgrader',
      customerEmail: upgrader.email,
      attemptCount: 1,
      periodStart: new Date(),
      periodEnd: new Date(),
      paidAt: new Date(),
      createdAt: new Date(),
    })
    await db.insert(billingPaymentIntents).values({
      id: `pi_${randomUUID()}`,
      userId: upgrader.id,
      priceId,
      amount: 9_900,
      currency: 'usd',
      status: 'succeeded',
      createdAt: new Date(),
    })
    await db.insert(billingInvoices).values({
      id: `in_${randomUUID()}`,
      number: `TEST-${randomUUID().slice(0, 8)}`,
      userId: payer.id,
      subscriptionId: paying.id,
      status: 'paid',
      billingReason: 'subscription_create',
      currency: 'usd',
      subtotal: 1_500,
      total: 1_500,
      amountDue: 1_500,
      amountPaid: 1_500,
      lines: [],
      customerName: 'Payer',
      customerEmail: payer.email,
      attemptCount: 1,
      periodStart: new Date(),
      periodEnd: new Date(),
      paidAt: new Date(),
      createdAt: new Date(),
    })

    const after = await read()
    // Besides those three, setUp's operator counts as a member too.
    expect(after.members - before.members).toBeGreaterThanOrEqual(3)
    // The paying member and the one whose renewal is being retried (access kept meanwhile).
    expect(after.withAccess.subscription - before.withAccess.subscription).toBe(2)
    expect(after.withAccess.one_payment - before.withAccess.one_payment).toBe(1)
    expect(after.withAccess.code - before.withAccess.code).toBe(1)
    // The refused renewal is owed, still counted as recurring while it is retried.
    expect(after.failedPayments - before.failedPayments).toBe(1)
    expect(after.monthlyRecurring - before.monthlyRecurring).toBe(3_000)
    expect(after.revenueLast30Days - before.revenueLast30Days).toBe(1_500 + 9_900)
    const today = new Date().toISOString().slice(0, 10)
    expect(after.signUps.at(-1).day).toBe(today)
    expect(after.signUps.at(-1).count - before.signUps.at(-1).count).toBeGreaterThanOrEqual(3)
  })
})

describe('the console’s actions on an account', () => {
  const signIn = async (email: string, password = TEST_PASSWORD) =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/account/sign-in',
      remoteAddress: `10.30.3.${++addresses % 250}`,
      headers: { 'accept-language': 'en' },
      payload: {
        email,
        password,
        rememberMe: false,
        humanCheck: await passHumanCheckIn(testApp.app),
      },
    })
  const sessionOf = async (cookie: string) =>
    (await send('GET', '/api/session', cookie)).json().user?.email ?? null

  it('signs a member out on every device, and they may sign in again', async () => {
    const cookie = await operatorCookie(true)
    const { user, session } = await buildUser(testApp.app)
    const phone = session?.header ?? ''
    const laptop = (await signIn(user.email)).cookies.map((c) => `${c.name}=${c.value}`).join('; ')
    expect(await sessionOf(phone)).toBe(user.email)
    expect(await sessionOf(laptop)).toBe(user.email)
    expect(
      (await send('GET', `/api/admin/members/${user.id}`, cookie)).json().account.sessions,
    ).toBe(2)

    const answer = await send('POST', `/api/admin/members/${user.id}/sign-out`, cookie)
    expect(answer.statusCode).toBe(200)
    expect(await sessionOf(phone)).toBeNull()
    expect(await sessionOf(laptop)).toBeNull()
    expect(
      (await send('GET', `/api/admin/members/${user.id}`, cookie)).json().account.sessions,
    ).toBe(0)
    expect((await signIn(user.email)).statusCode).toBe(200)

    const log = (await send('GET', `/api/admin/audit?member=${user.id}`, cookie)).json()
    expect(log.entries[0]).toMatchObject({
      action: 'members.sign-out-everywhere',
      before: { sessions: 2 },
      after: { sessions: 0 },
    })
  })

  it('blocks an account: signed out, no sign-in, and says so only to the right password; unblocks it', async () => {
    const cookie = await operatorCookie(true)
    const { user, session } = await buildUser(testApp.app)
    const blocked = await send('POST', `/api/admin/members/${user.id}/block`, cookie, {
      reason: 'Chargeback fraud',
    })
    expect(blocked.statusCode).toBe(200)
    expect(await sessionOf(session?.header ?? '')).toBeNull()
    const refused = await signIn(user.email)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().message).toBe(
      'This account has been blocked. If you think this is a mistake, write to our support team.',
    )
    expect(refused.cookies.filter((c) => c.value !== '')).toEqual([])
    // A wrong password hears what any wrong password hears.
    expect((await signIn(user.email, 'Wrong-password-1!')).statusCode).toBe(401)
    const detail = (await send('GET', `/api/admin/members/${user.id}`, cookie)).json()
    expect(detail.account.blocked).toMatchObject({ reason: 'Chargeback fraud' })
    const row = (
      await send('GET', `/api/admin/members?q=${encodeURIComponent(user.email)}`, cookie)
    ).json().members[0]
    expect(row.blocked).toBe(true)
    const again = await send(
      'POST',
      `/api/admin/members/${user.id}/block`,
      cookie,
      { reason: 'x' },
      'es',
    )
    expect(again.statusCode).toBe(409)
    expect(again.json().message).toBe('Esta cuenta ya está bloqueada.')

    const unblocked = await send('POST', `/api/admin/members/${user.id}/unblock`, cookie, {
      reason: 'Bank settled it',
    })
    expect(unblocked.statusCode).toBe(200)
    expect((await signIn(user.email)).statusCode).toBe(200)
    const log = (await send('GET', `/api/admin/audit?member=${user.id}`, cookie)).json()
    expect(log.entries.map((entry: { action: string }) => entry.action)).toEqual([
      'members.unblock',
      'members.block',
    ])
    expect(log.entries[0].before).toMatchObject({ blocked: true, reason: 'Chargeback fraud' })
  })

  it('refuses to block without a reason, or the operator themselves', async () => {
    const cookie = await operatorCookie(true)
    const { user } = await buildUser(testApp.app)
    const empty = await send('POST', `/api/admin/members/${user.id}/block`, cookie, { reason: '' })
    expect(empty.statusCode).toBe(400)
    const self = (await send('GET', '/api/session', cookie)).json().user.id
    const own = await send('POST', `/api/admin/members/${self}/block`, cookie, { reason: 'Oops' })
    expect(own.statusCode).toBe(403)
    expect(
      (await send('GET', `/api/admin/members/${user.id}`, cookie)).json().account.blocked,
    ).toBeNull()
  })
})

describe('the console’s access codes', () => {
  it('creates codes to give out, lists them with their state, and revokes one: its holder loses access', async () => {
    const cookie = await operatorCookie(true)
    const note = `Retreat ${randomUUID().slice(0, 6)}`
    const made = await send('POST', '/api/admin/codes', cookie, { count: 3, note })
    expect(made.statusCode).toBe(200)
    const codes: string[] = made.json().codes
    expect(codes).toHaveLength(3)
    expect(new Set(codes).size).toBe(3)

    const { user, session } = await buildUser(testApp.app)
    const memberCookie = session?.header ?? ''
    const redeemed = await send('POST', '/api/account/access-code', memberCookie, {
      code: codes[0],
    })
    expect(redeemed.statusCode).toBe(200)
    expect(await memberHasAccess(memberCookie)).toBe(true)

    const listed = (
      await send('GET', `/api/admin/codes?q=${encodeURIComponent(note)}`, cookie)
    ).json()
    expect(listed.next).toBeNull()
    const ours = listed.codes
    expect(
      ours
        .map((code: { code: string; status: string; redeemedBy: string | null }) => [
          code.code,
          code.status,
          code.redeemedBy,
        ])
        .sort(),
    ).toEqual(
      [
        [codes[0], 'redeemed', user.email],
        [codes[1], 'available', null],
        [codes[2], 'available', null],
      ].sort(),
    )

    const revoked = await send('POST', '/api/admin/codes/revoke', cookie, { code: codes[0] })
    expect(revoked.json()).toEqual({ revoked: true })
    expect(await memberHasAccess(memberCookie)).toBe(false)
    expect(
      (await send('POST', '/api/admin/codes/revoke', cookie, { code: codes[0] })).json(),
    ).toEqual({
      revoked: false,
    })

    const log = (await send('GET', '/api/admin/audit', cookie)).json().entries
    expect(log[0]).toMatchObject({
      action: 'codes.revoke',
      after: { code: codes[0], revoked: true },
    })
    expect(log[1]).toMatchObject({ action: 'codes.create', after: { count: 3, note } })
  })

  it('lists codes a page at a time, newest first, and finds one by its start, its note or who redeemed it', async () => {
    const cookie = await operatorCookie(true)
    const note = `Batch_${randomUUID().slice(0, 6)}%`
    // Made in three batches: within one batch all share a time, and the code orders them.
    const made: string[] = []
    for (const count of [40, 40, 40]) {
      made.push(...(await send('POST', '/api/admin/codes', cookie, { count, note })).json().codes)
    }
    const seen: string[] = []
    let after = ''
    let pages = 0
    do {
      const page = (
        await send(
          'GET',
          `/api/admin/codes?q=${encodeURIComponent(note)}${after ? `&after=${after}` : ''}`,
          cookie,
        )
      ).json()
      seen.push(...page.codes.map((code: { code: string }) => code.code))
      after = page.next ?? ''
      pages++
    } while (after)
    expect(pages).toBe(3)
    expect(seen).toHaveLength(120)
    expect(new Set(seen)).toEqual(new Set(made))
    // The newest batch first.
    expect(new Set(seen.slice(0, 40))).toEqual(new Set(made.slice(80)))

    const one = made[7] ?? ''
    const byStart = (
      await send('GET', `/api/admin/codes?q=${one.slice(0, 9).toLowerCase()}`, cookie)
    ).json()
    expect(byStart.codes.map((code: { code: string }) => code.code)).toContain(one)
    const { user, session } = await buildUser(testApp.app)
    await send('POST', '/api/account/access-code', session?.header ?? '', { code: one })
    const byHolder = (
      await send('GET', `/api/admin/codes?q=${encodeURIComponent(user.email)}`, cookie)
    ).json()
    expect(byHolder.codes).toEqual([expect.objectContaining({ code: one, status: 'redeemed' })])
    // The search's % is a percent sign, not "anything".
    const percent = (await send('GET', '/api/admin/codes?q=Batch_%25', cookie)).json()
    expect(percent.codes).toEqual([])

    const bad = await send('GET', '/api/admin/codes?after=not-a-page', cookie)
    expect(bad.statusCode).toBe(400)
  })

  it('refuses a number of codes it will not make, or a code that is no code', async () => {
    const cookie = await operatorCookie(true)
    for (const body of [{ count: 0 }, { count: 501 }, { count: 2.5 }]) {
      expect(
        (await send('POST', '/api/admin/codes', cookie, body)).statusCode,
        JSON.stringify(body),
      ).toBe(400)
    }
    for (const body of [{ code: '' }, { code: 'a b' }, {}]) {
      expect(
        (await send('POST', '/api/admin/codes/revoke', cookie, body)).statusCode,
        JSON.stringify(body),
      ).toBe(400)
    }
  })
})

describe('the console’s prices', () => {
  it('puts a price on sale and archives it, through the gateway, with the log', async () => {
    const cookie = await operatorCookie(true)
    const nickname = `SPRING_${randomUUID().slice(0, 6).toUpperCase()}`
    const made = await send('POST', '/api/admin/prices', cookie, {
      nickname,
      plan: 'subscription',
      unitAmount: 2_500,
    })
    expect(made.statusCode).toBe(200)
    const price = made.json().price
    expect(price).toMatchObject({ nickname, label: nickname.replace('_', ' '), active: true })
    const listed = (await send('GET', '/api/admin/prices', cookie)).json().prices
    expect(listed.find((row: { id: string }) => row.id === price.id)).toMatchObject({
      active: true,
    })

    const archived = await send('POST', '/api/admin/prices/archive', cookie, { id: price.id })
    expect(archived.json().price).toMatchObject({ id: price.id, active: false })
    // Archived twice: nothing changes, and the log says it once.
    await send('POST', '/api/admin/prices/archive', cookie, { id: price.id })
    const log = (await send('GET', '/api/admin/audit', cookie)).json().entries
    expect(log.slice(0, 2).map((entry: { action: string }) => entry.action)).toEqual([
      'prices.archive',
      'prices.create',
    ])
    expect(log[1].after).toMatchObject({ id: price.id, nickname, unitAmount: 2_500 })
  })

  it('refuses a price it cannot sell, and one it does not know', async () => {
    const cookie = await operatorCookie(true)
    for (const body of [
      { nickname: '', plan: 'subscription', unitAmount: 2_500 },
      { nickname: 'Spring!', plan: 'subscription', unitAmount: 2_500 },
      { nickname: 'SPRING', plan: 'weekly', unitAmount: 2_500 },
      { nickname: 'SPRING', plan: 'subscription', unitAmount: 10 },
    ]) {
      const answer = await send('POST', '/api/admin/prices', cookie, body)
      expect(answer.statusCode, JSON.stringify(body)).toBe(400)
    }
    const unknown = await send('POST', '/api/admin/prices/archive', cookie, { id: 'price_nope' })
    expect(unknown.statusCode).toBe(404)
  })
})

describe('the session’s answer', () => {
  it('names an operator as one from their next session on, and nobody else', async () => {
    const { user, session } = await buildUser(testApp.app)
    const before = (await send('GET', '/api/session', session?.header ?? '')).json()
    expect(before.user).not.toHaveProperty('operator')
    await addOperator(testApp.app.db, user.email)
    const next = await createSession(testApp.app, user.id)
    expect((await send('GET', '/api/session', next.header)).json().user.operator).toBe(true)
  })
})

describe('the console’s invoices', () => {
  it('opens a member’s invoice as a PDF, and no invoice of another member', async () => {
    const cookie = await operatorCookie(true)
    const { user } = await buildUser(testApp.app)
    const { user: other } = await buildUser(testApp.app)
    const id = `in_${randomUUID()}`
    await testApp.app.db.insert(billingInvoices).values({
      id,
      number: `TEST-${randomUUID().slice(0, 8)}`,
      userId: user.id,
      subscriptionId: null,
      status: 'paid',
      billingReason: 'manual',
      currency: 'usd',
      subtotal: 4_900,
      total: 4_900,
      amountDue: 4_900,
      amountPaid: 4_900,
      lines: [
        {
          description: 'ONE PAYMENT',
          amount: 4_900,
          proration: false,
          periodStart: new Date().toISOString(),
          periodEnd: new Date().toISOString(),
        },
      ],
      customerName: 'Ana',
      customerEmail: user.email,
      attemptCount: 1,
      periodStart: new Date(),
      periodEnd: new Date(),
      paidAt: new Date(),
      createdAt: new Date(),
    })
    const pdf = await send('GET', `/api/admin/members/${user.id}/invoices/${id}/pdf`, cookie)
    expect(pdf.statusCode).toBe(200)
    expect(pdf.headers['content-type']).toBe('application/pdf')
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
    const detail = (await send('GET', `/api/admin/members/${user.id}`, cookie)).json()
    expect(detail.invoices.map((invoice: { id: string }) => invoice.id)).toEqual([id])

    const elsewhere = await send('GET', `/api/admin/members/${other.id}/invoices/${id}/pdf`, cookie)
    expect(elsewhere.statusCode).toBe(404)
    const member = await buildUser(testApp.app)
    const asMember = await send(
      'GET',
      `/api/admin/members/${user.id}/invoices/${id}/pdf`,
      member.session?.header ?? '',
    )
    expect(asMember.statusCode).toBe(403)
  })
})
