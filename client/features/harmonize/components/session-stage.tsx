import Expand from 'lucide-react/icons/expand'
import Loader2 from 'lucide-react/icons/loader-circle'
import Play from 'lucide-react/icons/play'
import Shrink from 'lucide-react/icons/shrink'
import Square from 'lucide-react/icons/square'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { PanelDetail } from '../../../../domain/panels'
import { Button } from '../../../components/ui/button'
import { ApiError } from '../../../lib/api-client'
import { useNotifications } from '../../../lib/notifications'
import { usePrefersReducedMotion } from '../../../lib/reduced-motion'
import type { HarmonizePlayer } from '../audio/player'
import { useFullScreen } from '../use-full-screen'
import type { HarmonizeSession } from '../use-harmonize-session'
import type { MediaSources } from '../use-media-sources'
import { useSessionVisual } from '../use-session-visual'
import { Countdown } from './countdown'
import { SoundSettings } from './sound-settings'

interface SessionStageProps {
  panel: PanelDetail
  session: HarmonizeSession
  sources: MediaSources | null
  player: HarmonizePlayer | null
  /** The player can play (Web Audio there, an uploaded track loaded or given up on). */
  soundReady: boolean
  /** Play takes the focus once it can be pressed (the stage shown again after Harmonize Again). */
  focusPlay?: boolean
}

/**
 * The running screen: the picture filling the stage, the words over it, and the buttons (Play
 * or Stop, full screen, sound). Play needs both the picture and the sound ready; Stop stops
 * both. Full screen takes the whole stage, the countdown included.
 */
export function SessionStage({
  panel,
  session,
  sources,
  player,
  soundReady,
  focusPlay = false,
}: SessionStageProps) {
  const { t } = useTranslation()
  const { notify } = useNotifications()
  const stage = useRef<HTMLDivElement>(null)
  const controls = useRef<HTMLDivElement>(null)
  const fullScreen = useFullScreen(stage)
  const [calmChoice, setCalmChoice] = useState<boolean | null>(null)
  const prefersReducedMotion = usePrefersReducedMotion()
  const calm = calmChoice ?? prefersReducedMotion
  const playing = session.phase === 'playing'
  const visual = useSessionVisual({ panel, sources, calm, calmChoice, playing })
  const starting = session.phase === 'starting'
  const ready = sources !== null && visual.ready && soundReady
  const playButton = useRef<HTMLButtonElement>(null)
  const stopButton = useRef<HTMLButtonElement>(null)
  // Play and Stop take turns in one place, so the button pressed leaves the page and the focus
  // falls to the body (Play is also disabled while the session starts): the keyboard would
  // start again from the top. The focus goes to the button that took its place, once that one
  // can take it.
  const focusWanted = useRef<'play' | 'stop' | null>(focusPlay ? 'play' : null)
  const wasPlaying = useRef(playing)
  // After every render: Play can take the focus only once it is enabled again.
  useEffect(() => {
    if (wasPlaying.current !== playing) {
      wasPlaying.current = playing
      focusWanted.current = playing ? 'stop' : 'play'
    }
    const target = (focusWanted.current === 'stop' ? stopButton : playButton).current
    if (!focusWanted.current || !target || target.disabled) return
    focusWanted.current = null
    // Only the focus the controls lost: a member reading the sound settings or the header is
    // left there (the lock screen's controls also start and stop the session).
    const active = document.activeElement
    if (active && active !== document.body && !controls.current?.contains(active)) return
    target.focus()
  })

  const handlePlay = async () => {
    if (!player || !ready) return
    // Sound first, inside the click: Safari only allows audio started in the gesture itself.
    const sound = player.play()
    try {
      await session.start(sound)
    } catch (error) {
      void player.stop()
      notify('error', error instanceof ApiError ? error.message : t('harmonize.playError'))
    }
  }

  const handleStop = () => {
    session.pause()
    void player?.stop()
  }

  return (
    <section id="harmonizing" className="flex flex-col">
      <div
        ref={stage}
        className="relative h-[calc(100dvh-3.5rem)] w-full overflow-hidden bg-slate-950"
        data-testid="harmonize-stage"
      >
        {visual.showVideo ? (
          <video
            {...visual.videoProps}
            muted
            loop
            playsInline
            preload="auto"
            aria-label={t('media.videoLabel')}
            className="absolute inset-0 size-full object-cover"
            data-testid="media-video"
          />
        ) : (
          <canvas
            ref={visual.canvasRef}
            className="absolute inset-0 size-full"
            data-testid="fractal-canvas"
          />
        )}
        <div className="pointer-events-none absolute inset-x-0 top-6 flex flex-col items-center gap-3 px-6 text-center text-white drop-shadow-[0_2px_6px_rgba(0,0,0,0.7)]">
          {/* The header, with its countdown, is outside the full-screen stage. */}
          {fullScreen.active && (
            <Countdown remaining={session.remaining} className="bg-black/40 text-white" />
          )}
          <p
            className="text-xl font-medium sm:text-2xl"
            data-testid="affirmation"
            aria-live="polite"
          >
            {session.affirmation}
          </p>
          <p className="text-base text-white/90 sm:text-lg" data-testid="ingredient">
            {session.ingredient}
          </p>
        </div>
        <div
          ref={controls}
          className="absolute inset-x-0 bottom-0 flex flex-wrap items-center justify-center gap-2 bg-gradient-to-t from-black/60 to-transparent px-4 pt-10 pb-5"
        >
          {playing ? (
            <Button ref={stopButton} onClick={handleStop} variant="secondary" className="min-w-32">
              <Square aria-hidden className="size-4" />
              {t('harmonize.stop')}
            </Button>
          ) : (
            <Button
              ref={playButton}
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
            onClick={fullScreen.toggle}
            data-testid="full-screen"
          >
            {fullScreen.active ? (
              <Shrink aria-hidden className="size-4" />
            ) : (
              <Expand aria-hidden className="size-4" />
            )}
            {fullScreen.active ? t('harmonize.exitFullScreen') : t('harmonize.fullScreen')}
          </Button>
          <SoundSettings
            anchor={controls}
            player={player}
            calm={calm}
            onCalmChange={setCalmChoice}
          />
        </div>
      </div>
    </section>
  )
}
