import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { HARMONIZE_DURATION_MS } from '../../../domain/constants'
import { type PanelDetail, panelDetailSchema } from '../../../domain/panels'
import { ApiError } from '../../lib/api-client'
import {
  type AppServer,
  signedInMember,
  signOut,
  startAppServer,
} from '../../lib/testing/app-server'
import type { HarmonizePlayerState } from './audio/player'
import { type HarmonizeSessionOptions, useHarmonizeSession } from './use-harmonize-session'

// The session hook against the real server: what it records, and its 3:00 on a fake clock.
// Only the countdown's clock is faked (setInterval and Date); the server in this process keeps
// its real timers and sockets.

let server: AppServer
beforeAll(async () => {
  server = await startAppServer()
}, 180_000)
afterAll(() => server?.close())
beforeEach(() => signOut())
afterEach(() => {
  vi.useRealTimers()
})

const fakeClock = () => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })

async function getJson(path: string) {
  const response = await fetch(path, { headers: { accept: 'application/json' } })
  expect(response.ok, `GET ${path} answered ${response.status}`).toBe(true)
  return response.json()
}

const loadPanel = async (id: string): Promise<PanelDetail> =>
  panelDetailSchema.parse(await getJson(`/api/panels/${id}`))

/** The signed-in member's sessions as the server lists them, newest first. */
const recordedSessions = async (): Promise<{ panelId: string; completedAt: string | null }[]> =>
  (await getJson('/api/harmonize/sessions')).sessions

function renderSession(initialProps: HarmonizeSessionOptions) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  )
  return renderHook((props: HarmonizeSessionOptions) => useHarmonizeSession(props), {
    wrapper,
    initialProps,
  })
}

const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms)
  })

