// Prints how long the records list takes for a practitioner with 1,000 clients (issue 11: it
// must stay fast): the first page, a page deep in the list, a search, and the client's own page,
// each the median of 40 requests, next to a bare Fastify route answering the same JSON in the
// same run (this machine is shared, so absolute times move from run to run).
// Run: node --import tsx scripts/bench/clients-list.ts
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Fastify from 'fastify'
import { buildApp } from '../../server/app'
import { loadConfig } from '../../server/config'
import { createClient, storeClientPhoto } from '../../server/features/clients/public'
import { buildUser } from '../../tests/support/factories'
import { median } from './lib/stats'

const CLIENTS = 1000
const REQUESTS = 40
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

async function timeRequests(url: string, cookie: string): Promise<{ ms: number; body: string }> {
  const times: number[] = []
  let body = ''
  for (let index = 0; index < REQUESTS; index++) {
    const started = performance.now()
    const response = await fetch(url, { headers: { cookie } })
    body = await response.text()
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    times.push(performance.now() - started)
  }
  return { ms: median(times), body }
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'harmonize-bench-'))
const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '0' })
const app = await buildApp(config, { logger: false })
const reference = Fastify()
try {
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const { user, session } = await buildUser(app, { access: true })
  if (!session) throw new Error('no session')
  const photo = await storeClientPhoto(app, user.id, PNG)
  const made = performance.now()
  for (let index = 0; index < CLIENTS; index++) {
    const number = String(index).padStart(4, '0')
    await createClient(app.db, user.id, {
      firstName: `Client ${number}`,
      lastName: index % 50 === 0 ? 'Quintana' : 'Smith',
      email: `client${number}@example.com`,
      phone: '+34600123456',
      birthDate: null,
      affirmation: 'I am calm.',
      photoNumber: photo.number,
      consent: true,
    })
  }
  process.stderr.write(
    `${CLIENTS} clients made in ${((performance.now() - made) / 1000).toFixed(1)} s\n`,
  )

  // The page the list reaches after 20 "Show more": found by walking the cursors once.
  let cursor: string | null = null
  for (let page = 0; page < 20; page++) {
    const query: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''
    const listed: { nextCursor: string | null } = (
      await app.inject({ url: `/api/clients${query}`, headers: { cookie: session.header } })
    ).json()
    cursor = listed.nextCursor
  }
  const first = await timeRequests(`${address}/api/clients`, session.header)
  reference.get('/same-json', async (_request, reply) =>
    reply.type('application/json').send(first.body),
  )
  const referenceAddress = await reference.listen({ port: 0, host: '127.0.0.1' })

  const rows: [string, number][] = []
  for (let round = 0; round < 3; round++) {
    const times: [string, number][] = [
      ['bare Fastify, the same JSON', (await timeRequests(`${referenceAddress}/same-json`, '')).ms],
      [
        'GET /api/clients (first page)',
        (await timeRequests(`${address}/api/clients`, session.header)).ms,
      ],
      [
        'GET /api/clients (page 21, by cursor)',
        (
          await timeRequests(
            `${address}/api/clients?cursor=${encodeURIComponent(cursor ?? '')}`,
            session.header,
          )
        ).ms,
      ],
      [
        'GET /api/clients?search=quint',
        (await timeRequests(`${address}/api/clients?search=quint`, session.header)).ms,
      ],
    ]
    rows.push(...times)
  }
  const labels = [...new Set(rows.map(([label]) => label))]
  console.log(
    `\nRecords list with ${CLIENTS} clients, median of ${REQUESTS} requests, median of 3 rounds:`,
  )
  for (const label of labels) {
    const ms = median(rows.filter(([name]) => name === label).map(([, value]) => value))
    console.log(`  ${label.padEnd(40)} ${ms.toFixed(2)} ms`)
  }
} finally {
  await reference.close()
  await app.close()
  rmSync(dataDir, { recursive: true, force: true })
}
