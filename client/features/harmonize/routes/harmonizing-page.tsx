import { useQueryClient } from '@tanstack/react-query'
import { Expand, Headphones, Loader2, Play, Square, Volume2, Waves } from 'lucide-react'
import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useParams } from 'react-router'
import {
  AFFIRMATION_ROTATION_MS,
  formatCountdown,
  HARMONIZE_DURATION_MS,
  INGREDIENT_ROTATION_MS,
} from '../../../../domain/constants'
import type { PanelDetail, SessionContent } from '../../../../domain/panels'
import { Button } from '../../../components/ui/button'
import { FullScreenSpinner } from '../../../components/ui/full-screen-spinner'
import { ApiError } from '../../../lib/api-client'
import { useHeaderSlot } from '../../../lib/header-slot'
import { useMessageText } from '../../../lib/messages'
import { useNotifications } from '../../../lib/notifications'
import { isNetworkFailure } from '../../../lib/offline-cache'
import { usePrefersReducedMotion } from '../../../lib/reduced-motion'
import { useAccess } from '../../access/api'
import { useAffirmations, usePanel } from '../../panels/api'
import { completeSession, startSession } from '../api'
import { createHarmonizePlayer, type HarmonizePlayer } from '../audio/player'
import { useCountdown } from '../use-countdown'
import { type MediaSources, useMediaSources } from '../use-media-sources'
import { createFractalRenderer, type FractalRenderer } from '../visuals/renderer'

const IDLE_PLAYER = { ready: false, status: 'idle' as const, error: null }

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
 * The session: full-screen fractal visuals, the sound, a 3:00 countdown, and the panel's words.
 * Play needs both the picture and the sound ready; stopping one stops the other.
 */
