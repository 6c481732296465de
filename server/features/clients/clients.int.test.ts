import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import type { ClientForm } from '../../../domain/client-form'
import { CLIENTS_PAGE_SIZE } from '../../../domain/clients'
import { IMAGE_MAX_BYTES } from '../../../domain/images'
import { apiCallsTo } from '../../../tests/support/api-calls'
import { buildUser } from '../../../tests/support/factories'
import { setUpTestApp } from '../../../tests/support/test-app'
import { createClient } from './service'

const testApp = setUpTestApp()
const call = apiCallsTo(() => testApp.app)

async function member(access = true) {
  const { user, session } = await buildUser(testApp.app, { access })
  return { user, cookie: session?.header ?? '' }
}

/** A photo as a phone takes it: 2000×1500, with the camera and a location in its EXIF. */
function cameraPhoto() {
  return sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#4a7fc1' } })
    .withMetadata({ exif: { IFD0: { Make: 'TestCam', Copyright: 'Client Name' } } })
    .jpeg()
    .toBuffer()
}

const uploadPhoto = (
  cookie: string,
  payload: Buffer,
  contentType = 'image/jpeg',
  language = 'en',
) =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/clients/photos',
    payload,
    headers: { cookie, 'content-type': contentType, 'accept-language': language },
  })

async function storedPhoto(cookie: string): Promise<number> {
  const response = await uploadPhoto(cookie, await cameraPhoto())
  expect(response.statusCode).toBe(200)
  return response.json().photo.number
}

const form = (photoNumber: number, overrides: Partial<ClientForm> = {}) => ({
  firstName: 'Lucía',
  lastName: 'Martín',
  email: 'Lucia@Example.com ',
  phone: '+34 600 123 456',
  birthDate: '1985-04-23',
  affirmation: 'I am calm and clear.',
  photoNumber,
  consent: true,
  ...overrides,
})

describe('client records: access', () => {
  it('a visitor gets 401 and a member without access 402, in their language', async () => {
    expect((await call('GET', '/api/clients', '')).statusCode).toBe(401)
    const { cookie } = await member(false)
    const list = await call('GET', '/api/clients', cookie)
    expect(list.statusCode).toBe(402)
    expect(list.json().message).toBe('Sorry, no payment found yet.')
    const create = await call('POST', '/api/clients', cookie, form(1), 'es')
    expect(create.statusCode).toBe(402)
    expect(create.json().message).toBe('Lo sentimos, todavía no encontramos ningún pago.')
    expect((await uploadPhoto(cookie, await cameraPhoto())).statusCode).toBe(402)
  })
})

