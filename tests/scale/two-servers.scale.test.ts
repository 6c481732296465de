import { readdirSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signEvent } from '../../server/payments/events'
import { type Cluster, startCluster } from './cluster'
import { newMember, PASSWORD, pay, play, until, Visitor } from './member'

// Two servers behind nginx, round robin, on one PostgreSQL, Redis and S3: what a member does
// goes to either, and nothing is lost, doubled or told apart by which one answered.

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster({ servers: 2 })
})
afterAll(async () => {
  await cluster?.close()
})

const [first, second] = [0, 1]
const server = (index: number) => {
  const found = cluster.servers[index]
  if (!found) throw new Error(`no server ${index}`)
  return found
}

describe('two servers started at the same moment on an empty database', () => {
  it('ran each migration once, and both serve', async () => {
    const migrations = readdirSync(path.resolve(import.meta.dirname, '../../db/migrations')).filter(
      (name) => name.endsWith('.sql'),
    )
    const applied = await cluster.sql('select hash from drizzle.__drizzle_migrations')
    expect(applied.rowCount).toBe(migrations.length)
    expect(new Set(applied.rows.map((row) => row.hash)).size).toBe(migrations.length)
    for (const each of cluster.servers) {
      expect((await fetch(`${each.url}/readyz`)).status, each.output()).toBe(200)
    }
  })
})