export function HarmonizingPage() {
  const { t } = useTranslation()
  const text = useMessageText()
  const { notify } = useNotifications()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { id = '' } = useParams()
  const panel = usePanel(id)
  const access = useAccess()
  // Loaded now, so a session started later without network still has its words.
  const affirmations = useAffirmations()
  // Uploaded media, when there are any (saved copies first); null while that is being worked out.
  const sources: MediaSources | null = useMediaSources(id, access.data?.hasAccess)
  const [video, setVideo] = useState<HTMLVideoElement | null>(null)
  const [videoReady, setVideoReady] = useState(false)
  const [videoFailed, setVideoFailed] = useState(false)
  const stage = useRef<HTMLDivElement>(null)
  // A state, not a ref: the canvas appears only once the panel and access have loaded.
  const [canvas, setCanvas] = useState<HTMLCanvasElement | null>(null)
  const [renderer, setRenderer] = useState<FractalRenderer | null>(null)
  const [content, setContent] = useState<SessionContent | null>(null)
  const [complete, setComplete] = useState(false)
  const [starting, setStarting] = useState(false)
  const [binaural, setBinaural] = useState(false)
  const [reducedMotion, setReducedMotion] = useState<boolean | null>(null)
  const [showSound, setShowSound] = useState(false)
  const soundPanelId = useId()
  const soundButton = useRef<HTMLButtonElement>(null)
  const soundPanel = useRef<HTMLDivElement>(null)
  // Escape closes the sound settings, as with any popover, and gives focus back to their button
  // when it was inside them.
  useEffect(() => {
    if (!showSound) return
    const close = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      const focusInside = soundPanel.current?.contains(document.activeElement)
      setShowSound(false)
      if (focusInside) soundButton.current?.focus()
    }
    document.addEventListener('keydown', close)
    return () => document.removeEventListener('keydown', close)
  }, [showSound])

  const player = useMemo<HarmonizePlayer | null>(
    () =>
      panel.data && sources
        ? createHarmonizePlayer({
            title: panel.data.name,
            solfeggioHz: panel.data.solfeggioHz,
            backingUrl: sources.backing ?? undefined,
          })
        : null,
    [panel.data, sources],
  )
  useEffect(() => () => void player?.dispose(), [player])
  const playerState = useSyncExternalStore(
    useCallback((listener: () => void) => player?.subscribe(listener) ?? (() => {}), [player]),
    () => player?.getState() ?? IDLE_PLAYER,
  )

  // The picture is an uploaded video when there is one that loads, else the fractal renderer.
  // Calm motion (the system setting or the toggle) always uses the renderer's calm mode: we
  // cannot vouch that an uploaded video never flashes.
  const prefersReducedMotion = usePrefersReducedMotion()
  const calm = reducedMotion ?? prefersReducedMotion
  const showVideo = Boolean(sources?.video) && !videoFailed && !calm
  const startVisual = useCallback(() => {
    if (showVideo) void video?.play().catch(() => {})
    else renderer?.start()
  }, [showVideo, video, renderer])
  const stopVisual = useCallback(() => {
    if (showVideo) video?.pause()
    else renderer?.stop()
  }, [showVideo, video, renderer])

  const handleDone = useCallback(() => {
    void player?.stop()
    stopVisual()
    setComplete(true)
    // An offline session (id 0) was never recorded, so there is nothing to complete.
    if (content?.sessionId) {
      void completeSession(content.sessionId)
        .then(() => queryClient.invalidateQueries({ queryKey: ['harmonize', 'sessions'] }))
        .catch(() => {})
    }
  }, [player, stopVisual, content, queryClient])
  const countdown = useCountdown(HARMONIZE_DURATION_MS, handleDone)

  useEffect(() => {
    if (!panel.data || !canvas) return
    const created = createFractalRenderer(canvas, {
      palette: panel.data.palette,
      style: 'random',
    })
    created.renderAt(0)
    setRenderer(created)
    return () => {
      created.destroy()
      setRenderer(null)
    }
  }, [panel.data, canvas])

  useEffect(() => {
    if (renderer && reducedMotion !== null) renderer.setReducedMotion(reducedMotion)
  }, [renderer, reducedMotion])

  // Turning calm motion on or off mid-session swaps video and renderer; the newcomer picks up
  // where the session is (playing or not) once it exists.
  const playingRef = useRef(false)
  useEffect(() => {
    if (playingRef.current) startVisual()
  }, [startVisual])

  const timer = formatCountdown(countdown.remaining)
  useHeaderSlot({
    title: t('titles.harmonizing'),
    subtitle: panel.data?.name,
    actions: useMemo(
      () => (
        <span
          role="timer"
          className="rounded-full bg-white/15 px-3 py-1 font-mono text-lg tabular-nums"
          data-testid="countdown"
          aria-label={t('harmonize.remaining', { time: timer })}
        >
          {timer}
        </span>
      ),
      [timer, t],
    ),
  })

  // The lock screen's play and pause drive the sound directly; the picture and timer follow it
  // (spec: stopping one stops the other).
  const { running: timerRunning, start: startTimer, pause: pauseTimer } = countdown
  useEffect(() => {
    if (complete || !content) return
    if (playerState.status === 'playing' && !timerRunning) {
      startVisual()
      startTimer()
    } else if (playerState.status === 'idle' && timerRunning) {
      stopVisual()
      pauseTimer()
    }
  }, [
    playerState.status,
    timerRunning,
    complete,
    content,
    startVisual,
    stopVisual,
    startTimer,
    pauseTimer,
  ])

  const visualReady = showVideo ? videoReady : Boolean(renderer)
  const ready = sources !== null && visualReady && playerState.ready
  const playing = countdown.running
  playingRef.current = playing

  const handlePlay = async () => {
    if (!player || !visualReady || !panel.data) return
    setStarting(true)
    // Sound first, inside the click: Safari only allows audio started in the gesture itself.
    const sound = player.play()
    try {
      // The first Play of a session records it and brings its words; later ones resume.
      const session = content ?? (await startOnlineOrOffline(panel.data, affirmations.data))
      setContent(session)
      await sound
      startVisual()
      countdown.start()
    } catch (error) {
      void player.stop()
      notify('error', error instanceof ApiError ? error.message : t('harmonize.playError'))
    } finally {
      setStarting(false)
    }
  }

  const handleStop = () => {
    countdown.pause()
    stopVisual()
    void player?.stop()
  }

  const handleAgain = () => {
    countdown.reset()
    setContent(null)
    setComplete(false)
    renderer?.renderAt(0)
    if (video) video.currentTime = 0
    navigate(`/harmonizing-screen/${id}#harmonizing`, { replace: true })
  }

  if (panel.isPending || access.isPending) return <FullScreenSpinner />
  if (panel.isError) {
    return (
      <section className="mx-auto max-w-md px-6 py-16 text-center">
        <p>{panel.error.message}</p>
      </section>
    )
  }
  if (!access.data?.hasAccess) {
    return (
      <section className="mx-auto flex max-w-md flex-col items-center gap-4 px-6 py-16 text-center">
        <p className="text-lg font-medium text-slate-800" data-testid="no-payment">
          {text('access.noPayment')}
        </p>
        <Link to="/my-account" className="font-medium text-brand-700 hover:underline">
          {t('panels.goToAccount')}
        </Link>
      </section>
    )
  }

  const words = content?.affirmations ?? []
  const ingredients = content?.panel.ingredients ?? panel.data.ingredients
  const affirmation = words.length
    ? words[Math.floor(countdown.elapsed / AFFIRMATION_ROTATION_MS) % words.length]
    : ''
  const ingredient =
    ingredients[Math.floor(countdown.elapsed / INGREDIENT_ROTATION_MS) % ingredients.length]

  if (complete) {
    return (
      <section
        className="mx-auto flex max-w-md flex-col items-center gap-5 px-6 py-16 text-center"
        data-testid="harmonize-complete"
      >
        <Waves aria-hidden className="size-14 text-brand-600" />
        <h2 className="text-3xl font-semibold text-brand-900">{t('harmonize.complete')}</h2>
        <p className="text-lg text-slate-700">{t('harmonize.ready')}</p>
        <Button className="w-full" onClick={handleAgain}>
          {t('harmonize.again')}
        </Button>
        <Button variant="secondary" className="w-full" onClick={() => navigate('/home')}>
          {t('harmonize.backToMain')}
        </Button>
      </section>
    )
  }

  return (
    <section id="harmonizing" className="flex flex-col">
      <div
        ref={stage}
        className="relative h-[calc(100dvh-3.5rem)] w-full overflow-hidden bg-slate-950"
        data-testid="harmonize-stage"
      >
        {showVideo ? (
          <video
            ref={(element) => {
              setVideo(element)
              // A saved copy can be ready before React listens for canplay.
              if (element && element.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA) {
                setVideoReady(true)
              }
            }}
            src={sources?.video ?? undefined}
            muted
            loop
            playsInline
            preload="auto"
            aria-label={t('media.videoLabel')}
            onCanPlay={() => setVideoReady(true)}
            onError={() => setVideoFailed(true)}
            className="absolute inset-0 size-full object-cover"
            data-testid="media-video"
          />
        ) : (
          <canvas
            ref={setCanvas}
            className="absolute inset-0 size-full"
            data-testid="fractal-canvas"
          />
        )}
        <div className="pointer-events-none absolute inset-x-0 top-6 flex flex-col items-center gap-3 px-6 text-center text-white drop-shadow-[0_2px_6px_rgba(0,0,0,0.7)]">
          <p
            className="text-xl font-medium sm:text-2xl"
            data-testid="affirmation"
            aria-live="polite"
          >
            {playing || countdown.elapsed > 0 ? affirmation : ''}
          </p>
          <p className="text-base text-white/90 sm:text-lg" data-testid="ingredient">
            {playing || countdown.elapsed > 0 ? ingredient : ''}
          </p>
        </div>
        {/* The sound panel sits in the flow above the buttons, so it never covers Stop on a
            phone, where the buttons wrap onto two rows; it follows them in the DOM (and in
            the Tab order) right after the Sound button that opens it. */}
        <div className="absolute inset-x-0 bottom-0 flex flex-col-reverse">
          <div className="flex flex-wrap items-center justify-center gap-2 bg-gradient-to-t from-black/60 to-transparent px-4 pt-10 pb-5">
            {playing ? (
              <Button onClick={handleStop} variant="secondary" className="min-w-32">
                <Square aria-hidden className="size-4" />
                {t('harmonize.stop')}
              </Button>
            ) : (
              <Button
                onClick={() => void handlePlay()}
                disabled={!ready || starting}
                className="min-w-32"
                data-testid="play"
              >
                {!ready || starting ? (
                  <Loader2 aria-hidden className="size-4 animate-spin" />
                ) : (
                  <Play aria-hidden className="size-4" />
                )}
                {!ready || starting ? t('harmonize.loading') : t('harmonize.play')}
              </Button>
            )}
            <Button
              variant="ghost"
              className="text-white hover:bg-white/15"
              onClick={() => void stage.current?.requestFullscreen?.().catch(() => {})}
            >
              <Expand aria-hidden className="size-4" />
              {t('harmonize.fullScreen')}
            </Button>
            <Button
              variant="ghost"
              className="text-white hover:bg-white/15"
              ref={soundButton}
              aria-expanded={showSound}
              aria-controls={showSound ? soundPanelId : undefined}
              onClick={() => setShowSound((shown) => !shown)}
            >
              <Volume2 aria-hidden className="size-4" />
              {t('harmonize.sound')}
            </Button>
          </div>
          {showSound && (
            <div
              id={soundPanelId}
              ref={soundPanel}
              className="mx-3 w-72 max-w-[calc(100%-1.5rem)] self-end rounded-xl bg-white/95 p-4 text-sm text-slate-800 shadow-xl"
            >
              {(['master', 'backing', 'solfeggio', 'schumann'] as const).map((layer) => (
                <label key={layer} className="mb-2 flex items-center gap-2">
                  <span className="w-24">{t(`harmonize.layers.${layer}`)}</span>
                  <input
                    type="range"
                    min={0}
                    max={1}
                    step={0.05}
                    defaultValue={layer === 'master' ? 1 : 0.8}
                    onChange={(event) => player?.setVolume(layer, Number(event.target.value))}
                    className="flex-1 accent-brand-600"
                  />
                </label>
              ))}
              <label className="mt-3 flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={binaural}
                  onChange={(event) => {
                    setBinaural(event.target.checked)
                    player?.setBinaural(event.target.checked)
                  }}
                  className="size-4 accent-brand-600"
                />
                <Headphones aria-hidden className="size-4" />
                {t('harmonize.binaural')}
              </label>
              {binaural && (
                <p className="mt-1 text-xs text-slate-600">{t('harmonize.headphonesHint')}</p>
              )}
              <label className="mt-3 flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={calm}
                  onChange={(event) => setReducedMotion(event.target.checked)}
                  className="size-4 accent-brand-600"
                />
                {t('harmonize.reducedMotion')}
              </label>
            </div>
          )}
        </div>
      </div>
    </section>
  )
}
