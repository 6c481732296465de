const KEEP = new Set(['harmonize.language'])

/**
 * Clears local storage on sign-out (spec: logout clears all local storage). The language choice
 * is a device setting, not account data, so it stays: the sign-in page keeps speaking Spanish.
 */
export function clearLocalData() {
  try {
    for (const key of Object.keys(localStorage)) {
      if (!KEEP.has(key)) localStorage.removeItem(key)
    }
    sessionStorage.clear()
  } catch {
    // Nothing stored, nothing to clear.
  }
}
