import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { act, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { currentLanguage } from '../../lib/i18n'
import { panelsQuery } from '../../lib/panel-queries'
import { type AppServer, signedInMember, startAppServer } from '../../lib/testing/app-server'
import { useRx } from './use-rx'

// What a harmonizing screen's address asks for, against the real server. The layered panels'
// array is what the sound player is made from: a new array is a new player (and a session that
// had started goes silent), so it must only change when the panels do.

let server: AppServer
beforeAll(async () => {
  server = await startAppServer()
}, 180_000)
afterAll(() => server?.close())

function renderRx(id: string, address: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[address]}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MemoryRouter>
  )
  // `list` shows when the page has rendered with the list in hand.
  const rendered = renderHook(
    () => ({
      ...useRx(id),
      list: useQuery({ ...panelsQuery(currentLanguage()), enabled: false }).data,
    }),
    { wrapper },
  )
  // As keeping the panels for offline use does, beside the session.
  const listArrives = async () => {
    const before = rendered.result.current.list
    await act(() => queryClient.fetchQuery({ ...panelsQuery(currentLanguage()), staleTime: 0 }))
    await waitFor(() => expect(rendered.result.current.list).not.toBe(before))
  }
  return { ...rendered, listArrives }
}

describe('useRx', () => {
  it('a one-panel session keeps the same empty layers when the panel list arrives', async () => {
    await signedInMember(server, { access: true })
    const { result, listArrives } = renderRx('07', '/harmonizing-screen/07')
    const before = result.current.layered
    expect(result.current).toMatchObject({ durationMs: 180_000, layered: [], pending: false })
    await listArrives()
    expect(result.current.layered).toBe(before)
  })

  it('a tray session waits for the list, then keeps its panels in the tray’s order', async () => {
    await signedInMember(server, { access: true })
    const { result } = renderRx('07', '/harmonizing-screen/07?minutes=10&with=03,01')
    expect(result.current).toMatchObject({ durationMs: 600_000, pending: true })
    await waitFor(() => expect(result.current.pending).toBe(false))
    expect(result.current.layered.map(({ id }) => id)).toEqual(['03', '01'])
  })
})
