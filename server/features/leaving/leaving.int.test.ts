import { randomUUID } from 'node:crypto'
import { eq, getTableName, is } from 'drizzle-orm'
import { PgTable } from 'drizzle-orm/pg-core'
import type { FastifyInstance } from 'fastify'
import { unzipSync } from 'fflate'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as schema from '../../../db/schema'
import { dataExports, keptInvoices } from '../../../db/schema/leaving'
import { EXPORT_STEPS } from '../../../domain/leaving'
import { apiCallsTo, billingCallsTo, planCallsTo } from '../../../tests/support/api-calls'
import { buildUser, TEST_PASSWORD } from '../../../tests/support/factories'
import { passHumanCheckIn } from '../../../tests/support/human-check'
import { readPdf } from '../../../tests/support/pdf-text'
import { startTestSmtp, type TestSmtp } from '../../../tests/support/smtp'
import { createTestEnvironment, type TestEnvironment } from '../../../tests/support/test-app'
import { forgetExpiredInvoices } from '../billing/public'
import { forgetExpiredExports } from './export'

let smtp: TestSmtp
let environment: TestEnvironment
let app: FastifyInstance

// Mail goes to a real SMTP server, as in production: the local outbox would be a table of the
// app holding the confirmation sent to the deleted address.
beforeAll(async () => {
  smtp = await startTestSmtp()
  environment = await createTestEnvironment({ SMTP_URL: smtp.url })
  app = await environment.build({ jobs: { pollingIntervalSeconds: 0.5 } })
})

afterAll(async () => {
  await app?.close()
  await environment?.destroy()
  await smtp?.close()
})

const call = apiCallsTo(() => app)
const { priceOf, saveCard } = billingCallsTo(call)
const { planWhen, invoicesOf } = planCallsTo(call)

const picture = (colour: string) =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: colour } })
    .jpeg()
    .toBuffer()

/**
 * A member with something of everything: a SUBSCRIPTION paid with a saved card (a paid
 * invoice), a profile picture, a client with a photo and two scans, and a harmonizing session.
 */
async function memberWithEverything(language: 'en' | 'es' = 'en') {
  const { user, session } = await buildUser(app, { language, name: 'Marta Leaving' })
  const cookie = session?.header ?? ''
  await saveCard(cookie, '4242424242424242')
  const started = await call('POST', '/api/billing/plan/start', cookie, {
    priceId: await priceOf(cookie, 'subscription'),
    attemptId: randomUUID(),
  })
  expect(started.statusCode).toBe(200)
  const plan = await planWhen(cookie, (state) => state.subscription?.status === 'active')
  const [invoice] = await invoicesOf(cookie)
  expect(invoice?.status).toBe('paid')

  const avatar = await app.inject({
    method: 'PUT',
    url: '/api/account/avatar',
    payload: await picture('#336699'),
    headers: { cookie, 'content-type': 'image/jpeg' },
  })
  expect(avatar.statusCode).toBe(200)
  const photo = await app.inject({
    method: 'POST',
    url: '/api/clients/photos',
    payload: await picture('#aa7744'),
    headers: { cookie, 'content-type': 'image/jpeg' },
  })
  expect(photo.statusCode).toBe(200)
  const client = await call('POST', '/api/clients', cookie, {
    firstName: 'Lucía',
    lastName: 'Martín',
    email: 'lucia.client@example.com',
    phone: '+34 600 123 456',
    birthDate: '1985-04-23',
    affirmation: 'I am calm and clear.',
    photoNumber: photo.json().photo.number,
    consent: true,
  })
  expect(client.statusCode).toBe(200)
  const clientId: string = client.json().id
  for (const kind of ['aura', 'chakra']) {
    const scan = await call('POST', `/api/clients/${clientId}/scans/${kind}`, cookie, {
      signature: `${kind} signature`,
    })
    expect(scan.statusCode).toBe(200)
  }
  const session2 = await call('POST', '/api/harmonize/sessions', cookie, { panelId: '07' })
  expect(session2.statusCode).toBe(200)
  return {
    user,
    cookie,
    invoiceNumber: invoice?.number ?? '',
    subscriptionId: plan.subscription?.id ?? '',
  }
}

