import Download from 'lucide-react/icons/download'
import RefreshCw from 'lucide-react/icons/refresh-cw'
import X from 'lucide-react/icons/x'
import { type ReactNode, useState, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { getPwaState, setPwaState, subscribePwaState } from '../../lib/pwa-state'

type Kind = 'install' | 'update'

const CLOSED_KEYS: Record<Kind, string> = {
  install: 'harmonize.install-banner.closed',
  update: 'harmonize.update-banner.closed',
}

function closedVersion(kind: Kind): string | null {
  try {
    return localStorage.getItem(CLOSED_KEYS[kind])
  } catch {
    // Storage blocked (private mode): a closed banner stays closed for this page only.
    return null
  }
}

function rememberClosed(kind: Kind, version: string) {
  try {
    localStorage.setItem(CLOSED_KEYS[kind], version)
  } catch {
    // As above.
  }
}

/**
 * The running build: its entry script's name carries the hash of everything it loads. The
 * install banner, once closed, stays closed until a new build is running.
 */
function runningBuild(): string {
  return document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src ?? 'current'
}

/** The install and update banners (spec: public flows §2 Banners); each can be closed. */
export function Banners() {
  const { t } = useTranslation()
  const { installPrompt, installFromSafari, update } = useSyncExternalStore(
    subscribePwaState,
    getPwaState,
  )
  const [build] = useState(runningBuild)
  const [closed, setClosed] = useState(() => ({
    install: closedVersion('install'),
    update: closedVersion('update'),
  }))
  const handleClose = (kind: Kind, version: string) => {
    rememberClosed(kind, version)
    setClosed((previous) => ({ ...previous, [kind]: version }))
  }
  const handleInstall = () => {
    if (!installPrompt) return
    // A prompt works once, whatever the person answers in it.
    setPwaState({ installPrompt: null })
    installPrompt.prompt().catch(() => {})
  }

  const showUpdate = update !== null && closed.update !== update.version
  const showInstall = (installPrompt !== null || installFromSafari) && closed.install !== build
  const count = Number(showUpdate) + Number(showInstall)
  return (
    <>
      {/* Room below the page, as tall as the banners over it, so its last buttons can still be
          scrolled clear of them. */}
      {count > 0 && <div aria-hidden className={count > 1 ? 'h-44 sm:h-32' : 'h-24 sm:h-20'} />}
      {/* Always there once loaded, empty when both are closed: it lies over the page's bottom
          edge and lets clicks through to it. */}
      <div
        data-testid="banners"
        className="pointer-events-none fixed inset-x-0 bottom-0 z-30 flex flex-col items-center gap-2 p-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]"
      >
        {showUpdate && (
          <Banner
            testId="update-banner"
            icon={<RefreshCw aria-hidden className="size-5" />}
            text={t('banners.update')}
            action={{ label: t('banners.updateAction'), onClick: update.apply }}
            closeLabel={t('banners.closeUpdate')}
            onClose={() => handleClose('update', update.version)}
          />
        )}
        {showInstall && (
          <Banner
            testId="install-banner"
            icon={<Download aria-hidden className="size-5" />}
            // Chromium's prompt first: an iPad can offer one too, in a browser that has it.
            text={installPrompt ? t('banners.install') : t('banners.installFromSafari')}
            action={
              installPrompt ? { label: t('banners.installAction'), onClick: handleInstall } : null
            }
            closeLabel={t('banners.closeInstall')}
            onClose={() => handleClose('install', build)}
          />
        )}
      </div>
    </>
  )
}

function Banner({
  testId,
  icon,
  text,
  action,
  closeLabel,
  onClose,
}: {
  testId: string
  icon: ReactNode
  text: string
  action: { label: string; onClick: () => void } | null
  closeLabel: string
  onClose: () => void
}) {
  return (
    <div
      role="status"
      data-testid={testId}
      // A phone's width leaves the text too little room beside the button: the button goes
      // under the text there, and beside it from the `sm` width up.
      className="pointer-events-auto grid w-full max-w-xl grid-cols-[auto_1fr_auto] items-center gap-x-3 gap-y-1 rounded-xl bg-brand-800 py-2.5 pr-2 pl-4 text-white shadow-lg sm:flex"
    >
      <span className="col-start-1 row-start-1">{icon}</span>
      <p className="col-start-2 row-start-1 text-sm font-medium sm:flex-1">{text}</p>
      {action && (
        <button
          type="button"
          onClick={action.onClick}
          className="col-start-2 row-start-2 justify-self-start rounded-lg bg-white px-3 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-100 sm:shrink-0"
        >
          {action.label}
        </button>
      )}
      <button
        type="button"
        onClick={onClose}
        aria-label={closeLabel}
        className="col-start-3 row-start-1 shrink-0 rounded-full p-2 hover:bg-white/15"
      >
        <X aria-hidden className="size-4" />
      </button>
    </div>
  )
}
