import type { z } from 'zod/mini'
import { currentLanguage } from './i18n'

/** An error answer from our API, with the server's message in the user's language. */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly issues: { field: string; message: string }[] = [],
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/**
 * Calls our own API and checks the answer against the shared schema, so a contract drift shows
 * up as an error here instead of as undefined fields somewhere in the UI.
 */
export async function apiRequest<T extends z.ZodMiniType>(
  path: string,
  schema: T,
  init: RequestInit = {},
): Promise<z.output<T>> {
  const headers = new Headers(init.headers)
  headers.set('accept', 'application/json')
  headers.set('accept-language', currentLanguage())
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json')
  const response = await fetch(path, { credentials: 'same-origin', ...init, headers })
  const body = response.headers.get('content-type')?.includes('application/json')
    ? await response.json()
    : undefined
  if (!response.ok) {
    throw new ApiError(response.status, body?.message ?? response.statusText, body?.issues ?? [])
  }
  return schema.parse(body)
}
