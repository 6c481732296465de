import WifiOff from 'lucide-react/icons/wifi-off'
import type { ReactNode } from 'react'
import { Link } from 'react-router'

// What a member's page says and does offline: the notice with why, and what needs the network
// left in place but disabled, described by the notice (billing's screens, My Account's e-mail,
// password, access code and data). Pages decide when they are offline (lib/network-status.ts).

/** What is shown offline and what cannot be done without a network; `id` describes the controls it disables. */
export function OfflineNotice({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p
      id={id}
      role="status"
      data-testid="offline-notice"
      className="flex items-start gap-2 rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-800 ring-1 ring-slate-300"
    >
      <WifiOff aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-600" />
      <span>{children}</span>
    </p>
  )
}

/**
 * A link to a page that needs the network (buying, adding a card, changing the billing info). Offline (`offlineReason`, the
 * id of the notice saying why) it stays in place, greyed and disabled, rather than open a page
 * that could only fail.
 */
export function NetworkLink({
  to,
  className,
  offlineReason,
  children,
}: {
  to: string
  className: string
  offlineReason: string | undefined
  children: ReactNode
}) {
  if (offlineReason === undefined) {
    return (
      <Link to={to} className={className}>
        {children}
      </Link>
    )
  }
  // A link cannot be disabled; a disabled button says to assistive technology what the grey says.
  return (
    <button
      type="button"
      disabled
      aria-describedby={offlineReason}
      className={`${className} cursor-not-allowed opacity-60`}
    >
      {children}
    </button>
  )
}