describe('useHarmonizeSession', () => {
  it('records the session once, counts 3:00 down with rotating words, pauses, and completes', async () => {
    await signedInMember(server, { access: true })
    const panel = await loadPanel('07')
    fakeClock()
    const onComplete = vi.fn()
    const { result } = renderSession({ panel, onComplete })
    expect(result.current.phase).toBe('idle')
    expect(result.current.remaining).toBe(HARMONIZE_DURATION_MS)
    expect(result.current.affirmation).toBe('')
    expect(result.current.ingredient).toBe('')

    await act(() => result.current.start())
    expect(result.current.phase).toBe('playing')
    expect(result.current.content?.sessionId).toBeGreaterThan(0)
    expect(result.current.content?.affirmations).toHaveLength(9)
    expect(await recordedSessions()).toEqual([
      expect.objectContaining({ panelId: '07', completedAt: null }),
    ])

    // Ingredients change every 4 s, affirmations every 7 s.
    const firstWords = result.current.affirmation
    const firstIngredient = result.current.ingredient
    expect(firstWords).not.toBe('')
    expect(panel.ingredients).toContain(firstIngredient)
    await advance(3_750)
    expect(result.current.ingredient).toBe(firstIngredient)
    await advance(250)
    expect(result.current.remaining).toBe(176_000)
    expect(result.current.ingredient).not.toBe(firstIngredient)
    expect(result.current.affirmation).toBe(firstWords)
    await advance(3_000)
    expect(result.current.remaining).toBe(173_000)
    expect(result.current.affirmation).not.toBe(firstWords)

    // A pause holds the time and the words; the resume is not a new session.
    act(() => result.current.pause())
    expect(result.current.phase).toBe('paused')
    const pausedWords = result.current.affirmation
    await advance(60_000)
    expect(result.current.remaining).toBe(173_000)
    expect(result.current.affirmation).toBe(pausedWords)
    await act(() => result.current.start())
    expect(result.current.phase).toBe('playing')
    expect(await recordedSessions()).toHaveLength(1)

    await advance(172_750)
    expect(result.current.phase).toBe('playing')
    expect(onComplete).not.toHaveBeenCalled()
    await advance(250)
    expect(result.current.phase).toBe('complete')
    expect(result.current.remaining).toBe(0)
    expect(onComplete).toHaveBeenCalledOnce()
    await vi.waitFor(async () => {
      expect((await recordedSessions())[0]?.completedAt).toEqual(expect.any(String))
    })

    // Harmonize Again: a fresh 3:00, and the next start is a session of its own.
    act(() => result.current.again())
    expect(result.current.phase).toBe('idle')
    expect(result.current.remaining).toBe(HARMONIZE_DURATION_MS)
    expect(result.current.affirmation).toBe('')
    await act(() => result.current.start())
    const sessions = await recordedSessions()
    expect(sessions).toHaveLength(2)
    expect(sessions[0]).toMatchObject({ panelId: '07', completedAt: null })
  })

  it('waits for the sound before the clock runs, and follows the lock screen after', async () => {
    await signedInMember(server, { access: true })
    const panel = await loadPanel('03')
    fakeClock()
    let soundStatus: HarmonizePlayerState['status'] = 'idle'
    const { result, rerender } = renderSession({ panel, soundStatus })
    const setSound = (status: HarmonizePlayerState['status']) => {
      soundStatus = status
      rerender({ panel, soundStatus })
    }

    let soundUp = () => {}
    const soundReady = new Promise<void>((resolve) => {
      soundUp = resolve
    })
    setSound('starting')
    let started: Promise<void> = Promise.resolve()
    act(() => {
      started = result.current.start(soundReady)
    })
    await vi.waitFor(() => expect(result.current.content).not.toBeNull())
    expect(result.current.phase).toBe('starting')
    await advance(5_000)
    expect(result.current.remaining).toBe(HARMONIZE_DURATION_MS)
    setSound('playing')
    soundUp()
    await act(() => started)
    expect(result.current.phase).toBe('playing')
    await advance(10_000)
    expect(result.current.remaining).toBe(170_000)

    // Paused from the lock screen: the sound fades out, then the clock stops with it.
    setSound('stopping')
    expect(result.current.phase).toBe('playing')
    setSound('idle')
    expect(result.current.phase).toBe('paused')
    await advance(30_000)
    expect(result.current.remaining).toBe(170_000)

    // Played again from the lock screen: the same session goes on.
    setSound('playing')
    expect(result.current.phase).toBe('playing')
    await advance(1_000)
    expect(result.current.remaining).toBe(169_000)
    expect(await recordedSessions()).toHaveLength(1)
  })

  it('runs without network on the words kept earlier, and records nothing', async () => {
    await signedInMember(server, { access: true })
    const panel = await loadPanel('05')
    const happyWindow = window as unknown as { happyDOM: { setURL(url: string): void } }
    // Nothing listens on port 9 of this machine: every request fails as it does offline.
    happyWindow.happyDOM.setURL('http://localhost:9/')
    try {
      fakeClock()
      const kept = ['Kept words one', 'Kept words two']
      const onComplete = vi.fn()
      const { result } = renderSession({ panel, offlineAffirmations: kept, onComplete })
      await act(() => result.current.start())
      expect(result.current.phase).toBe('playing')
      expect(result.current.content).toMatchObject({ sessionId: 0, panel, affirmations: kept })
      expect(result.current.affirmation).toBe('Kept words one')
      await advance(7_000)
      expect(result.current.affirmation).toBe('Kept words two')
      await advance(HARMONIZE_DURATION_MS)
      expect(result.current.phase).toBe('complete')
      expect(onComplete).toHaveBeenCalledOnce()
    } finally {
      happyWindow.happyDOM.setURL(`${server.origin}/`)
    }
    expect(await recordedSessions()).toEqual([])
  })

  it('a tray session runs for its own time and records every layered panel, completed together', async () => {
    await signedInMember(server, { access: true })
    const [lead, second, third] = await Promise.all(['03', '09', '12'].map(loadPanel))
    if (!lead || !second || !third) throw new Error('panels missing')
    fakeClock()
    const { result } = renderSession({ panel: lead, layered: [second, third], durationMs: 600_000 })
    expect(result.current.remaining).toBe(600_000)
    await act(() => result.current.start())
    expect(result.current.phase).toBe('playing')
    const panelIds = async () => (await recordedSessions()).map(({ panelId }) => panelId).sort()
    expect(await panelIds()).toEqual(['03', '09', '12'])
    // The ingredients of every panel take turns, the first panel's first.
    const shown = new Set<string>()
    const allIngredients = [lead, second, third].flatMap(({ ingredients }) => ingredients)
    for (let step = 0; step < allIngredients.length; step++) {
      shown.add(result.current.ingredient)
      await advance(4_000)
    }
    expect(shown).toEqual(new Set(allIngredients))
    // 3:00 is not the end of a 10-minute tray.
    await advance(HARMONIZE_DURATION_MS)
    expect(result.current.phase).toBe('playing')
    await advance(600_000)
    expect(result.current.phase).toBe('complete')
    await vi.waitFor(async () => {
      const sessions = await recordedSessions()
      expect(sessions).toHaveLength(3)
      for (const session of sessions) expect(session.completedAt).not.toBeNull()
    })
  })

  it('starts nothing when the server refuses: without access it says why', async () => {
    await signedInMember(server)
    const panel = await loadPanel('01')
    const { result } = renderSession({ panel })
    let refusal: unknown
    await act(async () => {
      refusal = await result.current.start().catch((error: unknown) => error)
    })
    expect(refusal).toBeInstanceOf(ApiError)
    expect(refusal).toMatchObject({ status: 402, message: 'Sorry, no payment found yet.' })
    expect(result.current.phase).toBe('idle')
    expect(result.current.remaining).toBe(HARMONIZE_DURATION_MS)
    expect(await recordedSessions()).toEqual([])
  })
})
