import { createServer } from 'node:net'
import { waitFor } from '@testing-library/react'
import type { FastifyInstance } from 'fastify'
import { buildUser, type UserOptions } from '../../../tests/support/factories'
import { createTestEnvironment, type TestEnvironment } from '../../../tests/support/test-app'
import { SolverWorker } from './solver-worker'

// Component tests talk to the real app: the server is built on a database of its own and
// listens on a free loopback port, and the happy-dom page is placed on that origin, so the
// client's relative `fetch('/api/…')` calls reach it exactly as in a browser (same origin, the
// server's cookies, its CSRF check).

export interface AppServer {
  app: FastifyInstance
  origin: string
  close(): Promise<void>
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/**
 * Starts the app for one test file, with `extraEnv` added to its configuration. Call it in
 * `beforeAll` with a long timeout: a fresh database runs every migration first.
 */
export async function startAppServer(extraEnv: Record<string, string> = {}): Promise<AppServer> {
  const port = await freePort()
  // The page's origin must be the server's PUBLIC_URL, or its CSRF check refuses every POST.
  const origin = `http://localhost:${port}`
  let environment: TestEnvironment | undefined
  let app: FastifyInstance | undefined
  try {
    environment = await createTestEnvironment({
      ...extraEnv,
      PORT: String(port),
      PUBLIC_URL: origin,
    })
    // The DOM and the server share this process, so the event loop's delay measures the
    // test's own rendering; the 503 guard against overload would only get in the way.
    app = await environment.build({ pressure: { maxEventLoopDelayMs: 0 } })
    await app.listen({ port, host: '127.0.0.1' })
  } catch (error) {
    await app?.close()
    await environment?.destroy()
    throw error
  }
  const happyWindow = window as unknown as { happyDOM: { setURL(url: string): void } }
  happyWindow.happyDOM.setURL(`${origin}/`)
  const started = app
  const env = environment
  return {
    app: started,
    origin,
    async close() {
      await started.close()
      await env.destroy()
    },
  }
}

/**
 * A member made straight in the database (tests/support/factories.ts); unless `confirmed` is
 * false, this page is signed in as them, the way the browser keeps the session: in its cookies.
 */
export async function signedInMember(server: AppServer, options: UserOptions = {}) {
  const { user, session } = await buildUser(server.app, options)
  await signOut()
  for (const cookie of session?.cookies ?? []) {
    // biome-ignore lint/suspicious/noDocumentCookie: the page's own cookie jar is the point.
    document.cookie = `${cookie.name}=${cookie.value}; path=/`
  }
  return user
}

/** Ends whatever session this page has, as /logout does; the next test starts as a visitor. */
export async function signOut(): Promise<void> {
  await fetch('/api/account/sign-out', { method: 'POST', body: '{}', headers: jsonHeaders })
}

const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json' }

/**
 * Passes the human check as a person does: ticks the box and waits until it says Verified. The
 * challenge comes from this server and the server verifies the payload as usual; only the
 * worker that searches is stood in for (happy-dom runs none).
 */
export async function passHumanCheckIn(container: ParentNode): Promise<void> {
  // happy-dom has no workers; the search runs in Node instead (solver-worker.ts).
  globalThis.Worker = SolverWorker as unknown as typeof Worker
  const box = await waitFor(() => {
    const found = container.querySelector<HTMLInputElement>(
      '[data-testid="human-check"] input[type="checkbox"]',
    )
    if (!found) throw new Error('the human check has not appeared')
    return found
  })
  box.click()
  await waitFor(
    () => {
      if (!box.checked)
        throw new Error(`the human check says: ${box.closest('label')?.textContent}`)
    },
    { timeout: 20_000 },
  )
}
