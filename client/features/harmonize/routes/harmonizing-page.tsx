import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams } from 'react-router'
import { FullScreenSpinner } from '../../../components/ui/full-screen-spinner'
import { useHeaderSlot } from '../../../lib/header-slot'
import { useKeepForOffline } from '../../../lib/keep-for-offline'
import { useAffirmations, usePanel } from '../../../lib/panel-queries'
import { NoAccessNotice, useAccess } from '../../access/public'
import { Countdown } from '../components/countdown'
import { SessionComplete } from '../components/session-complete'
import { SessionStage } from '../components/session-stage'
import { rememberLastSession } from '../last-session'
import { useFullScreenElement } from '../use-full-screen'
import { useHarmonizeSession } from '../use-harmonize-session'
import { useMediaSources } from '../use-media-sources'
import { useRx } from '../use-rx'
import { useSessionPlayer } from '../use-session-player'

/**
 * /harmonizing-screen/{id}: the session (fractal visuals, the sound, a 3:00 countdown — or a
 * tray's time and layered panels — and the panels' words), or why it cannot run (no access,
 * panel not available).
 */
export function HarmonizingPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { id = '' } = useParams()
  const panel = usePanel(id)
  const rx = useRx(id)
  const access = useAccess()
  useKeepForOffline(access.data?.hasAccess)
  // Loaded now, so a session started later without network still has its words.
  const affirmations = useAffirmations()
  // Uploaded media, when there are any (saved copies first); null while that is being worked out.
  const sources = useMediaSources(id, access.data?.hasAccess)
  const { player, state: sound } = useSessionPlayer(panel.data, sources, rx.layered)
  const session = useHarmonizeSession({
    panel: panel.data,
    layered: rx.layered,
    durationMs: rx.durationMs,
    offlineAffirmations: affirmations.data,
    soundStatus: sound.status,
    onComplete: useCallback(() => {
      void player?.stop()
      rememberLastSession(`/harmonizing-screen/${id}${rx.search}`)
    }, [player, id, rx.search]),
  })
  // Set by Harmonize Again: the stage shown again gives Play the focus the complete screen had.
  const [again, setAgain] = useState(false)
  // Full screen shows the stage only; the countdown then moves into it.
  const fullScreen = useFullScreenElement() !== null
  const { remaining } = session
  useHeaderSlot({
    title: t('titles.harmonizing'),
    subtitle: panel.data && [panel.data, ...rx.layered].map(({ name }) => name).join(' + '),
    actions: useMemo(
      () => (fullScreen ? undefined : <Countdown remaining={remaining} className="bg-white/15" />),
      [fullScreen, remaining],
    ),
  })

  if (panel.isPending || access.isPending || rx.pending) return <FullScreenSpinner />
  if (panel.isError) {
    return (
      <section className="mx-auto max-w-md px-6 py-16 text-center">
        <p className="text-slate-700">{panel.error.message}</p>
      </section>
    )
  }
  if (!access.data?.hasAccess) {
    return (
      <section className="mx-auto w-full max-w-2xl px-4 py-10">
        <NoAccessNotice standing={access.data?.standing} />
      </section>
    )
  }
  if (session.phase === 'complete') {
    return (
      <SessionComplete
        takeFocus
        onAgain={() => {
          setAgain(true)
          session.again()
          navigate(`/harmonizing-screen/${id}${rx.search}#harmonizing`, { replace: true })
        }}
      />
    )
  }
  return (
    <SessionStage
      panel={panel.data}
      session={session}
      sources={sources}
      player={player}
      soundReady={sound.ready}
      focusPlay={again}
    />
  )
}
