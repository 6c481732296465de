import type { FastifyInstance } from 'fastify'
import { buildUser } from './factories'

/** A confirmed member of `app` with a session, and that session as a `cookie` header. */
export async function memberWithCookie(app: FastifyInstance) {
  const { user, session } = await buildUser(app)
  return { user, cookie: session?.header ?? '' }
}

/**
 * JSON calls through `inject`, as the browser makes them: with the member's cookie (empty for a
 * visitor) and the interface language. `app` is read at each call, so a test file can make its
 * caller before its app is built: `const call = apiCallsTo(() => testApp.app)`.
 */
export function apiCallsTo(app: () => FastifyInstance) {
  return (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    cookie: string,
    body?: unknown,
    language = 'en',
  ) =>
    app().inject({
      method,
      url,
      headers: { cookie, 'accept-language': language },
      ...(body === undefined ? {} : { payload: body as object }),
    })
}
