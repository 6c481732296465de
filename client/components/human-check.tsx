import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useFirstPageShown } from '../lib/after-first-page'

const CHALLENGE_URL = '/api/captcha/challenge'

/** At most this many workers search at once; more only heat a phone. */
const MAX_WORKERS = 4

type State = 'unverified' | 'verifying' | 'verified' | 'expired' | 'error'

/** The box's name in each state: screen readers read it as the checkbox's label. */
const LABEL: Record<State, string> = {
  unverified: 'humanCheck.label',
  verifying: 'humanCheck.verifying',
  verified: 'humanCheck.verified',
  expired: 'humanCheck.expired',
  error: 'humanCheck.error',
}

interface Challenge {
  parameters: { expiresAt: number }
}

interface Solution {
  counter: number
  derivedKey: string
  time?: number
}

/**
 * Finds the counter the server hid in the challenge (ALTCHA's proof of work), split over a few
 * of ALTCHA's own PBKDF2 workers: worker i tries i, i + n, i + 2n… The first answer wins.
 */
function solve(challenge: Challenge, signal: AbortSignal): Promise<Solution> {
  const count = Math.max(1, Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 1))
  const workers = Array.from(
    { length: count },
    () => new Worker(new URL('./human-check-worker.ts', import.meta.url), { type: 'module' }),
  )
  const stop = () => {
    for (const worker of workers) worker.terminate()
  }
  signal.addEventListener('abort', stop)
  return new Promise<Solution>((resolve, reject) => {
    let finished = 0
    workers.forEach((worker, index) => {
      worker.onmessage = (message: MessageEvent<Solution | { error: unknown } | null>) => {
        const answer = message.data
        if (answer && 'counter' in answer) {
          resolve(answer)
          return
        }
        finished += 1
        if (finished === count) reject(new Error('no solution'))
      }
      worker.onerror = () => reject(new Error('worker failed'))
      worker.postMessage({ type: 'work', challenge, counterStart: index, counterStep: count })
    })
  }).finally(() => {
    signal.removeEventListener('abort', stop)
    stop()
  })
}

/**
 * The human check: a box to tick, then a self-hosted ALTCHA proof of work in the background.
 * Our own box rather than ALTCHA's widget, which weighed 30 KB gzipped on /login; the search
 * itself runs in ALTCHA's worker (docs/decisions/0012 and 0024). Reports the payload
 * to send with the form once the check passes, and null whenever it stops being valid (expired,
 * unticked, failed), so a form keeps its submit button disabled until `onChange` last gave one.
 */
export function HumanCheck({ onChange }: { onChange: (payload: string | null) => void }) {
  const ready = useFirstPageShown()
  const { t, i18n } = useTranslation()
  const [state, setState] = useState<State>('unverified')
  // The server's words when it refused a challenge for a while: they say how long to wait.
  const [refusal, setRefusal] = useState('')
  const onChangeRef = useRef(onChange)
  const run = useRef<{ abort?: AbortController; expiry?: ReturnType<typeof setTimeout> }>({})

  // The work below reads the latest callback without starting again when a parent re-renders.
  useEffect(() => {
    onChangeRef.current = onChange
  })

  const stop = useCallback(() => {
    run.current.abort?.abort()
    clearTimeout(run.current.expiry)
    run.current = {}
  }, [])
  // Leaving the page stops the search and the expiry timer.
  useEffect(() => stop, [stop])

  const report = (next: State, payload: string | null = null) => {
    setState(next)
    onChangeRef.current(payload)
  }

  const verify = async () => {
    stop()
    const abort = new AbortController()
    run.current.abort = abort
    report('verifying')
    setRefusal('')
    try {
      const response = await fetch(CHALLENGE_URL, {
        signal: abort.signal,
        // A refusal (a limit) is worded by the server, in the page's language.
        headers: { accept: 'application/json', 'accept-language': i18n.language },
      })
      if (!response.ok) {
        if (response.status === 429) setRefusal((await response.json()).message ?? '')
        throw new Error(`challenge: ${response.status}`)
      }
      const challenge = (await response.json()) as Challenge
      const solution = await solve(challenge, abort.signal)
      if (abort.signal.aborted) return
      report('verified', btoa(JSON.stringify({ challenge, solution })))
      // A solution is only good until the challenge expires; then the box asks again.
      run.current.expiry = setTimeout(
        () => report('expired'),
        Math.max(0, challenge.parameters.expiresAt * 1000 - Date.now()),
      )
    } catch {
      if (!abort.signal.aborted) report('error')
    }
  }

  const handleChange = () => {
    if (state === 'verifying') return
    if (state === 'verified') {
      stop()
      report('unverified')
      return
    }
    void verify()
  }

  // The box's name changes as it goes; this line says so to screen readers.
  const failed = state === 'error' || state === 'expired'
  const label = (state === 'error' && refusal) || t(LABEL[state])
  const announcement = state === 'unverified' ? '' : label

  return (
    <div data-testid="human-check" className="min-h-12 text-base">
      <label
        className={`flex min-h-12 cursor-pointer items-center gap-3 rounded-lg border bg-white px-3 py-2 ${
          failed ? 'border-red-600 text-red-700' : 'border-slate-300 text-slate-900'
        }`}
      >
        <span className="relative flex size-[22px] shrink-0 items-center justify-center">
          <input
            type="checkbox"
            // Ticked before the page's code has run, the box would look checked with no check run.
            disabled={!ready}
            checked={state === 'verified'}
            aria-busy={state === 'verifying'}
            onChange={handleChange}
            className={`size-[22px] accent-brand-600 ${state === 'verifying' ? 'opacity-0' : ''}`}
          />
          {state === 'verifying' && (
            <span
              aria-hidden="true"
              className="pointer-events-none absolute inset-0 animate-spin rounded-full border-2 border-slate-200 border-t-brand-600 motion-reduce:animate-none"
            />
          )}
        </span>
        <span>{label}</span>
      </label>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
    </div>
  )
}
