import CheckCircle2 from 'lucide-react/icons/circle-check'
import XCircle from 'lucide-react/icons/circle-x'
import Info from 'lucide-react/icons/info'
import AlertTriangle from 'lucide-react/icons/triangle-exclamation-point'
import X from 'lucide-react/icons/x'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { SNACKBAR_AUTO_HIDE_MS } from '../../../domain/constants'
import { type Severity, useNotifications } from '../../lib/notifications'

// Information is white with dark text: on the page's pale blue the header's own dark blue would
// read as part of the header (the offline notice).
const STYLES: Record<Severity, { box: string; Icon: typeof Info }> = {
  success: { box: 'bg-emerald-700 text-white', Icon: CheckCircle2 },
  info: { box: 'bg-white text-brand-900 ring-1 ring-brand-200', Icon: Info },
  warning: { box: 'bg-amber-300 text-amber-950', Icon: AlertTriangle },
  error: { box: 'bg-red-700 text-white', Icon: XCircle },
}

/**
 * The shared snackbar: top centre, just under the header (the app layout puts it in the header's
 * sticky block), hides itself after 6 s, one message at a time.
 */
export function Snackbar() {
  const { t } = useTranslation()
  const { current, dismiss } = useNotifications()

  useEffect(() => {
    if (!current) return
    const timer = setTimeout(() => dismiss(current.id), SNACKBAR_AUTO_HIDE_MS)
    return () => clearTimeout(timer)
  }, [current, dismiss])

  if (!current) return null
  const { box, Icon } = STYLES[current.severity]
  const urgent = current.severity === 'error' || current.severity === 'warning'
  return (
    // A strip of the page's colour: the page scrolls under it as under the header, never into
    // sight between the two.
    <div className="flex justify-center bg-brand-50 px-3 py-2">
      <div
        role={urgent ? 'alert' : 'status'}
        data-testid="snackbar"
        data-severity={current.severity}
        className={`flex max-w-xl items-center gap-3 rounded-lg px-4 py-3 shadow-lg ${box}`}
      >
        <Icon aria-hidden className="size-5 shrink-0" />
        <p className="text-sm font-medium">{current.message}</p>
        <button
          type="button"
          onClick={() => dismiss(current.id)}
          aria-label={t('snackbar.close')}
          className="ml-2 rounded p-1 hover:bg-black/10"
        >
          <X aria-hidden className="size-4" />
        </button>
      </div>
    </div>
  )
}
