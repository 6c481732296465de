import type { z } from 'zod/mini'
import { currentLanguage } from './i18n'

/** One field the server refused, with its reason in the user's language. */
export interface ApiIssue {
  /** Where the value was, e.g. `body.email`. */
  field: string
  message: string
}

/**
 * An error answer from our API, with the server's message in the user's language. Status 0
 * means no answer arrived (the network, not the server, failed).
 */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly issues: ApiIssue[] = [],
    /** The server's name for this refusal (domain/api.ts), when it gave one. */
    public readonly reason?: string,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** Reads our error body (see the server's `apiErrorSchema`) from any answer that is not OK. */
export function apiErrorFrom(status: number, statusText: string, body: unknown): ApiError {
  const { message, issues, reason } = (body ?? {}) as {
    message?: unknown
    issues?: unknown
    reason?: unknown
  }
  return new ApiError(
    status,
    typeof message === 'string' ? message : statusText,
    Array.isArray(issues) ? (issues as ApiIssue[]) : [],
    typeof reason === 'string' ? reason : undefined,
  )
}

/** The headers every call to our API carries: JSON back, and texts in the user's language. */
export function apiHeaders(init?: HeadersInit): Headers {
  const headers = new Headers(init)
  headers.set('accept', 'application/json')
  headers.set('accept-language', currentLanguage())
  return headers
}

const early = new Map<string, Promise<Response>>()

/**
 * Starts a GET now, before the code that reads it has arrived (it comes a round trip later, in
 * a chunk of its own); the next `apiRequest` of the same path takes this answer instead of asking
 * again. For answers that are the same for everyone; a member's own only with {@link forgetEarly}
 * once the code that was to take it has run, so that no copy waits for whoever signs in next.
 */
export function requestEarly(path: string) {
  if (early.has(path)) return
  const response = fetch(path, { credentials: 'same-origin', headers: apiHeaders() })
  // Offline, nobody may come to take the failure: it must not surface as an unhandled one.
  response.catch(() => {})
  early.set(path, response)
}

/** Drops the answers of {@link requestEarly} to `paths` (all by default) no request has taken. */
export function forgetEarly(paths: Iterable<string> = [...early.keys()]) {
  for (const path of paths) early.delete(path)
}

/**
 * A response's schema, or a function that loads it. Loaded, it arrives beside the answer, and the
 * schemas' code (zod) stays out of a first render that only starts the request (the session's).
 */
export type SchemaSource<T extends z.ZodMiniType> = T | (() => Promise<T>)

/**
 * Calls our own API and checks the answer against the shared schema, so a contract drift shows
 * up as an error here instead of as undefined fields somewhere in the UI.
 */
export async function apiRequest<T extends z.ZodMiniType>(
  path: string,
  schema: SchemaSource<T>,
  init: RequestInit = {},
): Promise<z.output<T>> {
  const headers = apiHeaders(init.headers)
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json')
  const started = init.method || init.body ? undefined : early.get(path)
  if (started) early.delete(path)
  const loading = typeof schema === 'function' ? schema() : Promise.resolve(schema)
  // A refusal is reported as such even when the schema could not load (offline, a new deploy).
  loading.catch(() => {})
  const response = await (started ?? fetch(path, { credentials: 'same-origin', ...init, headers }))
  const body = response.headers.get('content-type')?.includes('application/json')
    ? await response.json()
    : undefined
  if (!response.ok) throw apiErrorFrom(response.status, response.statusText, body)
  const schemaOf = await loading.catch((cause: unknown) => {
    // Not a network failure (client/lib/offline-cache.ts): the server answered, and an old copy
    // of the answer must not stand in for it.
    throw new Error(`The answer of ${path} could not be checked: its schema did not load.`, {
      cause,
    })
  })
  return schemaOf.parse(body)
}

/**
 * A JSON endpoint typed by the shared schemas of `domain/`: the body is what the request
 * schema accepts, the answer what the response schema gives. The request schema is not run
 * here (the form already did, and the server does again); it names the contract at the call.
 */
export function endpoint<Req extends z.ZodMiniType, Res extends z.ZodMiniType>(
  method: 'POST' | 'PUT',
  path: string,
  _request: Req,
  response: Res,
): (body: z.input<Req>) => Promise<z.output<Res>> {
  return (body) => apiRequest(path, response, { method, body: JSON.stringify(body) })
}
