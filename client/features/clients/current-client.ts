// The client a scan is for, and the signature added for it, kept for this tab: the form's Start
// picks the client, and the scan pages that follow (and a reload of them) read it here.

const KEY = 'harmonize.scan'

export interface ScanContext {
  clientId: string
  name: string
  photoUrl: string | null
  signature: string | null
}

export function readScanContext(): ScanContext | null {
  try {
    const stored = sessionStorage.getItem(KEY)
    return stored ? (JSON.parse(stored) as ScanContext) : null
  } catch {
    return null
  }
}

export function writeScanContext(context: ScanContext) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(context))
  } catch {
    // Storage can be unavailable (private mode); the scan still runs from the page's state.
  }
}
