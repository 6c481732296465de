// Where the latest session on this device ran, query included: a tray's session has its time
// and layered panels there, which the server's history (one row per panel) cannot give back.
const KEY = 'harmonize:last-session'

export function rememberLastSession(path: string) {
  try {
    sessionStorage.setItem(KEY, path)
  } catch {
    // Blocked storage: /harmonized-complete falls back to the history.
  }
}

/** The path of the latest session run in this tab, if it is a harmonizing screen's. */
export function lastSessionPath(): string | null {
  try {
    const path = sessionStorage.getItem(KEY)
    return path?.startsWith('/harmonizing-screen/') ? path : null
  } catch {
    return null
  }
}
