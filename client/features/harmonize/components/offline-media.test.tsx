import { randomBytes } from 'node:crypto'
import { screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { buildMedia } from '../../../../tests/support/factories'
import { makeWav } from '../../../../tests/support/media'
import {
  type AppServer,
  signedInMember,
  signOut,
  startAppServer,
} from '../../../lib/testing/app-server'
import { renderApp } from '../../../lib/testing/render-app'

// 'Media for offline use' on My Account, downloading real files from the real server.

/**
 * happy-dom has no Cache Storage, so this keeps the saved files in memory behind the calls
 * the media code makes (open, keys, match, put, delete); everything else is real.
 */
class MemoryCache {
  private readonly entries = new Map<string, Response>()
  private urlOf(request: RequestInfo | URL): string {
    const url = typeof request === 'string' || request instanceof URL ? request : request.url
    return new URL(url, location.href).href
  }
  async keys() {
    return [...this.entries.keys()].map((url) => new Request(url))
  }
  async match(request: RequestInfo | URL) {
    return this.entries.get(this.urlOf(request))?.clone()
  }
  async put(request: RequestInfo | URL, response: Response) {
    const body = await response.blob()
    this.entries.set(this.urlOf(request), new Response(body, { headers: response.headers }))
  }
  async delete(request: RequestInfo | URL) {
    return this.entries.delete(this.urlOf(request))
  }
}

class MemoryCacheStorage {
  private readonly caches = new Map<string, MemoryCache>()
  async open(name: string) {
    let cache = this.caches.get(name)
    if (!cache) {
      cache = new MemoryCache()
      this.caches.set(name, cache)
    }
    return cache
  }
}

let server: AppServer
beforeAll(async () => {
  server = await startAppServer()
}, 180_000)
afterAll(() => server?.close())
beforeEach(async () => {
  await signOut()
  vi.stubGlobal('caches', new MemoryCacheStorage())
  return () => vi.unstubAllGlobals()
})

/** A backing track on panel 16, under a name of its own; its name as My Account shows it. */
async function addTrack(): Promise<string> {
  const media = await buildMedia(server.app, {
    name: `calm-${randomBytes(4).toString('hex')}.wav`,
    data: makeWav(1, 432, 8000),
    panelId: '16',
    backing: true,
  })
  return media.key.replace(/^medias\//, '')
}

describe('media for offline use', () => {
  it("keeps 'Save all' until every file is saved, even when one is left", async () => {
    await signedInMember(server, { access: true })
    const first = await addTrack()
    const second = await addTrack()
    const user = userEvent.setup()
    await renderApp('/my-account')
    // The page is a lazy chunk: its first load here includes transforming it.
    const card = await screen.findByTestId('offline-media', {}, { timeout: 15_000 })
    await waitFor(() => expect(within(card).getAllByTestId('media-item')).toHaveLength(2))
    expect(within(card).getByText('Nothing saved on this device yet.')).toBeTruthy()
    expect(within(card).getByRole('button', { name: 'Save all' })).toBeTruthy()

    // One saved by hand: the other is still unsaved, so 'Save all' must stay.
    await user.click(within(card).getByRole('button', { name: `Save ${first}` }))
    await within(card).findByRole('button', { name: `Remove ${first}` })
    expect(within(card).getByTestId('saved-media').textContent).toContain(first)
    expect(within(card).getByRole('button', { name: 'Save all' })).toBeTruthy()

    await user.click(within(card).getByRole('button', { name: 'Save all' }))
    await within(card).findByRole('button', { name: `Remove ${second}` })
    expect(within(within(card).getByTestId('saved-media')).getAllByRole('listitem')).toHaveLength(2)
    expect(within(card).queryByRole('button', { name: 'Save all' })).toBeNull()

    // The saved copy is the file the server holds, byte for byte.
    const cache = await caches.open('harmonize-media')
    const saved = await cache.match(`/offline-media/medias/${second}`)
    expect((await saved?.arrayBuffer())?.byteLength).toBe(makeWav(1, 432, 8000).length)

    // Removing one brings 'Save all' back for it.
    await user.click(within(card).getByRole('button', { name: `Remove ${first}` }))
    await within(card).findByRole('button', { name: 'Save all' })
  })
})
