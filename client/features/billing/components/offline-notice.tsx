import WifiOff from 'lucide-react/icons/wifi-off'
import { type ReactNode, useEffect } from 'react'
import { Link } from 'react-router'
import { useOnline } from '../../../lib/network-status'
import { isNetworkFailure } from '../../../lib/offline-cache'

/**
 * Whether a billing query's data is this device's copy rather than the server's word now: the
 * network is gone, or the last asking failed for want of it. `asOf` is when what is shown was
 * fetched (offline-copy.ts dates a kept copy so); null when there is nothing to show. When the
 * network comes back the query is asked again: TanStack Query's own reconnect refetch misses a
 * page that started offline, as it takes the browser to be online until told otherwise.
 */
export function useShownOffline(query: {
  data: unknown
  error: unknown
  dataUpdatedAt: number
  refetch: () => Promise<unknown>
}): { offline: boolean; asOf: number | null } {
  const online = useOnline()
  const failedOffline = query.error != null && isNetworkFailure(query.error)
  const { refetch } = query
  useEffect(() => {
    if (online && failedOffline) void refetch()
  }, [online, failedOffline, refetch])
  const offline = !online || failedOffline
  return { offline, asOf: offline && query.data !== undefined ? query.dataUpdatedAt : null }
}

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
 * A link to a page that needs the network (buying, adding a card). Offline (`offlineReason`, the
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
