import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import {
  AFFIRMATION_ROTATION_MS,
  HARMONIZE_DURATION_MS,
  INGREDIENT_ROTATION_MS,
} from '../../../domain/constants'
import type { SessionContent } from '../../../domain/harmonize'
import type { PanelDetail } from '../../../domain/panels'
import { isNetworkFailure } from '../../lib/offline-cache'
import { completeSession, startSession } from './api'
import type { HarmonizePlayerState } from './audio/player'
import { useCountdown } from './use-countdown'

/**
 * Where a session is: not started (or reset), being started (recorded, sound coming up),
 * running, paused part-way, or finished.
 */
export type SessionPhase = 'idle' | 'starting' | 'playing' | 'paused' | 'complete'

export interface HarmonizeSessionOptions {
  /** The panel being harmonized; nothing starts before it is known. */
  panel: PanelDetail | undefined
  /** Words kept from earlier, for a session started without network. */
  offlineAffirmations?: string[]
  /**
   * What the sound is doing, when something outside the page can start or stop it (the lock
   * screen's controls): the timer follows it, since stopping one stops the other (spec core §4).
   */
  soundStatus?: HarmonizePlayerState['status']
  /** Called once the 3:00 are over (the page stops the sound). */
  onComplete?: () => void
}

export interface HarmonizeSession {
  phase: SessionPhase
  /** Milliseconds left of the 3:00, and spent so far. */
  remaining: number
  elapsed: number
  /** The recorded session (id 0 when it started offline and was not recorded). */
  content: SessionContent | null
  /** The affirmation and ingredient to show now; empty before the session first runs. */
  affirmation: string
  ingredient: string
  /**
   * Starts the session, or resumes it after a pause. The first start records it with the server
   * and brings its words; without network it runs unrecorded with the words kept earlier.
   * `soundReady` (the sound's own start) is waited for before the timer runs. Rejects when the
   * server refuses (e.g. 402 without access); the session then stays where it was.
   */
  start(soundReady?: Promise<unknown>): Promise<void>
  pause(): void
  /** Back to a fresh 3:00, so the next start records a new session. */
  again(): void
}

/**
 * Records the session when online. Without network the session still runs (the visuals and
 * sound are made on the device) with the panel and words kept from earlier; it is not recorded.
 */
async function startOnlineOrOffline(
  panel: PanelDetail,
  affirmations: string[] | undefined,
): Promise<SessionContent> {
  try {
    return await startSession(panel.id)
  } catch (error) {
    if (!isNetworkFailure(error)) throw error
    return {
      sessionId: 0,
      startedAt: new Date().toISOString(),
      panel,
      affirmations: affirmations ?? [],
    }
  }
}

const pick = <T>(items: readonly T[], elapsed: number, everyMs: number): T | undefined =>
  items.length ? items[Math.floor(elapsed / everyMs) % items.length] : undefined

/**
 * A harmonizing session's life: a pausable 3-minute countdown (spec core §4), what it asks the
 * server (start once, complete at the end), and the words rotating meanwhile. The picture and
 * the sound are the page's; they follow `phase`.
 */
export function useHarmonizeSession({
  panel,
  offlineAffirmations,
  soundStatus,
  onComplete,
}: HarmonizeSessionOptions): HarmonizeSession {
  const queryClient = useQueryClient()
  const [content, setContent] = useState<SessionContent | null>(null)
  const [starting, setStarting] = useState(false)
  const [complete, setComplete] = useState(false)
  // Read by callbacks that must not change identity with every answer.
  const contentRef = useRef<SessionContent | null>(null)
  const startingRef = useRef(false)
  const onCompleteRef = useRef(onComplete)
  onCompleteRef.current = onComplete

  const handleDone = useCallback(() => {
    setComplete(true)
    onCompleteRef.current?.()
    const sessionId = contentRef.current?.sessionId
    // An offline session (id 0) was never recorded, so there is nothing to complete.
    if (!sessionId) return
    completeSession(sessionId)
      .then(() => queryClient.invalidateQueries({ queryKey: ['harmonize', 'sessions'] }))
      .catch(() => {
        // The session ran; only its 'Completed' mark in the history is lost.
      })
  }, [queryClient])
  const countdown = useCountdown(HARMONIZE_DURATION_MS, handleDone)
  const { running, start: runTimer, pause: pauseTimer, reset: resetTimer } = countdown

  const start = useCallback(
    async (soundReady?: Promise<unknown>) => {
      if (!panel || startingRef.current || running || complete) return
      startingRef.current = true
      setStarting(true)
      try {
        if (!contentRef.current) {
          const recorded = await startOnlineOrOffline(panel, offlineAffirmations)
          contentRef.current = recorded
          setContent(recorded)
        }
        await soundReady
        runTimer()
      } finally {
        startingRef.current = false
        setStarting(false)
      }
    },
    [panel, offlineAffirmations, running, complete, runTimer],
  )

  const again = useCallback(() => {
    resetTimer()
    contentRef.current = null
    setContent(null)
    setComplete(false)
  }, [resetTimer])

  // The lock screen's play and pause drive the sound directly; the timer follows it.
  useEffect(() => {
    if (soundStatus === undefined || complete || starting || !content) return
    if (soundStatus === 'playing' && !running) runTimer()
    else if (soundStatus === 'idle' && running) pauseTimer()
  }, [soundStatus, complete, starting, content, running, runTimer, pauseTimer])

  const phase: SessionPhase = complete
    ? 'complete'
    : starting
      ? 'starting'
      : running
        ? 'playing'
        : content
          ? 'paused'
          : 'idle'
  const shown = running || countdown.elapsed > 0
  const ingredients = content?.panel.ingredients ?? panel?.ingredients ?? []
  return {
    phase,
    remaining: countdown.remaining,
    elapsed: countdown.elapsed,
    content,
    affirmation: shown
      ? (pick(content?.affirmations ?? [], countdown.elapsed, AFFIRMATION_ROTATION_MS) ?? '')
      : '',
    ingredient: shown ? (pick(ingredients, countdown.elapsed, INGREDIENT_ROTATION_MS) ?? '') : '',
    start,
    pause: pauseTimer,
    again,
  }
}