describe('client photos', () => {
  it('are re-encoded as JPEG of at most 1024 px without metadata, numbered per user', async () => {
    const { user, cookie } = await member()
    const first = await uploadPhoto(cookie, await cameraPhoto())
    expect(first.statusCode).toBe(200)
    expect(first.json().photo).toMatchObject({ number: 1, url: '/api/clients/photos/1' })
    const png = await sharp({
      create: { width: 300, height: 200, channels: 4, background: '#f00a' },
    })
      .png()
      .toBuffer()
    expect((await uploadPhoto(cookie, png, 'application/octet-stream')).json().photo.number).toBe(2)

    const stored = await testApp.app.storage.get(`aura/${user.id}/1.jpg`)
    expect(stored?.contentType).toBe('image/jpeg')
    const read = await call('GET', '/api/clients/photos/1', cookie)
    expect(read.statusCode).toBe(200)
    expect(read.headers['content-type']).toBe('image/jpeg')
    const metadata = await sharp(read.rawPayload).metadata()
    expect(metadata).toMatchObject({ format: 'jpeg', width: 1024, height: 768 })
    expect(metadata.exif).toBeUndefined()
    expect(read.rawPayload.includes('TestCam')).toBe(false)
    // A small picture is not enlarged; transparency is flattened on white.
    const second = await sharp(
      (await call('GET', '/api/clients/photos/2', cookie)).rawPayload,
    ).metadata()
    expect(second).toMatchObject({ format: 'jpeg', width: 300, height: 200 })

    // Offered again for the next client: the one stored last.
    expect((await call('GET', '/api/clients/photos/recent', cookie)).json().photo.number).toBe(2)
  })

  it('another user cannot read them, and each user counts from 1', async () => {
    const owner = await member()
    const other = await member()
    await storedPhoto(owner.cookie)
    expect((await call('GET', '/api/clients/photos/1', other.cookie)).statusCode).toBe(404)
    expect((await call('GET', '/api/clients/photos/recent', other.cookie)).json()).toEqual({
      photo: null,
    })
    expect(await storedPhoto(other.cookie)).toBe(1)
  })

  it('two uploads at once get two numbers', async () => {
    const { cookie } = await member()
    const photo = await cameraPhoto()
    const answers = await Promise.all([uploadPhoto(cookie, photo), uploadPhoto(cookie, photo)])
    expect(answers.map((answer) => answer.json().photo.number).sort()).toEqual([1, 2])
  })

  it('refuses what is not an image, or too large, and says so in the user’s language', async () => {
    const { cookie } = await member()
    const text = await uploadPhoto(cookie, Buffer.from('not a picture at all'), 'image/png')
    expect(text.statusCode).toBe(415)
    expect(text.json().message).toBe('Please choose an image file (JPEG, PNG, WebP, GIF or AVIF).')
    const pdf = await uploadPhoto(cookie, Buffer.from('%PDF-1.7\n'), 'image/jpeg', 'es')
    expect(pdf.json().message).toBe('Elige un archivo de imagen (JPEG, PNG, WebP, GIF o AVIF).')
    const huge = await uploadPhoto(cookie, Buffer.alloc(IMAGE_MAX_BYTES + 1, 0))
    expect(huge.statusCode).toBe(413)
    expect((await call('GET', '/api/clients/photos/recent', cookie)).json().photo).toBeNull()
  })
})

