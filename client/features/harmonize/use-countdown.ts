import { useCallback, useEffect, useRef, useState } from 'react'

/**
 * A pausable backward timer (spec core §4): `elapsed` only grows while running, so pausing and
 * resuming continues where it stopped. Ticks four times a second for a steady m:ss display.
 */
export function useCountdown(durationMs: number, onDone: () => void) {
  const [running, setRunning] = useState(false)
  const [elapsed, setElapsed] = useState(0)
  const base = useRef(0)
  const startedAt = useRef(0)
  const done = useRef(onDone)
  done.current = onDone

  useEffect(() => {
    if (!running) return
    startedAt.current = Date.now()
    const tick = () => {
      const now = base.current + (Date.now() - startedAt.current)
      if (now >= durationMs) {
        // Stopped here, not when React gets round to the cleanup: after a long sleep of the
        // device several overdue ticks can run back to back, and the end must be told once.
        clearInterval(timer)
        setElapsed(durationMs)
        setRunning(false)
        done.current()
        return
      }
      setElapsed(now)
    }
    const timer = setInterval(tick, 250)
    return () => {
      clearInterval(timer)
      base.current = Math.min(durationMs, base.current + (Date.now() - startedAt.current))
    }
  }, [running, durationMs])

  const reset = useCallback(() => {
    setRunning(false)
    base.current = 0
    setElapsed(0)
  }, [])

  return {
    running,
    elapsed,
    remaining: Math.max(0, durationMs - elapsed),
    start: useCallback(() => setRunning(true), []),
    pause: useCallback(() => setRunning(false), []),
    reset,
  }
}
