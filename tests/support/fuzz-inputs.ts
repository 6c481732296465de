import { connect } from 'node:net'
import type { RouteOptions } from 'fastify'
import { z } from 'zod'
import { apiErrorSchema } from '../../domain/api'
import { makeWav } from './media'

// Hostile inputs for every route the app has, derived from the routes' own schemas, and the
// checks every answer must pass. Used by tests/fuzz.int.test.ts; nothing here names a route, so
// a new route is fuzzed as soon as it is registered.

/** What JSON Schema says about one field (the parts the fuzzer reads). */
export interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  enum?: unknown[]
  const?: unknown
  pattern?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  allOf?: JsonSchema[]
}

export interface Field {
  name: string
  required: boolean
  schema: JsonSchema
}

/** The fields of a querystring or body schema and one valid-looking value for each. */
export interface FieldSet {
  fields: Field[]
  sample: Record<string, unknown>
}

/** One route as the fuzzer sees it. */
export interface RouteModel {
  method: string
  /** The registered pattern, e.g. `/api/panels/:id` or `/api/media/*`. */
  url: string
  /** `:name` parameters in order; `*` for a wildcard. */
  paramNames: string[]
  /** A valid-looking value per parameter, already escaped for a URL. */
  params: Record<string, string>
  query: FieldSet | null
  body: FieldSet | null
  isPublic: boolean
}

/** One request to send (identity and client address are added by the sender). */
export interface FuzzRequest {
  /** Which input this is, for the failure report. */
  label: string
  method: string
  url: string
  /** Extra headers; a value replaces the identity's header of the same name. */
  headers?: Record<string, string>
  payload?: string | Buffer
  /** The status the answer must have besides surviving (e.g. 403 for a cross-site write). */
  expectStatus?: number
}

const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE']
export const FOREIGN_ORIGIN = 'https://evil.example'
/** A marker a page must never reflect unescaped. */
export const SCRIPT_MARKER = '<script>fuzz()</script>'

const KB = 1024
const HUGE_STRING = 'x'.repeat(100 * KB)
const CONTROL_CHARACTERS: Array<[string, string]> = [
  ['\u0000', 'u0000'],
  ['\u0001', 'u0001'],
  ['\u001b', 'u001b'],
  ['\u007f', 'u007f'],
  ['\u0085', 'u0085'],
  ['\u2028', 'u2028'],
]

/** The whole input schema of a zod (or plain JSON Schema) object, as JSON Schema. */
export function toJsonSchema(schema: unknown): JsonSchema {
  if (!schema || typeof schema !== 'object') return {}
  if (!('_zod' in schema)) return schema as JsonSchema
  try {
    return z.toJSONSchema(schema as z.ZodType, {
      io: 'input',
      unrepresentable: 'any',
    }) as JsonSchema
  } catch {
    return {}
  }
}

interface ZodDef {
  type: string
  shape?: Record<string, unknown>
  in?: unknown
  innerType?: unknown
}

/** The field schemas of a zod object, looking through pipes and wrappers. */
function zodShape(schema: unknown): Record<string, unknown> | undefined {
  let current = schema
  for (let depth = 0; depth < 10; depth++) {
    const def = (current as { _zod?: { def?: ZodDef } } | undefined)?._zod?.def
    if (!def) return undefined
    if (def.type === 'object') return def.shape
    if (def.type === 'pipe') current = def.in
    else if (def.innerType) current = def.innerType
    else return undefined
  }
  return undefined
}

/** Values worth trying for a field, the likeliest first (names hint at formats schemas hide). */
function candidates(name: string, schema: JsonSchema): unknown[] {
  const values: unknown[] = []
  if (schema.enum) values.push(...schema.enum)
  if (schema.const !== undefined) values.push(schema.const)
  const types = [schema.type ?? []].flat()
  if (types.includes('boolean')) values.push(true, false)
  if (types.includes('integer') || types.includes('number')) {
    const low = schema.minimum ?? (schema.exclusiveMinimum ?? 0) + 1
    values.push(Math.max(1, low), low, schema.maximum ?? 1)
  }
  if (/e-?mail/i.test(name)) values.push('fuzz-sample@example.test')
  if (/password/i.test(name)) values.push('Fuzz-Sample-77?')
  if (/human|captcha/i.test(name)) values.push('not-a-real-solution')
  if (/name/i.test(name)) values.push('Fuzz Sample', 'fuzz-sample.wav')
  if (/lang/i.test(name)) values.push('en')
  if (/code/i.test(name)) values.push('HZ-2345-6789')
  values.push('01', '1', '123456', 'sample', 'HZ-2345-6789', 'true', 'en', 'x')
  if (schema.minLength) values.push('s'.repeat(schema.minLength))
  return values
}

