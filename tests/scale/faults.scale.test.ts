import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Cluster, type ServerProcess, startCluster } from './cluster'
import { type Answer, newMember, until, type Visitor } from './member'

// Faults behind the balancer: a server killed in the middle of members paying and playing, and
// a rolling restart under load. What answered 2xx is kept, nothing is paid twice, and a server
// that comes back takes its share again.

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster({ servers: 2 })
})
afterAll(async () => {
  await cluster?.close()
})

const server = (index: number): ServerProcess => {
  const found = cluster.servers[index]
  if (!found) throw new Error(`no server ${index}`)
  return found
}

/** Runs `task` over `items`, `width` at a time. */
async function inParallel<T>(items: T[], width: number, task: (item: T) => Promise<void>) {
  const queue = [...items]
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item)
    }),
  )
}

/**
 * Answers after which a person tries again: none at all, the balancer's (the request may not
 * have been done), or "your other action is still running" (held by a server that died, until
 * its lease runs out).
 */
const tryAgain = (answer: Answer | null) =>
  answer === null ||
  [502, 503, 504].includes(answer.status) ||
  (answer.status === 409 && answer.body.includes('billing.memberBusy'))

/**
 * A call sent again until a server answers it for good, as a member clicks again: the retry is
 * the behaviour under test, each request made safe to repeat by the product (the plan's attempt
 * id, a card saved once).
 */
async function persist(send: () => Promise<Answer>): Promise<Answer> {
  const deadline = Date.now() + 120_000
  for (;;) {
    const answer = await send().catch(() => null)
    if (answer && !tryAgain(answer)) return answer
    if (Date.now() > deadline)
      throw new Error(`no server answered: ${answer?.status} ${answer?.body}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

interface Outcome {
  email: string
  /** Sessions whose start answered 200, and whether their completion did. */
  sessions: Map<number, boolean>
}

/** Saves a card, starts the SUBSCRIPTION once (one attempt id, however often sent) and plays. */
async function payAndPlay(member: Visitor, outcome: Outcome) {
  const account = await persist(() => member.call('GET', '/api/billing/account'))
  if (account.json().cards.length === 0) {
    const card = await persist(() =>
      member.call('POST', '/api/billing/sandbox/cards', {
        number: '4242424242424242',
        expMonth: 12,
        expYear: new Date().getUTCFullYear() + 1,
        cvc: '123',
      }),
    )
    // Sent again after a lost answer, a saved card is answered as saved or as known.
    const saved = await persist(() =>
      member.call('POST', '/api/billing/cards', {
        paymentMethodId: card.json().id,
        cardType: 'credit',
      }),
    )
    if (saved.status !== 200) throw new Error(`the card was not saved: ${saved.body}`)
  }
  const prices = (await persist(() => member.call('GET', '/api/billing/prices'))).json().prices as {
    id: string
    plan: string
  }[]
  const priceId = prices.find((price) => price.plan === 'subscription')?.id
  const attemptId = randomUUID()
  // The same attempt, sent again while the member's last action is still held (by a server
  // that died holding it, until its lease runs out), charges once.
  const started = await persist(() =>
    member.call('POST', '/api/billing/plan/start', { priceId, attemptId }),
  )
  if (started.status !== 200) throw new Error(`the plan did not start: ${started.body}`)
  let last = ''
  await until(
    `${outcome.email}'s plan to be active (${last})`,
    async () => {
      const plan = await member.call('GET', '/api/billing/plan').catch(() => null)
      last = plan?.body ?? ''
      return plan?.status === 200 && plan.json().subscription?.status === 'active'
    },
    120_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${last}`)
  })
  const panels = (await persist(() => member.call('GET', '/api/panels'))).json()
  const panelId = panels.panels[0].id as string
  for (let round = 0; round < 2; round++) {
    const started = await member
      .call('POST', '/api/harmonize/sessions', { panelId })
      .catch(() => null)
    if (started?.status !== 200) continue
    const id = started.json().sessionId as number
    outcome.sessions.set(id, false)
    const done = await persist(() => member.call('POST', `/api/harmonize/sessions/${id}/complete`))
    if (done.status === 200) outcome.sessions.set(id, true)
  }
}

/** What the database holds of the members: their sessions, paid invoices and plans. */
async function checkKept(outcomes: Outcome[]) {
  const emails = outcomes.map((outcome) => outcome.email)
  const sessions = await cluster.sql(
    `select s.id, s.completed_at from harmonize_session s join "user" u on u.id = s.user_id
     where u.email = any($1)`,
    [emails],
  )
  const stored = new Map(sessions.rows.map((row) => [Number(row.id), row.completed_at !== null]))
  for (const outcome of outcomes) {
    for (const [id, completed] of outcome.sessions) {
      expect(stored.has(id), `${outcome.email}'s session ${id} answered 200`).toBe(true)
      if (completed) expect(stored.get(id), `session ${id} completed`).toBe(true)
    }
  }
  const money = await cluster.sql(
    `select u.email,
       (select count(*)::int from billing_subscription b where b.user_id = u.id) as plans,
       (select count(*)::int from billing_invoice i where i.user_id = u.id and i.status = 'paid') as paid,
       (select count(*)::int from billing_payment_intent p where p.user_id = u.id and p.status = 'succeeded') as charged
     from "user" u where u.email = any($1)`,
    [emails],
  )
  expect(money.rowCount).toBe(outcomes.length)
  const doubled = money.rows.filter((row) => row.plans !== 1 || row.paid !== 1 || row.charged > 1)
  expect(doubled).toEqual([])
}