/** Asks for the member's data and waits until the page would show its download link. */
async function preparedExport(cookie: string) {
  const asked = await call('POST', '/api/account/data-export', cookie)
  expect(asked.statusCode).toBe(200)
  expect(asked.json().export).toMatchObject({ status: 'preparing', downloadUrl: null })
  return readyExport(cookie)
}

/** The member's export once it is ready, as the page polls for it. */
function readyExport(cookie: string) {
  return vi.waitFor(
    async () => {
      const state = (await call('GET', '/api/account/data-export', cookie)).json().export
      if (state?.status !== 'ready') throw new Error(`not ready: ${JSON.stringify(state)}`)
      return state as { id: string; downloadUrl: string; step: number; expiresAt: string }
    },
    { timeout: 60_000, interval: 200 },
  )
}

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes)

describe('download my data', () => {
  it('prepares a ZIP with the account, sessions, clients with scans and photos, and invoices as PDFs, then mails the link', async () => {
    const { user, cookie, invoiceNumber } = await memberWithEverything('en')
    const ready = await preparedExport(cookie)
    expect(ready.step).toBe(EXPORT_STEPS.length)
    const days = (Date.parse(ready.expiresAt) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(6.9)
    expect(days).toBeLessThanOrEqual(7)

    const download = await app.inject({
      method: 'GET',
      url: ready.downloadUrl,
      headers: { cookie },
    })
    expect(download.statusCode).toBe(200)
    expect(download.headers['content-type']).toBe('application/zip')
    expect(download.headers['content-disposition']).toMatch(
      /^attachment; filename="harmonize-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    )
    expect(download.headers['cache-control']).toBe('private, no-store')
    const files = unzipSync(download.rawPayload)

    const account = JSON.parse(text(files['account.json']))
    expect(account.account).toMatchObject({ email: user.email, name: 'Marta Leaving' })
    const sessions = JSON.parse(text(files['sessions.json']))
    expect(sessions).toHaveLength(1)
    expect(sessions[0]).toMatchObject({ panelId: '07', completedAt: null })
    expect(sessions[0].panel.length).toBeGreaterThan(2)

    const { clients } = JSON.parse(text(files['clients.json']))
    expect(clients).toHaveLength(1)
    expect(clients[0]).toMatchObject({ firstName: 'Lucía', email: 'lucia.client@example.com' })
    expect(clients[0].scans.map((scan: { kind: string }) => scan.kind)).toEqual(['aura', 'chakra'])
    expect(clients[0].scans[0].signature).toBe('aura signature')
    const photo = files[clients[0].photo]
    expect((await sharp(photo).metadata()).format).toBe('jpeg')
    expect((await sharp(files['profile-picture.webp']).metadata()).format).toBe('webp')

    const billing = JSON.parse(text(files['billing.json']))
    expect(billing.plans).toMatchObject([{ plan: 'subscription', status: 'active' }])
    expect(billing.cards).toMatchObject([{ last4: '4242' }])
    const pdf = files[`invoices/invoice-${invoiceNumber}.pdf`]
    expect(pdf).toBeDefined()
    expect((await readPdf(Buffer.from(pdf ?? []))).text).toContain(invoiceNumber)

    const mail = await smtp.waitForMessage(
      (message) => message.to.includes(user.email) && /ready to download/.test(message.subject),
    )
    expect(mail.text).toContain(`${app.config.publicUrl}/my-account#my-data`)
  })

  it('is downloaded by its owner only, and a second ask while preparing starts nothing new', async () => {
    const owner = await buildUser(app)
    const ownerCookie = owner.session?.header ?? ''
    // Three asks at once (a double click, two tabs): one export.
    const asks = await Promise.all(
      [1, 2, 3].map(() => call('POST', '/api/account/data-export', ownerCookie)),
    )
    const ids = asks.map((ask) => ask.json().export.id)
    expect(new Set(ids).size).toBe(1)
    const first = { id: ids[0] }
    const ready = await readyExport(ownerCookie)
    expect(ready.id).toBe(first.id)
    const other = await buildUser(app)
    const otherCookie = other.session?.header ?? ''
    const stolen = await call('GET', ready.downloadUrl, otherCookie, undefined, 'es')
    expect(stolen.statusCode).toBe(404)
    expect(stolen.json().message).toBe(
      'Esta descarga no está disponible. Puede que haya caducado; prepara una nueva en Mi cuenta.',
    )
    expect((await call('GET', '/api/account/data-export', otherCookie)).json()).toEqual({
      export: null,
    })
    expect((await call('GET', ready.downloadUrl, '')).statusCode).toBe(401)
    expect((await call('GET', ready.downloadUrl, ownerCookie)).statusCode).toBe(200)
  })
})

describe('delete my account', () => {
  it('refuses a wrong word or a wrong password, in English and Spanish, and keeps the account', async () => {
    const { user, session } = await buildUser(app)
    const cookie = session?.header ?? ''
    const refusals = [
      {
        body: { password: TEST_PASSWORD, word: 'ELIMINAR' },
        language: 'en',
        message: 'To delete your account, type DELETE in the box.',
      },
      {
        body: { password: TEST_PASSWORD, word: 'DELETE' },
        language: 'es',
        message: 'Para eliminar tu cuenta, escribe ELIMINAR en la casilla.',
      },
      {
        body: { password: 'Not-The-Password-1!', word: 'DELETE' },
        language: 'en',
        message: 'The current password is not correct.',
      },
      {
        body: { password: 'Not-The-Password-1!', word: 'ELIMINAR' },
        language: 'es',
        message: 'La contraseña actual no es correcta.',
      },
    ]
    for (const { body, language, message } of refusals) {
      const response = await call('POST', '/api/account/delete', cookie, body, language)
      expect(response.statusCode, message).toBe(400)
      expect(response.json().message).toBe(message)
    }
    // Still there, still signed in.
    expect((await call('GET', '/api/account/data-export', cookie)).statusCode).toBe(200)
    const [row] = await app.db
      .select({ blockedAt: schema.users.blockedAt })
      .from(schema.users)
      .where(isUser(user.id))
    expect(row).toEqual({ blockedAt: null })

    // Five tries in a quarter of an hour, as for a password change: the password is not guessed.
    const fifth = await call('POST', '/api/account/delete', cookie, refusals[2]?.body, 'en')
    expect(fifth.statusCode).toBe(400)
    const sixth = await call('POST', '/api/account/delete', cookie, refusals[2]?.body, 'es')
    expect(sixth.statusCode).toBe(429)
    expect(sixth.json().message).not.toMatch(/\b(the|please|wait)\b/i)
  })

  it('ends the plan at once, signs out, and leaves no row of the member in any table but the kept invoices', async () => {
    const { user, cookie, invoiceNumber, subscriptionId } = await memberWithEverything('es')
    await preparedExport(cookie)
    const [customer] = await app.db
      .select({ id: schema.billingCustomers.customerId })
      .from(schema.billingCustomers)
      .where(eq(schema.billingCustomers.userId, user.id))
    const customerId = customer?.id ?? ''
    expect(customerId).toMatch(/^cus_/)
    const files = [
      ...(await app.storage.list(`aura/${user.id}/`)),
      ...(await app.storage.list(`exports/${user.id}/`)),
      ...(await app.storage.list(`avatars/${user.id}`)),
    ]
    expect(files.length).toBeGreaterThanOrEqual(3)

    // What names the member or one of their records: before the deletion, every kind of
    // thing they had is found by it (so the search below can fail).
    const clientIds = (
      await app.db
        .select({ id: schema.clientRecords.id })
        .from(schema.clientRecords)
        .where(eq(schema.clientRecords.userId, user.id))
    ).map((row) => row.id)
    const needles = [user.id, user.email, customerId, subscriptionId, ...clientIds]
    expect(Object.keys(await tablesHolding(needles))).toEqual(
      expect.arrayContaining([
        'user',
        'session',
        'account',
        'billing_customer',
        'billing_subscription',
        'billing_invoice',
        'billing_payment_method',
        'client_record',
        'client_scan',
        'client_photo',
        'harmonize_session',
        'data_export',
      ]),
    )

    const deleted = await call(
      'POST',
      '/api/account/delete',
      cookie,
      { password: TEST_PASSWORD, word: ' eliminar ' },
      'es',
    )
    expect(deleted.statusCode).toBe(200)
    // This browser's cookie is cleared, and the session it held is no more.
    expect(String(deleted.headers['set-cookie'])).toMatch(/harmonize\.session_token=;/)
    expect((await call('GET', '/api/account/data-export', cookie)).statusCode).toBe(401)

    // No further charge: the plan ended at the provider, and no card is left to charge.
    expect((await app.payments.retrieveSubscription(subscriptionId))?.status).toBe('canceled')
    expect(await app.payments.listPaymentMethods(customerId)).toEqual([])
    // …and the provider keeps no customer of theirs (only its own record of invoices and charges).
    expect(await app.payments.retrieveCustomer(customerId)).toBeNull()

    // Every table of the schema, so one added later is checked too. The sandbox's tables stand
    // for the payment provider's own servers (Stripe keeps its invoices and charges itself).
    await vi.waitFor(
      // The provider's last events about the ended plan may still be on their way.
      async () => expect(await tablesHolding(needles)).toEqual({}),
      { timeout: 30_000, interval: 250 },
    )
    // The kept invoices name no account, only what the invoice itself printed.
    const keptRows = JSON.stringify(await app.db.select().from(keptInvoices))
    for (const needle of [user.id, user.email, customerId]) expect(keptRows).not.toContain(needle)

    // The invoice the law keeps: its number, amounts, billing name and dates, on no account.
    const kept = await app.db.select().from(keptInvoices)
    const invoice = kept.find((row) => row.number === invoiceNumber)
    expect(invoice).toMatchObject({ status: 'paid', customerName: 'Marta Leaving', total: 1500 })
    expect(invoice?.keepUntil.getUTCFullYear()).toBe(new Date().getUTCFullYear() + 7)

    // Its files follow in a job.
    await vi.waitFor(
      async () => {
        for (const file of files) expect(await app.storage.get(file.key), file.key).toBeNull()
      },
      { timeout: 30_000, interval: 250 },
    )

    const mail = await smtp.waitForMessage(
      (message) => message.to.includes(user.email) && /se ha eliminado/.test(message.subject),
    )
    expect(mail.text).toContain('no se te cobrará nada más')
    expect(mail.text).toContain('6 años')

    // The password no longer signs in; the address may sign up again as someone new.
    const signIn = await call('POST', '/api/account/sign-in', '', {
      email: user.email,
      password: TEST_PASSWORD,
      humanCheck: await passHumanCheckIn(app),
    })
    expect(signIn.statusCode).toBe(401)
    const signUp = await call('POST', '/api/account/sign-up', '', {
      name: 'Marta Again',
      email: user.email,
      password: TEST_PASSWORD,
      humanCheck: await passHumanCheckIn(app),
    })
    expect(signUp.statusCode).toBe(200)
    // Sign-up writes the account in a job, alike for every address (ADR 0037).
    const again = await vi.waitFor(
      async () => {
        const [row] = await app.db
          .select({ id: schema.users.id, name: schema.users.name })
          .from(schema.users)
          .where(isEmail(user.email))
        if (!row) throw new Error('the sign-up job has not run yet')
        return row
      },
      { timeout: 30_000, interval: 200 },
    )
    expect(again.name).toBe('Marta Again')
    expect(again?.id).not.toBe(user.id)
  })
})

describe('two deletions at the same moment', () => {
  it('deletes the account once; the other is told it is under way, in the member’s language, never a server error', async () => {
    const { user, session } = await buildUser(app)
    const cookie = session?.header ?? ''
    const body = { password: TEST_PASSWORD, word: 'ELIMINAR' }
    const answers = await Promise.all([
      call('POST', '/api/account/delete', cookie, body, 'es'),
      call('POST', '/api/account/delete', cookie, body, 'es'),
    ])
    const codes = answers.map((answer) => answer.statusCode).sort()
    // The second either passed the session check before the first signed everyone out (and is
    // told the deletion is under way), or came after it (and is signed out).
    expect(codes[0]).toBe(200)
    expect([401, 409]).toContain(codes[1])
    const other = answers.find((answer) => answer.statusCode !== 200)
    if (other?.statusCode === 409) {
      expect(other.json().message).toBe(
        'Tu cuenta ya se está eliminando. Recibirás un correo de confirmación cuando termine.',
      )
    }
    expect(await app.db.select().from(schema.users).where(isUser(user.id))).toEqual([])
  })
})

describe('an account an operator has just blocked', () => {
  it('is not deleted: the member is told it is blocked, in their language, and the block stays', async () => {
    const { user, session } = await buildUser(app)
    const cookie = session?.header ?? ''
    // As the console writes a block, an instant before it ends the account's sessions.
    const blocked = { blockedAt: new Date(), blockedReason: 'Chargebacks under review' }
    await app.db.update(schema.users).set(blocked).where(isUser(user.id))
    const refused = await call(
      'POST',
      '/api/account/delete',
      cookie,
      { password: TEST_PASSWORD, word: 'ELIMINAR' },
      'es',
    )
    expect(refused.statusCode).toBe(403)
    expect(refused.json().message).toBe(
      'Esta cuenta ha sido bloqueada. Si crees que es un error, escribe a nuestro equipo de soporte.',
    )
    const [row] = await app.db
      .select({ blockedAt: schema.users.blockedAt, blockedReason: schema.users.blockedReason })
      .from(schema.users)
      .where(isUser(user.id))
    expect(row).toEqual(blocked)
  })
})

describe('one-time codes', () => {
  it('go with the account, and another member’s stay, even when their address contains it', async () => {
    const { user, session } = await buildUser(app)
    const other = await buildUser(app, { email: `x${user.email}` })
    for (const email of [user.email, other.user.email]) {
      const asked = await call('POST', '/api/account/forgot-password', '', {
        email,
        humanCheck: await passHumanCheckIn(app),
      })
      expect(asked.statusCode).toBe(200)
    }
    const codes = async () =>
      (
        await app.db
          .select({ identifier: schema.verifications.identifier })
          .from(schema.verifications)
      )
        .map((row) => row.identifier)
        .filter((identifier) => identifier.endsWith(user.email))
    // The codes are made by a job, a moment after the answer (the same time for any address).
    await vi.waitFor(async () => expect(await codes()).toHaveLength(2), {
      timeout: 30_000,
      interval: 100,
    })
    const deleted = await call('POST', '/api/account/delete', session?.header ?? '', {
      password: TEST_PASSWORD,
      word: 'DELETE',
    })
    expect(deleted.statusCode).toBe(200)
    expect(await codes()).toEqual([
      expect.stringMatching(new RegExp(`-otp-x${user.email.replace(/[.+]/g, '\\$&')}$`)),
    ])
  })
})

describe('clean-up', () => {
  it('deletes downloads past their seven days, and kept invoices past their years', async () => {
    const { user, session } = await buildUser(app)
    const cookie = session?.header ?? ''
    const ready = await preparedExport(cookie)
    const [file] = await app.storage.list(`exports/${user.id}/`)
    expect(file).toBeDefined()

    // Nothing is due yet.
    await forgetExpiredExports(app)
    expect((await call('GET', ready.downloadUrl, cookie)).statusCode).toBe(200)

    await app.db
      .update(dataExports)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(dataExports.id, ready.id))
    // Past its time the page no longer offers it, and the file is refused before it is gone.
    expect((await call('GET', '/api/account/data-export', cookie)).json()).toEqual({ export: null })
    expect((await call('GET', ready.downloadUrl, cookie)).statusCode).toBe(404)
    await forgetExpiredExports(app)
    expect(await app.storage.get(file?.key ?? '')).toBeNull()
    expect(await app.db.select().from(dataExports).where(eq(dataExports.userId, user.id))).toEqual(
      [],
    )

    const invoice = (id: string, keepUntil: Date) => ({
      id,
      number: id.toUpperCase(),
      status: 'paid',
      billingReason: 'subscription_create',
      currency: 'usd' as const,
      subtotal: 1500,
      total: 1500,
      amountPaid: 1500,
      amountRefunded: 0,
      lines: [],
      customerName: 'Someone Gone',
      customerAddress: null,
      periodStart: new Date('2019-01-01'),
      periodEnd: new Date('2019-02-01'),
      paidAt: new Date('2019-01-01'),
      createdAt: new Date('2019-01-01'),
      keepUntil,
    })
    await app.db
      .insert(keptInvoices)
      .values([
        invoice('in_cleanup_due', new Date(Date.now() - 1000)),
        invoice('in_cleanup_kept', new Date(Date.now() + 86_400_000)),
      ])
    await forgetExpiredInvoices(app.db)
    const left = (await app.db.select({ id: keptInvoices.id }).from(keptInvoices)).map(
      (row) => row.id,
    )
    expect(left).toContain('in_cleanup_kept')
    expect(left).not.toContain('in_cleanup_due')
  })
})

describe('a payment still with the bank', () => {
  it('refuses the deletion, in the member’s language, and changes nothing', async () => {
    // A bank that takes a minute to answer: the first charge of the plan waits for it.
    const slow = await createTestEnvironment({ SMTP_URL: smtp.url })
    const slowApp = await slow.build({
      payments: { sandboxBankDelay: { minSeconds: 60, maxSeconds: 61 } },
    })
    try {
      const slowCall = apiCallsTo(() => slowApp)
      const slowBilling = billingCallsTo(slowCall)
      const { user, session } = await buildUser(slowApp, { language: 'es' })
      const cookie = session?.header ?? ''
      await slowBilling.saveCard(cookie, '4242424242424242')
      const started = await slowCall('POST', '/api/billing/plan/start', cookie, {
        priceId: await slowBilling.priceOf(cookie, 'subscription'),
        attemptId: randomUUID(),
      })
      expect(started.statusCode).toBe(200)
      const refused = await slowCall(
        'POST',
        '/api/account/delete',
        cookie,
        { password: TEST_PASSWORD, word: 'ELIMINAR' },
        'es',
      )
      expect(refused.statusCode).toBe(409)
      expect(refused.json().message).toBe(
        'Uno de tus pagos todavía está con el banco. Vuelve a intentarlo en unos minutos, cuando haya respondido.',
      )
      // Still signed in, not blocked, the plan still there.
      expect((await slowCall('GET', '/api/account/data-export', cookie)).statusCode).toBe(200)
      const [row] = await slowApp.db
        .select({ blockedAt: schema.users.blockedAt })
        .from(schema.users)
        .where(isUser(user.id))
      expect(row).toEqual({ blockedAt: null })
    } finally {
      await slowApp.close()
      await slow.destroy()
    }
  })
})

const isUser = (id: string) => eq(schema.users.id, id)

/** The tables of the schema (all of them) with their rows that contain one of `needles`. */
async function tablesHolding(needles: string[]): Promise<Record<string, unknown[]>> {
  const tables = Object.values(schema).filter((value) => is(value, PgTable)) as PgTable[]
  expect(tables.length).toBeGreaterThan(30)
  const found: Record<string, unknown[]> = {}
  for (const table of tables) {
    const name = getTableName(table)
    if (name.startsWith('sandbox_')) continue
    const rows = await app.db.select().from(table)
    const holding = rows.filter((row) =>
      needles.some((needle) => JSON.stringify(row).includes(needle)),
    )
    if (holding.length > 0) found[name] = holding
  }
  return found
}
const isEmail = (email: string) => eq(schema.users.email, email)