function fitsJsonSchema(value: unknown, schema: JsonSchema): boolean {
  if (schema.enum && !schema.enum.includes(value)) return false
  if (typeof value !== 'string') return true
  const patterns = [schema, ...(schema.allOf ?? [])].flatMap((part) => part.pattern ?? [])
  return (
    value.length >= (schema.minLength ?? 0) &&
    value.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY) &&
    patterns.every((pattern) => new RegExp(pattern, 'u').test(value))
  )
}

/** The first candidate the field's own schema accepts (or the first one at all). */
function sampleValue(name: string, schema: JsonSchema, zodField: unknown, asText: boolean) {
  const all = candidates(name, schema).map((value) => (asText ? String(value) : value))
  const accepted = all.find((value) =>
    zodField ? z.safeParse(zodField as z.ZodType, value).success : fitsJsonSchema(value, schema),
  )
  return accepted ?? all[0]
}

/** Fields and a valid-looking sample for a querystring (`asText`) or body schema. */
export function fieldSet(schema: unknown, asText: boolean): FieldSet | null {
  if (!schema) return null
  const json = toJsonSchema(schema)
  const shape = zodShape(schema)
  const names = Object.keys(json.properties ?? shape ?? {})
  const required = new Set(json.required ?? [])
  const fields = names.map((name) => ({
    name,
    required: required.has(name),
    schema: json.properties?.[name] ?? {},
  }))
  const sample: Record<string, unknown> = {}
  for (const field of fields) {
    sample[field.name] = sampleValue(field.name, field.schema, shape?.[field.name], asText)
  }
  return { fields, sample }
}

function methodsOf(route: RouteOptions): string[] {
  return [route.method].flat().map((method) => String(method).toUpperCase())
}

/**
 * Every route of the catalogue once per method, without the HEAD twins Fastify adds for GET
 * routes and without the client's static-file wildcard.
 */
export function modelRoutes(catalog: readonly RouteOptions[]): RouteModel[] {
  const gets = new Set(
    catalog.filter((route) => methodsOf(route).includes('GET')).map((route) => route.url),
  )
  const models: RouteModel[] = []
  for (const route of catalog) {
    if (route.url === '/*' || route.url === '*') continue
    const schema = (route.schema ?? {}) as Record<string, unknown>
    const paramNames = [...route.url.matchAll(/:(\w+)|\*/g)].map((match) => match[1] ?? '*')
    const paramSchema = toJsonSchema(schema.params)
    const paramShape = zodShape(schema.params)
    const params: Record<string, string> = {}
    for (const name of paramNames) {
      const value =
        name === '*'
          ? 'fuzz/sample.webm'
          : sampleValue(name, paramSchema.properties?.[name] ?? {}, paramShape?.[name], true)
      params[name] = name === '*' ? String(value) : encodeURIComponent(String(value))
    }
    for (const method of methodsOf(route)) {
      if (method === 'HEAD' && gets.has(route.url)) continue
      models.push({
        method,
        url: route.url,
        paramNames,
        params,
        query: fieldSet(schema.querystring, true),
        body: fieldSet(schema.body, false),
        isPublic: Boolean((route.config as { public?: boolean } | undefined)?.public),
      })
    }
  }
  return models
}

/** `key=value&…`, each part escaped. */
export function encodeQuery(entries: Array<[string, unknown]>): string {
  return entries
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&')
}

/** The route's URL with the given (already escaped) parameters and a raw query string. */
export function routeUrl(route: RouteModel, params = route.params, query?: string): string {
  const path = route.url.replace(/:(\w+)|\*/g, (_match, name?: string) => params[name ?? '*'] ?? '')
  const search = query ?? (route.query ? encodeQuery(Object.entries(route.query.sample)) : '')
  return search ? `${path}?${search}` : path
}

const JSON_TYPE = { 'content-type': 'application/json' }

/** A tiny real WAV file: the valid-looking body for routes that take raw bytes. */
export const RAW_MEDIA_SAMPLE = makeWav(0.01)
/** A 1×1 PNG. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

/**
 * Strings that pass a "no control characters" check but still trip code further in: other
 * scripts, a lone surrogate (not valid UTF-8), direction overrides, quotes, lengths at the edge.
 */