describe('a server killed while 100 members pay and play', () => {
  it('the balancer moves on: nothing answered 2xx is lost, no payment is doubled, and the server rejoins', async () => {
    const members: { member: Visitor; outcome: Outcome }[] = []
    await inParallel(
      Array.from({ length: 100 }, (_, index) => index),
      10,
      async () => {
        const { member, email } = await newMember(cluster)
        members.push({ member, outcome: { email, sessions: new Map() } })
      },
    )
    let done = 0
    const load = inParallel(members, 20, async ({ member, outcome }) => {
      await payAndPlay(member, outcome)
      done++
    })
    await until('a third of the members to be through', async () => done >= 30, 120_000)
    const killed = await server(0).stop('SIGKILL')
    expect(killed.signal).toBe('SIGKILL')
    await load
    await checkKept(members.map((each) => each.outcome))

    // Started again on the same database and Redis, it takes its share of the requests: the
    // balancer's answers come from it again, for a member signed in before it died too.
    await server(0).start()
    await cluster.balance(0, true)
    const { member } = members[0] ?? {}
    if (!member) throw new Error('no member')
    member.servedBy.clear()
    for (let call = 0; call < 4; call++) {
      const session = await member.call('GET', '/api/session')
      expect(session.status).toBe(200)
      expect(session.json().user).not.toBeNull()
    }
    expect(member.servedBy).toContain(server(0).url.replace('http://', ''))
  })
})

describe('a rolling restart under load', () => {
  it('one server at a time, each stopped with SIGTERM and started again, drops no request', async () => {
    const members: Visitor[] = []
    await inParallel(
      Array.from({ length: 10 }, (_, index) => index),
      5,
      async () => {
        const { member } = await newMember(cluster)
        // Access from a code, so the member can start sessions (a POST) during the restart.
        const code = `HZ-SC${randomUUID().slice(0, 2).toUpperCase()}-${randomUUID().slice(0, 4).toUpperCase()}`
        await cluster.sql('insert into access_code (code, note) values ($1, $2)', [code, 'scale'])
        const redeemed = await member.call('POST', '/api/account/access-code', { code })
        if (redeemed.status !== 200) throw new Error(`code refused: ${redeemed.body}`)
        members.push(member)
      },
    )
    const answers: number[] = []
    const refused: string[] = []
    let running = true
    const load = Promise.all(
      members.map(async (member) => {
        while (running) {
          const session = await member.call('GET', '/api/session').catch(() => null)
          answers.push(session?.status ?? 0)
          if (session?.status !== 200) refused.push(`GET ${session?.status} ${session?.body}`)
          const started = await member
            .call('POST', '/api/harmonize/sessions', { panelId: '01' })
            .catch(() => null)
          answers.push(started?.status ?? 0)
          if (started?.status !== 200) refused.push(`POST ${started?.status} ${started?.body}`)
        }
      }),
    )
    // As the README says to deploy: each server is taken out of the balancer, stopped, started
    // (a new version would start here) and put back, one after the other.
    for (const [index, each] of cluster.servers.entries()) {
      const before = answers.length
      await until('load before the restart', async () => answers.length > before + 50)
      await cluster.balance(index, false)
      expect((await each.stop('SIGTERM')).code, each.output()).toBe(0)
      await each.start()
      await cluster.balance(index, true)
    }
    const before = answers.length
    await until('load after the restarts', async () => answers.length > before + 50)
    running = false
    await load
    expect(answers.length).toBeGreaterThan(200)
    expect(refused).toEqual([])
  })
})