describe('a member through the balancer', () => {
  it('signs up, confirms, signs in, pays and plays, each request to either server', async () => {
    const { member, email } = await newMember(cluster)
    await pay(member)
    expect((await member.call('GET', '/api/access')).json().hasAccess).toBe(true)
    // Every call of a session, on both servers in turn: the same member, the same access.
    for (const via of [server(first).url, server(second).url]) {
      expect((await member.call('GET', '/api/session', undefined, via)).json().user.email).toBe(
        email,
      )
      expect((await member.call('GET', '/api/access', undefined, via)).json().hasAccess).toBe(true)
    }
    await play(member)
    const sessions = (await member.call('GET', '/api/harmonize/sessions')).json()
    expect(JSON.stringify(sessions)).toContain('"completed')
    // Round robin: both servers took part of this member's visit.
    expect([...member.servedBy].sort()).toEqual(
      cluster.servers.map((each) => each.url.replace('http://', '')).sort(),
    )
  })

  it('a human check fetched from one server is taken by the other, once', async () => {
    const visitor = new Visitor(cluster)
    const email = `scale-check-${Date.now()}@example.com`
    const solved = await visitor.humanCheck(server(first).url)
    const body = { name: 'Check Crossing', email, password: PASSWORD, humanCheck: solved }
    const taken = await visitor.call('POST', '/api/account/sign-up', body, server(second).url)
    expect(taken.status, taken.body).toBe(200)
    const again = await visitor.call(
      'POST',
      '/api/account/sign-up',
      { ...body, email: `again-${email}` },
      server(first).url,
    )
    expect(again.status).toBe(400)
    // Refused as a check already used, not for anything else about the sign-up.
    expect(again.body).toContain('Please complete the human check')
  })

  it('signing out on one server ends the session on the other at once; so does a new password', async () => {
    const { member } = await newMember(cluster)
    for (const via of [server(first).url, server(second).url]) {
      expect((await member.call('GET', '/api/session', undefined, via)).json().user).not.toBeNull()
    }
    const kept = new Map(member.cookies)
    expect((await member.call('POST', '/api/account/sign-out', {}, server(first).url)).status).toBe(
      200,
    )
    const old = new Visitor(cluster)
    for (const [name, value] of kept) old.cookies.set(name, value)
    expect(
      (await old.call('GET', '/api/session', undefined, server(second).url)).json().user,
    ).toBeNull()

    // Signed in on two devices; the password changed on one server ends the other device's.
    const { member: phone, email } = await newMember(cluster)
    const laptop = new Visitor(cluster)
    const signedIn = await laptop.call('POST', '/api/account/sign-in', {
      email,
      password: PASSWORD,
      rememberMe: false,
      humanCheck: await laptop.humanCheck(),
    })
    expect(signedIn.status).toBe(200)
    expect(
      (await laptop.call('GET', '/api/session', undefined, server(second).url)).json().user,
    ).not.toBeNull()
    const changed = await phone.call(
      'POST',
      '/api/account/change-password',
      { currentPassword: PASSWORD, newPassword: 'Another-Glass-528!' },
      server(first).url,
    )
    expect(changed.status, changed.body).toBe(200)
    expect(
      (await laptop.call('GET', '/api/session', undefined, server(second).url)).json().user,
    ).toBeNull()
  })

  it('counts sign-in guesses and mail limits once across both servers', async () => {
    const { email } = await newMember(cluster)
    // Every other attempt to each server, whatever the balancer's turn: counted per server,
    // each would have seen half of them and let them all through.
    const turn = (attempt: number) => server(attempt % 2 === 0 ? first : second).url
    const guesser = new Visitor(cluster)
    const answers: number[] = []
    for (let guess = 0; guess < 6; guess++) {
      const answer = await guesser.call(
        'POST',
        '/api/account/sign-in',
        {
          email,
          password: `Wrong-${guess}-Password!`,
          rememberMe: false,
          humanCheck: await guesser.humanCheck(),
        },
        turn(guess),
      )
      answers.push(answer.status)
    }
    // Five guesses per account and address in 15 minutes.
    expect(answers.slice(0, 5).every((status) => status === 400 || status === 401)).toBe(true)
    expect(answers[5]).toBe(429)

    const forgetful = new Visitor(cluster)
    const resets: number[] = []
    for (let ask = 0; ask < 4; ask++) {
      const body = { email, humanCheck: await forgetful.humanCheck() }
      resets.push(
        (await forgetful.call('POST', '/api/account/forgot-password', body, turn(ask))).status,
      )
    }
    // Three mails per address and client in 15 minutes.
    expect(resets).toEqual([200, 200, 200, 429])
  })

  it('the same payment event delivered to both servers at once changes the tables once; each mail goes once', async () => {
    const { member, email } = await newMember(cluster)
    await pay(member)
    const invoiceMail = (message: { to: string[]; subject: string }) =>
      message.to.includes(email) && /invoice|receipt/i.test(message.subject)
    await cluster.smtp.waitForMessage(invoiceMail, 60_000)
    const {
      rows: [customer],
    } = await cluster.sql(
      `select c.customer_id from billing_customer c join "user" u on u.id = c.user_id where u.email = $1`,
      [email],
    )
    const id = `evt_scale_${Date.now()}`
    const { payload, signature } = await signEvent(
      {
        id,
        type: 'invoice.paid',
        created: Math.floor(Date.now() / 1000),
        data: { object: { object: 'invoice', customer: customer.customer_id } },
      },
      cluster.env.STRIPE_WEBHOOK_SECRET ?? '',
    )
    const deliveries = await Promise.all(
      cluster.servers.map((each) =>
        fetch(`${each.url}/api/billing/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          body: payload,
        }),
      ),
    )
    expect(deliveries.map((answer) => answer.status)).toEqual([200, 200])
    const { rows } = await until('the event to be processed', async () => {
      const found = await cluster.sql('select processed_at from billing_event where id = $1', [id])
      return found.rows[0]?.processed_at ? found : null
    })
    expect(rows).toHaveLength(1)
    const invoices = await cluster.sql(
      `select count(*)::int as n from billing_invoice i join "user" u on u.id = i.user_id where u.email = $1`,
      [email],
    )
    expect(invoices.rows[0].n).toBe(1)
    // Every mail to this member went once: the code, and the paid invoice.
    const mails = cluster.smtp.messages.filter((message) => message.to.includes(email))
    expect(mails.filter(invoiceMail)).toHaveLength(1)
    expect(mails).toHaveLength(2)
  })
})