function edgeStrings(schema: JsonSchema, sample: unknown): Array<[string, string]> {
  const strings: Array<[string, string]> = [
    ['unicode', 'ñandú Ωmega 中文'],
    ['emoji', '🎵🌊💧'],
    ['lone surrogate', '\ud800x'],
    ['direction override and zero-width', 'a\u202eb\u200bc\ufeff'],
    ['SQL quote', "' OR '1'='1' --"],
    ['script', SCRIPT_MARKER],
    ['whitespace only', '   '],
    ['numeric string', '12345'],
  ]
  if (typeof sample === 'string') {
    strings.push(['padded and upper-cased sample', `  ${sample.toUpperCase()}  `])
  }
  if (schema.maxLength !== undefined && schema.maxLength < 10_000) {
    strings.push(['at maxLength', 'a'.repeat(schema.maxLength)])
    strings.push(['over maxLength by one', 'a'.repeat(schema.maxLength + 1)])
  }
  return strings
}

/** What a field is replaced by in a JSON body. */
function bodyValueMutations(field: Field, sample: unknown): Array<[string, unknown]> {
  const types = [field.schema.type ?? []].flat()
  const numeric: Array<[string, unknown]> =
    types.includes('integer') || types.includes('number')
      ? [
          ['-1', -1],
          ['0', 0],
          ['1.5', 1.5],
          ['2147483648', 2147483648],
          ['1e308', 1e308],
          ['above MAX_SAFE_INTEGER', Number.MAX_SAFE_INTEGER + 2],
          ['number as string', '1'],
        ]
      : []
  return [
    ['number', 12345],
    ['boolean', true],
    ['null', null],
    ['array', ['x']],
    ['object', { nested: 'x' }],
    ['empty string', ''],
    ['100 KB string', HUGE_STRING],
    ['NUL inside', 'fuzz\u0000sample'],
    ['control characters', `fuzz${CONTROL_CHARACTERS.map(([char]) => char).join('')}\r\n\tsample`],
    ...numeric,
    ...edgeStrings(field.schema, sample),
  ]
}

/** What a querystring field's value is replaced by (a raw `key=value` string). */
function queryValueMutations(field: Field, sample: unknown): Array<[string, string]> {
  const name = encodeURIComponent(field.name)
  return [
    ['number', `${name}=12345`],
    ['negative number', `${name}=-1`],
    ['boolean', `${name}=true`],
    ['empty', `${name}=`],
    ['no value', name],
    ['repeated (array)', `${name}=01&${name}=02`],
    ['bracketed (object)', `${name}[a]=1&${name}[b]=2`],
    ['100 KB string', `${name}=${HUGE_STRING}`],
    ['invalid escape %ff', `${name}=%ff`],
    ['lone % and +', `${name}=%+%2`],
    ['encoded surrogate %ED%A0%80', `${name}=%ED%A0%80`],
    ...CONTROL_CHARACTERS.map(([char, label]): [string, string] => [
      `control ${label}`,
      `${name}=${encodeURIComponent(`fuzz${char}sample`)}`,
    ]),
    ...edgeStrings(field.schema, sample)
      .filter(([label]) => label !== 'lone surrogate')
      .map(([label, value]): [string, string] => [label, `${name}=${encodeURIComponent(value)}`]),
  ]
}

/** Path parameter values, escaped as they go into the URL. */
export function paramMutations(valid: string): Array<[string, string]> {
  return [
    ['valid-looking', valid],
    ['empty', ''],
    ['2147483648', '2147483648'],
    ['-1', '-1'],
    ['0x10', '0x10'],
    ['1e3', '1e3'],
    ['..%2f..', '..%2f..'],
    ['%00', '%00'],
    ['%ff', '%ff'],
    ['raw NUL byte', 'a\u0000b'],
    ['101 characters', 'a'.repeat(101)],
    ['5000 characters', 'a'.repeat(5000)],
    ['unicode', encodeURIComponent('ñandú-Ωmega-中文')],
    ['raw unicode', 'ñandú'],
    ['emoji', encodeURIComponent('🎵🌊💧')],
    ['script', encodeURIComponent(SCRIPT_MARKER)],
    ['2147483647', '2147483647'],
    ['9999999999', '9999999999'],
    ['leading zeros', '007'],
    ['1.5', '1.5'],
    ['+1', '%2B1'],
    ['leading space', '%201'],
    ['SQL quote', encodeURIComponent("1' OR '1'='1")],
    ['encoded surrogate %ED%A0%80', '%ED%A0%80'],
    ['upper-cased', valid.toUpperCase()],
    ['backslashes', '..%5c..%5cwindows'],
  ]
}

