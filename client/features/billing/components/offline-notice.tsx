// Moved to the shared code, as My Account's other sections need them too. This file stays for
// plan-summary.tsx, which imports them from here and is being changed in another branch; once
// that lands, its import can point at the shared modules and this file go.
export { NetworkLink, OfflineNotice } from '../../../components/ui/offline-notice'
export { useShownOffline } from '../../../lib/network-status'
