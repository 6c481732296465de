import { describe, expect, it } from 'vitest'
import { AURA_PICTURES, type ClientScan } from '../../../domain/clients'
import { apiCallsTo } from '../../../tests/support/api-calls'
import { buildUser } from '../../../tests/support/factories'
import { setUpTestApp } from '../../../tests/support/test-app'
import { createClient, storeClientPhoto } from './service'

const testApp = setUpTestApp()
const call = apiCallsTo(() => testApp.app)
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

async function practitioner() {
  const { user, session } = await buildUser(testApp.app, { access: true })
  const photo = await storeClientPhoto(testApp.app, user.id, PIXEL_PNG)
  const newClient = async (firstName = 'Ana') =>
    (
      await createClient(testApp.app.db, user.id, {
        firstName,
        lastName: 'Gómez',
        email: 'ana@example.com',
        phone: '+34600123456',
        birthDate: null,
        affirmation: 'I am well.',
        photoNumber: photo.number,
        consent: true,
      })
    ).id
  return { user, cookie: session?.header ?? '', newClient }
}

const scan = async (
  cookie: string,
  clientId: string,
  kind: 'aura' | 'chakra',
  signature: string | null = null,
) => {
  const response = await call('POST', `/api/clients/${clientId}/scans/${kind}`, cookie, {
    signature,
  })
  expect(response.statusCode).toBe(200)
  return response.json().scan as ClientScan
}

describe('aura scans', () => {
  it('show every one of the 98 pictures once before any repeats, per client', async () => {
    const { cookie, newClient } = await practitioner()
    const [first, second] = [await newClient('Ana'), await newClient('Bea')]
    const round: number[] = []
    for (let index = 0; index < AURA_PICTURES; index++) {
      round.push((await scan(cookie, first, 'aura')).auraPicture as number)
      // The other client's rotation is their own: scanning them takes nothing from this round.
      if (index % 7 === 0) await scan(cookie, second, 'aura')
    }
    expect([...round].sort((a, b) => a - b)).toEqual(
      Array.from({ length: AURA_PICTURES }, (_, index) => index + 1),
    )
    const next = await scan(cookie, first, 'aura')
    expect(next.auraPicture).toBeGreaterThanOrEqual(1)
    expect(next.auraPicture).toBeLessThanOrEqual(AURA_PICTURES)
  }, 120_000)

  it('scans started at once still never repeat', async () => {
    const { cookie, newClient } = await practitioner()
    const client = await newClient()
    const pictures = await Promise.all(
      Array.from({ length: 12 }, async () => (await scan(cookie, client, 'aura')).auraPicture),
    )
    expect(new Set(pictures).size).toBe(12)
  })
})

describe('chakra scans', () => {
  it('give each of the seven chakras a whole number from 100 to 999', async () => {
    const { cookie, newClient } = await practitioner()
    const client = await newClient()
    for (let index = 0; index < 25; index++) {
      const { chakras, auraPicture, kind } = await scan(cookie, client, 'chakra')
      expect(kind).toBe('chakra')
      expect(auraPicture).toBeNull()
      expect(chakras).toHaveLength(7)
      for (const value of chakras ?? []) {
        expect(Number.isInteger(value)).toBe(true)
        expect(value).toBeGreaterThanOrEqual(100)
        expect(value).toBeLessThanOrEqual(999)
      }
    }
  })
})

describe('a client’s scan history', () => {
  it('keeps every scan with its signature, newest first, for the owner only', async () => {
    const { cookie, newClient } = await practitioner()
    const other = await practitioner()
    const client = await newClient()
    const aura = await scan(cookie, client, 'aura', '  Light and calm  ')
    expect(aura.signature).toBe('Light and calm')
    const chakra = await scan(cookie, client, 'chakra', '   ')
    expect(chakra.signature).toBeNull()

    const history = await call('GET', `/api/clients/${client}/scans`, cookie)
    expect(history.json().scans.map((entry: ClientScan) => entry.id)).toEqual([chakra.id, aura.id])

    for (const [method, url] of [
      ['GET', `/api/clients/${client}/scans`],
      ['POST', `/api/clients/${client}/scans/aura`],
      ['POST', `/api/clients/${client}/scans/chakra`],
    ] as const) {
      const response = await call(
        method,
        url,
        other.cookie,
        method === 'POST' ? { signature: null } : undefined,
      )
      expect(response.statusCode).toBe(404)
    }

    const tooLong = await call('POST', `/api/clients/${client}/scans/aura`, cookie, {
      signature: 'x'.repeat(501),
    })
    expect(tooLong.statusCode).toBe(400)
    expect(tooLong.json().issues).toEqual([
      { field: 'body.signature', message: 'This is too long: at most 500 characters.' },
    ])

    await call('DELETE', `/api/clients/${client}`, cookie)
    expect((await call('GET', `/api/clients/${client}/scans`, cookie)).statusCode).toBe(404)
  })

  it('needs access: 402 before anything else', async () => {
    const { session } = await buildUser(testApp.app, { access: false })
    const response = await call(
      'POST',
      `/api/clients/${crypto.randomUUID()}/scans/chakra`,
      session?.header ?? '',
      { signature: null },
    )
    expect(response.statusCode).toBe(402)
  })
})
