// The harness port of the end-to-end server process: what the harness's SMTP server received,
// and the test factories run on the live app. It listens on 127.0.0.1 only and exists only in
// this process; the product's own routes know nothing of it.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { users } from '../../../db/schema'
import { addOperator } from '../../../server/features/admin/public'
import { advanceClock, billingDepsOf } from '../../../server/features/billing/public'
import {
  buildMedia,
  buildUser,
  createAccessCode,
  createSession,
  destroyMedia,
  grantAccess,
  moveMedia,
} from '../../support/factories'
import type { TestSmtp } from '../../support/smtp'
import type { HarnessCall, HarnessCalls } from './harness-protocol'

// A session plays the media of its own panel, so a test that checks which file plays needs a
// panel nobody else puts media on while it runs. These panels are lent out one test at a time;
// other specs harmonize with panels 01–09 and so never meet uploaded media.
const LENDABLE_PANELS = ['10', '11', '12', '13', '14', '15']
// My Account lists every media file, and 'Save all' downloads that list: removing a finished
// test's files while another test downloads them would fail that test. Finished files wait on
// this panel (which no test harmonizes with) until no lease is out, and are removed then.
const PARKING_PANEL = '16'
const LEASE_WAIT_MS = 60_000

type Handlers = {
  [Name in HarnessCall]: (body: HarnessCalls[Name]['body']) => Promise<HarnessCalls[Name]['answer']>
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  return text ? JSON.parse(text) : {}
}

function send(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

function factories(app: Promise<FastifyInstance>): Handlers {
  const leases = new Map<string, { panelId: string; keys: string[] }>()
  let parked: string[] = []
  // Parked files being removed; no panel is lent meanwhile, so no new test lists them.
  let removing: Promise<void> | null = null

  const userId = async (email: string) => {
    const [row] = await (await app).db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, email.toLowerCase()))
    if (!row) throw new Error(`no user ${email}`)
    return row.id
  }

  /** Lends a free panel to a new lease, waiting while all are out. */
  const lendPanel = async (): Promise<{ lease: string; panelId: string; keys: string[] }> => {
    const deadline = Date.now() + LEASE_WAIT_MS
    for (;;) {
      while (removing) await removing
      const taken = new Set([...leases.values()].map((lease) => lease.panelId))
      const panelId = LENDABLE_PANELS.find((id) => !taken.has(id))
      if (panelId) {
        // Found and claimed with no await between, so two calls never get the same panel.
        const lease = randomBytes(6).toString('hex')
        const held = { panelId, keys: [] as string[] }
        leases.set(lease, held)
        return { lease, ...held }
      }
      if (Date.now() > deadline) throw new Error('every lendable panel stayed lent for a minute')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  /** Takes a lease back: its files go to the parking panel, and all parked ones once none is out. */
  const release = async (lease: string) => {
    const instance = await app
    const held = leases.get(lease)
    if (!held) return
    await moveMedia(instance, held.keys, PARKING_PANEL)
    parked.push(...held.keys)
    leases.delete(lease)
    if (leases.size === 0 && !removing) {
      const gone = parked
      parked = []
      removing = destroyMedia(instance, gone).finally(() => {
        removing = null
      })
      await removing
    }
  }

  return {
    user: async (options) => buildUser(await app, options),
    session: async ({ email, rememberMe }) =>
      createSession(await app, await userId(email), rememberMe),
    'access-code': async () => ({ code: await createAccessCode(await app) }),
    access: async ({ email }) => ({ code: await grantAccess(await app, await userId(email)) }),
    operator: async ({ email }) => ({
      changed: (await addOperator((await app).db, email)).changed,
    }),
    media: async ({ files }) => {
      const instance = await app
      const { lease, panelId, keys } = await lendPanel()
      const media = []
      try {
        for (const file of files) {
          const added = await buildMedia(instance, {
            name: file.name,
            data: Buffer.from(file.base64, 'base64'),
            panelId,
            backing: file.backing,
          })
          keys.push(added.key)
          media.push(added)
        }
      } catch (error) {
        await release(lease)
        throw error
      }
      return { lease, panelId, media }
    },
    'billing-advance': async ({ email, days }) => {
      const instance = await app
      // As `billing advance` through the running server: what falls due on the way is mailed.
      const { clock } = await advanceClock(billingDepsOf(instance), { email, days })
      return { clock }
    },
    'media-release': async ({ lease }) => {
      await release(lease)
      return {}
    },
  }
}

/**
 * Serves GET /messages?to=… (mail received by the harness's SMTP server) and
 * POST /factories/{name} (see harness-protocol.ts) on 127.0.0.1:`port`.
 */
export function startHarnessServer(port: number, smtp: TestSmtp, app: Promise<FastifyInstance>) {
  const handlers = factories(app)
  createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    if (request.method === 'GET' && url.pathname === '/messages') {
      const to = url.searchParams.get('to')?.toLowerCase()
      const messages = smtp.messages.filter((message) => !to || message.to.includes(to))
      send(response, 200, { messages })
      return
    }
    const name = url.pathname.replace(/^\/factories\//, '') as HarnessCall
    const handler = handlers[name] as ((body: unknown) => Promise<unknown>) | undefined
    if (request.method !== 'POST' || !url.pathname.startsWith('/factories/') || !handler) {
      send(response, 404, { error: `no harness call ${request.method} ${url.pathname}` })
      return
    }
    readJson(request)
      .then((body) => handler(body))
      .then((answer) => send(response, 200, answer))
      .catch((error: unknown) =>
        send(response, 500, {
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
      )
  })
    .listen(port, '127.0.0.1')
    .unref()
}
