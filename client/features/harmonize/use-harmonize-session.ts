import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import {
  AFFIRMATION_ROTATION_MS,
  HARMONIZE_DURATION_MS,
  INGREDIENT_ROTATION_MS,
} from '../../../domain/constants'
import type { SessionContent } from '../../../domain/harmonize'
import type { PanelDetail, PanelSummary } from '../../../domain/panels'
import { isNetworkFailure } from '../../lib/offline-cache'
import { recentSessionsQueryKey } from '../../lib/recent-sessions'
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
  /**
   * Panels sounding with it (a 'Multi Layer Rx' from the aura scan): each is recorded as a
   * session of its own, started and completed with the first.
   */
  layered?: readonly PanelSummary[]
  /** How long the session runs; the ritual's 3:00 unless a tray asks for another time. */
  durationMs?: number
  /** Words kept from earlier, for a session started without network. */
  offlineAffirmations?: string[]
  /**
   * What the sound is doing, when something outside the page can start or stop it (the lock
   * screen's controls): the timer follows it, since stopping one stops the other (spec core §4).
   */
  soundStatus?: HarmonizePlayerState['status']
  /** Called once the time is over (the page stops the sound). */
  onComplete?: () => void
}

export interface HarmonizeSession {
  phase: SessionPhase
  /** Milliseconds left of the session, and spent so far. */
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
  /** Back to the full time, so the next start records a new session. */
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

/**
 * Records the layered panels' sessions beside the first one's. Their words join the rotation;
 * one that cannot be recorded (offline, or its panel gone) still sounds, it only misses the
 * history.
 */
async function startLayered(layered: readonly PanelSummary[]): Promise<SessionContent[]> {
  const started = await Promise.all(
    layered.map((panel) => startSession(panel.id).catch(() => null)),
  )
  return started.filter((content): content is SessionContent => content !== null)
}

const pick = <T>(items: readonly T[], elapsed: number, everyMs: number): T | undefined =>
  items.length ? items[Math.floor(elapsed / everyMs) % items.length] : undefined

const NO_LAYERS: readonly PanelSummary[] = []

/**
 * A harmonizing session's life: a pausable countdown (3 minutes, spec core §4, or a tray's time), what it asks the
 * server (start once, complete at the end), and the words rotating meanwhile. The picture and
 * the sound are the page's; they follow `phase`.
 */
export function useHarmonizeSession({
  panel,
  layered = NO_LAYERS,
  durationMs = HARMONIZE_DURATION_MS,
  offlineAffirmations,
  soundStatus,
  onComplete,
}: HarmonizeSessionOptions): HarmonizeSession {
  const queryClient = useQueryClient()
  const [content, setContent] = useState<SessionContent | null>(null)
  const [layeredContent, setLayeredContent] = useState<SessionContent[]>([])
  const [starting, setStarting] = useState(false)
  const [complete, setComplete] = useState(false)
  // Read by callbacks that must not change identity with every answer.
  const contentRef = useRef<SessionContent | null>(null)
  const layeredRef = useRef<SessionContent[]>([])
  const startingRef = useRef(false)
  const onCompleteRef = useRef(onComplete)
  onCompleteRef.current = onComplete

  const handleDone = useCallback(() => {
    setComplete(true)
    onCompleteRef.current?.()
    // An offline session (id 0) was never recorded, so there is nothing to complete.
    const sessionIds = [contentRef.current, ...layeredRef.current]
      .map((recorded) => recorded?.sessionId)
      .filter((id): id is number => Boolean(id))
    if (!sessionIds.length) return
    Promise.all(sessionIds.map((id) => completeSession(id)))
      .then(() => queryClient.invalidateQueries({ queryKey: recentSessionsQueryKey }))
      .catch(() => {
        // The session ran; only its 'Completed' mark in the history is lost.
      })
  }, [queryClient])
  const countdown = useCountdown(durationMs, handleDone)
  const { running, start: runTimer, pause: pauseTimer, reset: resetTimer } = countdown

  const start = useCallback(
    async (soundReady?: Promise<unknown>) => {
      if (!panel || startingRef.current || running || complete) return
      startingRef.current = true
      setStarting(true)
      try {
        if (!contentRef.current) {
          const recorded = await startOnlineOrOffline(panel, offlineAffirmations)
          // Without network the first session was not recorded: the others would fail alike.
          const others = recorded.sessionId && layered.length ? await startLayered(layered) : []
          contentRef.current = recorded
          layeredRef.current = others
          setContent(recorded)
          setLayeredContent(others)
        }
        await soundReady
        runTimer()
      } finally {
        startingRef.current = false
        setStarting(false)
      }
    },
    [panel, layered, offlineAffirmations, running, complete, runTimer],
  )

  const again = useCallback(() => {
    resetTimer()
    contentRef.current = null
    layeredRef.current = []
    setContent(null)
    setLayeredContent([])
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
  const ingredients = useMemo(
    () => [
      ...(content?.panel.ingredients ?? panel?.ingredients ?? []),
      ...layeredContent.flatMap((recorded) => recorded.panel.ingredients),
    ],
    [content, panel, layeredContent],
  )
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