/** Several layers deep JSON: `[[[…]]]` or `{"a":{"a":…}}`. */
function deepJson(levels: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(levels)}${']'.repeat(levels)}`
    : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
}

/** Bodies sent to every route, whatever its schema (`sample` is the route's JSON body or {}). */
function wholeBodyCases(sample: Record<string, unknown>, firstField: string): FuzzRequest[] {
  const text = JSON.stringify(sample)
  const withoutBrace = text.slice(1)
  const cases: Array<[string, string | Buffer, Record<string, string>]> = [
    [
      'body: extra unknown fields',
      JSON.stringify({ ...sample, fuzzExtra: 1, role: 'admin' }),
      JSON_TYPE,
    ],
    ['body: __proto__ pollution', `{"__proto__":{"polluted":true},${withoutBrace}`, JSON_TYPE],
    [
      'body: constructor.prototype pollution',
      `{"constructor":{"prototype":{"polluted":true}},${withoutBrace}`,
      JSON_TYPE,
    ],
    ['body: array', `[${text}]`, JSON_TYPE],
    ['body: null', 'null', JSON_TYPE],
    ['body: number', '42', JSON_TYPE],
    ['body: string', '"fuzz"', JSON_TYPE],
    ['body: empty with JSON type', '', JSON_TYPE],
    ['body: invalid JSON {', '{', JSON_TYPE],
    ['body: invalid JSON {"a":}', '{"a":}', JSON_TYPE],
    ['body: 10,000 nested arrays', deepJson(10_000, 'array'), JSON_TYPE],
    ['body: 10,000 nested objects', deepJson(10_000, 'object'), JSON_TYPE],
    [
      'body: over 1 MB',
      JSON.stringify({ ...sample, [firstField]: 'x'.repeat(1100 * KB) }),
      JSON_TYPE,
    ],
    ['content-type: text/plain', text, { 'content-type': 'text/plain' }],
    [
      'content-type: form-urlencoded',
      encodeQuery(Object.entries(sample)),
      { 'content-type': 'application/x-www-form-urlencoded' },
    ],
    [
      'content-type: multipart, garbage boundary',
      '--x\r\ngarbage\r\n--y--',
      { 'content-type': 'multipart/form-data; boundary=\u0001"";;' },
    ],
    [
      'content-type: json charset=utf-16',
      text,
      { 'content-type': 'application/json; charset=utf-16' },
    ],
    ['content-type: none', text, {}],
    ['content-type: upper case', text, { 'content-type': 'APPLICATION/JSON' }],
    ['content-type: +json suffix', text, { 'content-type': 'application/vnd.api+json' }],
    ['content-type: empty charset', text, { 'content-type': 'application/json; charset=' }],
    ['content-type: stray semicolons', text, { 'content-type': 'application/json;;; =;' }],
    [
      'content-encoding: gzip (not gzipped)',
      text,
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    ],
    [
      'content-type: octet-stream garbage',
      Buffer.from([0, 1, 2, 255, 254]),
      { 'content-type': 'application/octet-stream' },
    ],
    ['content-type: image/png', TINY_PNG, { 'content-type': 'image/png' }],
    [
      'content-type: svg with script',
      `<svg xmlns="http://www.w3.org/2000/svg">${SCRIPT_MARKER}</svg>`,
      { 'content-type': 'image/svg+xml' },
    ],
  ]
  return cases.map(([label, payload, headers]) => ({
    label,
    method: '',
    url: '',
    payload,
    headers,
  }))
}

/**
 * Every input for one route: its path parameters, querystring and body broken one part at a
 * time (the rest stays valid-looking, so each part's own checks are reached), bodies of every
 * shape and type, and hostile headers on an otherwise valid request.
 */
export function routeCases(route: RouteModel, rawBodySample?: Buffer): FuzzRequest[] {
  const { method } = route
  const url = routeUrl(route)
  const cases: FuzzRequest[] = []
  const jsonBody = route.body ? JSON.stringify(route.body.sample) : undefined
  const base: Pick<FuzzRequest, 'headers' | 'payload'> = jsonBody
    ? { headers: JSON_TYPE, payload: jsonBody }
    : rawBodySample
      ? { headers: { 'content-type': 'application/octet-stream' }, payload: rawBodySample }
      : {}
  cases.push({ label: 'valid-looking request', method, url, ...base })

  for (const name of route.paramNames) {
    for (const [label, value] of paramMutations(route.params[name] ?? '')) {
      if (label === 'valid-looking') continue
      const params = { ...route.params, [name]: value }
      cases.push({
        label: `param ${name}: ${label}`,
        method,
        url: routeUrl(route, params),
        ...base,
      })
    }
  }

  const sampleQuery = route.query ? Object.entries(route.query.sample) : []
  const pathOnly = routeUrl(route, route.params, '')
  for (const field of route.query?.fields ?? []) {
    const others = encodeQuery(sampleQuery.filter(([key]) => key !== field.name))
    for (const [label, part] of queryValueMutations(field, route.query?.sample[field.name])) {
      const search = [others, part].filter(Boolean).join('&')
      cases.push({
        label: `query ${field.name}: ${label}`,
        method,
        url: `${pathOnly}?${search}`,
        ...base,
      })
    }
    if (field.required) {
      cases.push({
        label: `query ${field.name}: missing`,
        method,
        url: others ? `${pathOnly}?${others}` : pathOnly,
        ...base,
      })
    }
  }
  const sampleSearch = encodeQuery(sampleQuery)
  const extraQueries: Array<[string, string]> = [
    ['repeated keys a=1&a=2', 'a=1&a=2'],
    ['unknown extra keys', 'fuzzExtra=1&admin=true&role=operator'],
    ['__proto__ keys', '__proto__[polluted]=1&__proto__=x&constructor[prototype][polluted]=1'],
    ['constructor keys', 'constructor=x&hasOwnProperty=y&toString=z'],
    ['control characters in key', `${encodeURIComponent('k\u0000\u001b\u2028')}=1`],
    ['%ff in key', '%ff=1'],
    ['5,000 keys', Array.from({ length: 5000 }, (_, index) => `k${index}=${index}`).join('&')],
  ]
  for (const [label, search] of extraQueries) {
    const full = [sampleSearch, search].filter(Boolean).join('&')
    cases.push({ label: `query: ${label}`, method, url: `${pathOnly}?${full}`, ...base })
  }

  if (route.body) {
    const sample = route.body.sample
    for (const field of route.body.fields) {
      for (const [label, value] of bodyValueMutations(field, sample[field.name])) {
        cases.push({
          label: `body ${field.name}: ${label}`,
          method,
          url,
          headers: JSON_TYPE,
          payload: JSON.stringify({ ...sample, [field.name]: value }),
        })
      }
      const { [field.name]: _left, ...without } = sample
      cases.push({
        label: `body ${field.name}: missing${field.required ? '' : ' (optional)'}`,
        method,
        url,
        headers: JSON_TYPE,
        payload: JSON.stringify(without),
      })
    }
  }
  // The same broken inputs in Spanish, the other language the product speaks.
  const spanish = { 'accept-language': 'es-ES,es;q=0.9' }
  const firstBody = route.body?.fields[0]
  if (route.body && firstBody) {
    cases.push({
      label: `es: body ${firstBody.name}: number`,
      method,
      url,
      headers: { ...JSON_TYPE, ...spanish },
      payload: JSON.stringify({ ...route.body.sample, [firstBody.name]: 12345 }),
    })
    cases.push({
      label: 'es: body: array',
      method,
      url,
      headers: { ...JSON_TYPE, ...spanish },
      payload: '[]',
    })
  }
  const firstQuery = route.query?.fields[0]
  if (firstQuery) {
    const others = encodeQuery(sampleQuery.filter(([key]) => key !== firstQuery.name))
    const search = [others, `${encodeURIComponent(firstQuery.name)}=${HUGE_STRING}`].filter(Boolean)
    cases.push({
      label: `es: query ${firstQuery.name}: 100 KB string`,
      method,
      url: `${pathOnly}?${search.join('&')}`,
      ...base,
      headers: { ...base.headers, ...spanish },
    })
  }
  const firstParam = route.paramNames.find((name) => name !== '*')
  if (firstParam) {
    cases.push({
      label: `es: param ${firstParam}: script`,
      method,
      url: routeUrl(route, { ...route.params, [firstParam]: encodeURIComponent(SCRIPT_MARKER) }),
      ...base,
      headers: { ...base.headers, ...spanish },
    })
  }

  const firstField = route.body?.fields[0]?.name ?? 'fuzz'
  for (const body of wholeBodyCases(route.body?.sample ?? { fuzz: 'sample' }, firstField)) {
    cases.push({ ...body, method, url })
  }

  const headerCases: Array<[string, Record<string, string>, number?]> = [
    ['accept-language garbage', { 'accept-language': '*;q=x, ;;, éé-ZZ;q=-1, en-US;q=2, \u0001' }],
    ['accept-language 10 KB', { 'accept-language': `en-US;q=0.9,${'zz-ZZ;q=0.1,'.repeat(900)}` }],
    [
      'malformed cookie',
      {
        cookie: 'harmonize.session_token=%E0%A4%A; ;=;; ==x=; \u0001bad; harmonize.session_token=',
      },
    ],
    ['cookie with %00 token', { cookie: 'harmonize.session_token=%00abc.%00def' }],
    ['4 KB cookie', { cookie: `fuzz=${'c'.repeat(4 * KB)}` }],
    [
      'cookie with 500 pairs',
      { cookie: Array.from({ length: 500 }, (_, index) => `c${index}=${index}`).join('; ') },
    ],
    [
      'user-agent 10 KB with control characters',
      { 'user-agent': `fuzz\u0001\u001b${'u'.repeat(10 * KB)}` },
    ],
    ['authorization with a wrong bearer token', { authorization: `Bearer ${'0'.repeat(43)}` }],
    ['x-request-id with control characters', { 'x-request-id': 'fuzz-\u0001\u001b[31m-\u007f-id' }],
    ['x-request-id with a line break', { 'x-request-id': 'fuzz-request\nfake-log-line' }],
  ]
  if (WRITE_METHODS.includes(method)) {
    headerCases.push(['origin of another site', { origin: FOREIGN_ORIGIN }, 403])
    headerCases.push(['sec-fetch-site cross-site', { 'sec-fetch-site': 'cross-site' }, 403])
  } else {
    headerCases.push(['origin of another site (read)', { origin: FOREIGN_ORIGIN }])
  }
  for (const [label, headers, expectStatus] of headerCases) {
    cases.push({
      label: `header ${label}`,
      method,
      url,
      ...base,
      headers: { ...base.headers, ...headers },
      ...(expectStatus ? { expectStatus } : {}),
    })
  }
  return cases
}

/** Links to our own API inside a JSON answer (signed media links…), as path and query. */
export function findLinks(body: string, publicUrl: string): string[] {
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return []
  }
  const links: string[] = []
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      const local = value.startsWith(publicUrl) ? value.slice(publicUrl.length) : value
      if (/^\/api\/\S+$/.test(local)) links.push(local)
    } else if (Array.isArray(value)) value.forEach(walk)
    else if (value && typeof value === 'object') Object.values(value).forEach(walk)
  }
  walk(json)
  return links
}

/**
 * Requests built on a link the API handed out: byte ranges and validators on the real thing,
 * and every query parameter and the path tampered with.
 */
export function linkCases(link: string): FuzzRequest[] {
  const parsed = new URL(link, 'http://localhost')
  const path = parsed.pathname
  const get = (label: string, url: string, headers?: Record<string, string>): FuzzRequest => ({
    label: `link: ${label}`,
    method: 'GET',
    url,
    ...(headers ? { headers } : {}),
  })
  const cases: FuzzRequest[] = [get('as handed out', link)]
  const ranges = [
    'bytes=0-0',
    'bytes=-1',
    'bytes=0-',
    'bytes=-0',
    'bytes=5-2',
    'bytes=99999999999999999999-',
    'bytes=-99999999999999999999',
    'bytes=0-99999999999999999999',
    'bytes=0-1,2-3',
    'bytes=abc',
    'items=0-1',
    `bytes=${'1'.repeat(5000)}-`,
    ' bytes = 0 - 1 ',
  ]
  for (const range of ranges) cases.push(get(`range ${range.slice(0, 40)}`, link, { range }))
  cases.push(get('if-none-match *', link, { 'if-none-match': '*' }))
  cases.push(get('if-none-match list', link, { 'if-none-match': 'W/"x", "y", ,,' }))
  cases.push(get('if-none-match 5 KB', link, { 'if-none-match': `"${'e'.repeat(5 * KB)}"` }))
  cases.push(get('if-range garbage', link, { 'if-range': '"nope"\u0001', range: 'bytes=0-0' }))
  cases.push(
    get('if-range date', link, { 'if-range': 'Thu, 01 Jan 1970 00:00:00 GMT', range: 'bytes=0-0' }),
  )
  cases.push({ ...get('HEAD with range', link, { range: 'bytes=0-0' }), method: 'HEAD' })
  for (const [key, original] of parsed.searchParams) {
    const tampered = [
      ['empty', ''],
      ['0', '0'],
      ['-1', '-1'],
      ['huge', '99999999999999999999'],
      ['1e3', '1e3'],
      ['flipped', original.replace(/^./, (char) => (char === 'A' ? 'B' : 'A'))],
      ['upper-cased', original.toUpperCase()],
      ['with NUL', `${original}\u0000`],
    ]
    for (const [label, value] of tampered) {
      const search = new URLSearchParams(parsed.searchParams)
      search.set(key, value ?? '')
      cases.push(get(`${key} ${label}`, `${path}?${search}`))
    }
  }
  const name = path.slice(path.lastIndexOf('/') + 1)
  const dir = path.slice(0, path.lastIndexOf('/'))
  for (const [label, tamperedPath] of [
    ['path ../', `${dir}/../../${name}`],
    ['path ..%2f', `${dir}/..%2f..%2f${name}`],
    ['path %00', `${path}%00`],
    ['path upper-cased', `${dir}/${name.toUpperCase()}`],
    ['path .meta.json', `${path}.meta.json`],
    ['path dot file', `${dir}/.${name}`],
  ]) {
    cases.push(get(label ?? '', `${tamperedPath}${parsed.search}`))
  }
  return cases
}

/** Malformed and unusual URLs, and methods no route has, on the app's known paths. */
export function oddUrlCases(routes: RouteModel[]): FuzzRequest[] {
  const cases: FuzzRequest[] = [
    ['/api/%ff'],
    ['/api/panels/%ff'],
    [`/api/panels/${'x'.repeat(150)}`],
    ['//api//panels'],
    ['/api/panels/../account/sign-in'],
    ['/api/panels/../account/sign-in', 'POST'],
    ['/api/panels?%ff=1'],
    ['/api/panels;jsessionid=1'],
    ['/api/PANELS'],
    ['/API/panels'],
    ['/api/panels/%2e%2e/%2e%2e/etc/passwd'],
    [`/api/${'x'.repeat(20_000)}`],
    [`/api/panels?q=${'x'.repeat(20_000)}`],
    ['/api/panels#fragment'],
    ['/api/panels?&&&=&=='],
    ['/%00'],
    ['/api/\u0000'],
  ].map(([url = '', method = 'GET']) => ({ label: 'odd URL', method, url }))
  const paths = new Map<string, string[]>()
  for (const route of routes) {
    const url = routeUrl(route)
    paths.set(url, [...(paths.get(url) ?? []), route.method])
  }
  for (const [url, methods] of paths) {
    for (const method of ['PATCH', 'DELETE', 'PROPFIND', 'OPTIONS', 'TRACE', 'SEARCH', 'QUERY']) {
      if (!methods.includes(method)) cases.push({ label: `unknown method ${method}`, method, url })
    }
  }
  return cases
}

/** One answer as the checks see it. */
export interface Answer {
  status: number
  headers: Record<string, string | string[] | number | undefined>
  body: string
}

// Text that belongs to the server's insides: stack traces and paths, SQL and the database
// driver, and libraries' own English that a user must never read.
const LEAKS: Array<[string, RegExp]> = [
  ['stack frame', / {4}at /],
  ['.ts: location', /\.ts:\d/],
  ['.js: location', /\.js:\d/],
  ['node_modules', /node_modules/],
  ['/work/ path', /\/work\//],
  ['file:// URL', /file:\/\//],
  ['SQL syntax error', /syntax error/i],
  ['SQL "violates"', /violates/i],
  ['SQL relation', /relation "/i],
  ['invalid byte sequence', /invalid byte sequence/i],
  ['PGlite', /pglite/i],
  ['postgres', /postgres/i],
  ['drizzle', /drizzle/i],
  ['SQLSTATE', /sqlstate/i],
  ['"Failed to create user"', /Failed to create user/],
  // zod's own wording from its locales, English or Spanish: "Invalid input: expected string,
  // received undefined", "Too big: …", "Invalid string: must match pattern /^\\d{2}$/"…
  [
    'zod\'s own wording ("Invalid input", "Too big", "Entrada inválida"…)',
    /Invalid (input|string|option|key|element|value|number|type|union|date|discriminator)\b|Too (big|small): |Unrecognized keys?|(Entrada|Cadena|Opción|Llave|Valor) inválid[ao]|Número inválido|Demasiado (grande|pequeño)|Llaves? desconocidas?/,
  ],
  ['FST_ error code', /FST_/],
  ['ZodError', /ZodError/],
  ['better-auth', /better-auth/i],
  ['"Unexpected token"', /Unexpected token/],
]

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f\u2028\u2029]/

function headerValue(headers: Answer['headers'], name: string): string | undefined {
  const value = headers[name]
  return value === undefined ? undefined : [value].flat().join(', ')
}

/** A short piece of `text` around `index`, on one line. */
export function excerpt(text: string, index = 0, length = 160): string {
  const start = Math.max(0, index - 60)
  const piece = text.slice(start, start + length).replace(/\s+/g, ' ')
  return `${start > 0 ? '…' : ''}${piece}${start + length < text.length ? '…' : ''}`
}

/**
 * What is wrong with an answer: a server error, a missing security header or request id, an
 * error body that is not the shared shape, or something of the server's insides in it.
 * Each problem comes with an excerpt of the body that shows it.
 */
export function answerProblems(
  request: Pick<FuzzRequest, 'method' | 'expectStatus'>,
  answer: Answer,
): Array<{ problem: string; excerpt: string }> {
  const problems: Array<{ problem: string; excerpt: string }> = []
  const add = (problem: string, at = 0) =>
    problems.push({ problem, excerpt: excerpt(answer.body, at) })
  const { status, headers, body } = answer
  if (status >= 500) add(`server error ${status}`)
  if (request.expectStatus !== undefined && status !== request.expectStatus && status < 500) {
    add(`expected ${request.expectStatus}, got ${status}`)
  }
  const requestId = headerValue(headers, 'x-request-id')
  if (!requestId) add('no x-request-id header')
  else if (CONTROL_OR_SPACE.test(requestId)) add('x-request-id header has control characters')
  if (!headerValue(headers, 'content-security-policy')) add('no content-security-policy header')
  if (headerValue(headers, 'x-content-type-options') !== 'nosniff') {
    add('no x-content-type-options: nosniff header')
  }
  const type = headerValue(headers, 'content-type') ?? ''
  if (status >= 400 && request.method !== 'HEAD') {
    let json: unknown
    try {
      json = type.includes('json') ? JSON.parse(body) : undefined
    } catch {
      json = undefined
    }
    if (json === undefined) add(`error answer is not JSON (${type || 'no content type'})`)
    else {
      const parsed = apiErrorSchema.safeParse(json)
      if (!parsed.success) add('error body is not the shared error shape')
      else if (parsed.data.requestId !== requestId) add('requestId differs from x-request-id')
      else if (parsed.data.statusCode !== status) add('statusCode in body differs from status')
    }
  }
  if (type.includes('html') && body.includes(SCRIPT_MARKER)) {
    add('page reflects <script> unescaped', body.indexOf(SCRIPT_MARKER))
  }
  const headerText = Object.entries(headers)
    .map(([name, value]) => `${name}: ${[value ?? ''].flat().join(', ')}`)
    .join('\n')
  for (const [name, pattern] of LEAKS) {
    const inBody = pattern.exec(body)
    if (inBody) add(`leaks ${name}`, inBody.index)
    else if (pattern.test(headerText)) add(`leaks ${name} in a header`)
  }
  return problems
}

/** Rejects with `describe()` when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what()}`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Decodes a chunked HTTP/1.1 body. */
function unchunk(data: Buffer): Buffer {
  const parts: Buffer[] = []
  let offset = 0
  while (offset < data.length) {
    const lineEnd = data.indexOf('\r\n', offset)
    if (lineEnd < 0) break
    const size = Number.parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16)
    if (!size) break
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size))
    offset = lineEnd + 2 + size + 2
  }
  return Buffer.concat(parts)
}

/**
 * Writes `request` (raw bytes, request line and all) to a real socket and reads the answer until
 * the server closes the connection: what a real HTTP parser does with inputs inject cannot send.
 */
export function rawHttp(
  port: number,
  request: string | Buffer,
  timeoutMs = 10_000,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no answer within ${timeoutMs} ms`))
    }, timeoutMs)
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    socket.on('close', () => {
      clearTimeout(timer)
      const data = Buffer.concat(chunks)
      const split = data.indexOf('\r\n\r\n')
      if (split < 0) {
        reject(
          new Error(`no HTTP answer: ${JSON.stringify(data.toString('latin1').slice(0, 200))}`),
        )
        return
      }
      const [statusLine = '', ...lines] = data.subarray(0, split).toString('latin1').split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        const name = line.slice(0, colon).trim().toLowerCase()
        const value = line.slice(colon + 1).trim()
        headers[name] = headers[name] ? `${headers[name]}, ${value}` : value
      }
      const rest = data.subarray(split + 4)
      const body = headers['transfer-encoding']?.includes('chunked') ? unchunk(rest) : rest
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') })
    })
    socket.write(request)
  })
}