describe('client records', () => {
  it('saves a client with the phone in international form and the consent, and loads it', async () => {
    const { cookie } = await member()
    const photoNumber = await storedPhoto(cookie)
    const created = await call(
      'POST',
      '/api/clients',
      cookie,
      form(photoNumber, { phone: '600 123 457', phoneCountry: 'ES' }),
    )
    expect(created.statusCode).toBe(200)
    const record = created.json()
    expect(record).toMatchObject({
      firstName: 'Lucía',
      lastName: 'Martín',
      email: 'lucia@example.com',
      phone: '+34600123457',
      birthDate: '1985-04-23',
      affirmation: 'I am calm and clear.',
      photo: { number: photoNumber, url: `/api/clients/photos/${photoNumber}` },
    })
    expect(Date.parse(record.consentAt)).not.toBeNaN()

    const loaded = await call('GET', `/api/clients/${record.id}`, cookie)
    expect(loaded.json()).toEqual(record)

    const edited = await call(
      'PUT',
      `/api/clients/${record.id}`,
      cookie,
      form(photoNumber, { lastName: 'Martín Ruiz', birthDate: null, phone: '+1 415 555 2671' }),
    )
    expect(edited.statusCode).toBe(200)
    expect(edited.json()).toMatchObject({
      id: record.id,
      lastName: 'Martín Ruiz',
      birthDate: null,
      phone: '+14155552671',
    })
  })

  it('an empty form gets the spec’s messages, in English and Spanish', async () => {
    const { cookie } = await member()
    const empty = {
      firstName: ' ',
      lastName: '',
      email: '',
      phone: '',
      birthDate: null,
      affirmation: '',
      consent: true,
    }
    const english = await call('POST', '/api/clients', cookie, empty)
    expect(english.statusCode).toBe(400)
    // One message a field: an empty phone is not also called invalid.
    expect(english.json().issues).toHaveLength(6)
    const messages = (response: typeof english) =>
      Object.fromEntries(
        (response.json().issues as { field: string; message: string }[]).map((issue) => [
          issue.field,
          issue.message,
        ]),
      )
    expect(messages(english)).toEqual({
      'body.firstName': 'First Name is required',
      'body.lastName': 'Last Name is required',
      'body.email': 'Email is required',
      'body.phone': 'Phone Number is required',
      'body.affirmation': 'Affirmation is required',
      'body.photoNumber': 'Please select Aura Image',
    })
    const spanish = await call('POST', '/api/clients', cookie, empty, 'es')
    expect(messages(spanish)['body.photoNumber']).toBe('Selecciona la imagen para el aura')
  })

  it('refuses a wrong phone, email or birth date, a missing consent and another user’s photo', async () => {
    const { cookie } = await member()
    const other = await member()
    const photoNumber = await storedPhoto(cookie)
    const issue = async (body: object) => {
      const response = await call('POST', '/api/clients', cookie, body)
      expect(response.statusCode).toBe(400)
      return response.json().issues[0]
    }
    expect(await issue(form(photoNumber, { phone: '+34 12' }))).toEqual({
      field: 'body.phone',
      message: 'Please enter a valid phone number, with its country code (for example +1 or +34).',
    })
    expect((await issue(form(photoNumber, { email: 'lucia@' }))).message).toBe(
      'Please, enter a valid email',
    )
    expect((await issue(form(photoNumber, { birthDate: '2999-01-01' }))).field).toBe(
      'body.birthDate',
    )
    expect((await issue(form(photoNumber, { birthDate: '1990-02-30' }))).field).toBe(
      'body.birthDate',
    )
    expect(await issue({ ...form(photoNumber), consent: false })).toEqual({
      field: 'body.consent',
      message: 'Please confirm that your client agreed to their photo and details being kept.',
    })
    const othersPhoto = await storedPhoto(other.cookie)
    const refused = await call('POST', '/api/clients', cookie, form(othersPhoto + 5))
    expect(refused.statusCode).toBe(422)
    expect(refused.json().message).toBe(
      'This photo was not found. Please choose or capture it again.',
    )
    expect((await call('GET', '/api/clients', cookie)).json().clients).toEqual([])
  })

  it('refuses a photo number the database cannot hold with 400, in both languages', async () => {
    const { cookie } = await member()
    const { id } = (
      await call('POST', '/api/clients', cookie, form(await storedPhoto(cookie)))
    ).json()
    for (const photoNumber of [2 ** 31, 2 ** 53 - 1, 1.5, -1]) {
      for (const [method, url] of [
        ['POST', '/api/clients'],
        ['PUT', `/api/clients/${id}`],
      ] as const) {
        const english = await call(method, url, cookie, form(photoNumber))
        expect(english.statusCode).toBe(400)
        expect(english.json().issues).toEqual([
          {
            field: 'body.photoNumber',
            message: 'This photo was not found. Please choose or capture it again.',
          },
        ])
        const spanish = await call(method, url, cookie, form(photoNumber), 'es')
        expect(spanish.json().issues[0].message).toBe(
          'No se encontró esta foto. Elígela o hazla de nuevo.',
        )
      }
    }
  })

  it('another user gets 404 for a client, and never sees it in a list', async () => {
    const owner = await member()
    const other = await member()
    const photoNumber = await storedPhoto(owner.cookie)
    const { id } = (await call('POST', '/api/clients', owner.cookie, form(photoNumber))).json()
    await storedPhoto(other.cookie)
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', form(1)],
      ['DELETE', undefined],
    ] as const) {
      const response = await call(method, `/api/clients/${id}`, other.cookie, body)
      expect(response.statusCode).toBe(404)
      expect(response.json().message).toBe('This client record was not found.')
    }
    expect((await call('GET', '/api/clients', other.cookie)).json().clients).toEqual([])
    expect((await call('GET', `/api/clients/${id}`, owner.cookie)).statusCode).toBe(200)
    expect((await call('GET', '/api/clients/not-a-uuid', owner.cookie)).statusCode).toBe(400)
  })

  it('lists clients by name a page at a time, and finds them by part of the name', async () => {
    const { user, cookie } = await member()
    const photoNumber = await storedPhoto(cookie)
    const count = CLIENTS_PAGE_SIZE * 2 + 5
    for (let index = 0; index < count; index++) {
      const number = String(index).padStart(3, '0')
      await createClient(testApp.app.db, user.id, {
        ...form(photoNumber),
        phone: '+34600123456',
        email: `client${number}@example.com`,
        firstName: `Client ${number}`,
        lastName: index % 10 === 0 ? '100%_sure' : 'Smith',
        birthDate: null,
        consent: true,
      })
    }
    const names: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const query: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''
      const page = (await call('GET', `/api/clients${query}`, cookie)).json()
      names.push(...page.clients.map((client: { firstName: string }) => client.firstName))
      expect(page.clients[0].photoUrl).toBe(`/api/clients/photos/${photoNumber}`)
      cursor = page.nextCursor
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(names).toHaveLength(count)
    expect(names).toEqual([...names].sort())
    expect(new Set(names).size).toBe(count)

    const found = (await call('GET', '/api/clients?search=%25_SURE', cookie)).json()
    expect(found.clients.map((client: { lastName: string }) => client.lastName)).toEqual(
      Array(7).fill('100%_sure'),
    )
    expect((await call('GET', '/api/clients?search=_', cookie)).json().clients).toHaveLength(7)
    expect(
      (await call('GET', '/api/clients?search=client 064', cookie)).json().clients,
    ).toHaveLength(1)
    expect((await call('GET', '/api/clients?cursor=bm9wZQ', cookie)).statusCode).toBe(400)
  })

  it('deletes a client and their photo, but keeps a photo another client still shows', async () => {
    const { user, cookie } = await member()
    const shared = await storedPhoto(cookie)
    const own = await storedPhoto(cookie)
    const first = (await call('POST', '/api/clients', cookie, form(shared))).json()
    const second = (await call('POST', '/api/clients', cookie, form(shared))).json()
    const third = (await call('POST', '/api/clients', cookie, form(own))).json()

    expect((await call('DELETE', `/api/clients/${third.id}`, cookie)).json()).toEqual({ ok: true })
    expect((await call('GET', `/api/clients/${third.id}`, cookie)).statusCode).toBe(404)
    expect(await testApp.app.storage.get(`aura/${user.id}/${own}.jpg`)).toBeNull()
    expect((await call('GET', `/api/clients/photos/${own}`, cookie)).statusCode).toBe(404)

    await call('DELETE', `/api/clients/${first.id}`, cookie)
    expect(await testApp.app.storage.get(`aura/${user.id}/${shared}.jpg`)).not.toBeNull()
    await call('DELETE', `/api/clients/${second.id}`, cookie)
    expect(await testApp.app.storage.get(`aura/${user.id}/${shared}.jpg`)).toBeNull()
    expect((await call('GET', '/api/clients', cookie)).json().clients).toEqual([])
  })

  it('exports a client as one JSON file with the photo and the scans, for the owner only', async () => {
    const { cookie } = await member()
    const other = await member()
    const photoNumber = await storedPhoto(cookie)
    const { id } = (await call('POST', '/api/clients', cookie, form(photoNumber))).json()
    await call('POST', `/api/clients/${id}/scans/chakra`, cookie, { signature: 'Calm' })

    const exported = await call('GET', `/api/clients/${id}/export`, cookie)
    expect(exported.statusCode).toBe(200)
    expect(exported.headers['content-disposition']).toBe(
      'attachment; filename="harmonize-client-lucia-martin.json"',
    )
    const file = exported.json()
    expect(file).toMatchObject({
      format: 'harmonize-client/1',
      client: { id, firstName: 'Lucía', phone: '+34600123456', birthDate: '1985-04-23' },
      photo: { contentType: 'image/jpeg' },
      scans: [{ kind: 'chakra', signature: 'Calm' }],
    })
    const photo = Buffer.from(file.photo.base64, 'base64')
    expect((await sharp(photo).metadata()).format).toBe('jpeg')
    expect((await call('GET', `/api/clients/${id}/export`, other.cookie)).statusCode).toBe(404)
  })
})
