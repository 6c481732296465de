import Fastify from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { setZodCompilers } from './zod-schemas'

const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>()
setZodCompilers(app)

const plain = z.object({
  name: z.string(),
  tags: z.array(z.string()),
  note: z.nullable(z.string()),
})
const withCodec = z.object({
  when: z.codec(z.iso.datetime(), z.date(), {
    decode: (text) => new Date(text),
    encode: (date) => date.toISOString(),
  }),
})
const withDefault = z.object({ name: z.string(), colour: z.optional(z.string().default('blue')) })

beforeAll(async () => {
  app.get('/plain', { schema: { response: { 200: plain } } }, async () => {
    const row = { name: 'Ana', tags: ['a'], note: null, passwordHash: 'secret' }
    return row as z.infer<typeof plain>
  })
  app.get('/wrong', { schema: { response: { 200: plain } } }, async () => {
    return { name: 'Ana', tags: 'a' } as unknown as z.infer<typeof plain>
  })
  app.get('/codec', { schema: { response: { 200: withCodec } } }, async () => ({
    when: new Date('2026-11-26T10:00:00.000Z'),
  }))
  app.get('/default', { schema: { response: { 200: withDefault } } }, async () => ({
    name: 'Ana',
  }))
  await app.ready()
})
afterAll(() => app.close())

describe('responses checked against their schema', () => {
  it('sends only the keys the schema names', async () => {
    const response = await app.inject('/plain')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ name: 'Ana', tags: ['a'], note: null })
    expect(response.body).not.toContain('secret')
  })

  it('refuses to send a value of the wrong shape', async () => {
    const response = await app.inject('/wrong')
    expect(response.statusCode).toBe(500)
    expect(response.body).not.toContain('Ana')
  })

  it('encodes through a codec, as the schema says the value travels', async () => {
    const response = await app.inject('/codec')
    expect(response.json()).toEqual({ when: '2026-11-26T10:00:00.000Z' })
  })

  it('leaves a default out of an answer, as encoding does', async () => {
    const response = await app.inject('/default')
    expect(response.json()).toEqual({ name: 'Ana' })
  })
})
