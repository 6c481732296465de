/**
 * The saved copy's URL if the device finds it within `waitMs`, else null so the session streams
 * the file instead: Cache Storage, opened for the first time on a busy device, took eight
 * seconds once, and the session waited on it with its Play button saying 'Loading'. Offline the
 * saved copy is the only one there is, so it is waited for however long it takes. A copy found
 * too late is let go (its blob URL revoked).
 */
export async function savedCopyInTime(
  lookup: Promise<string | null>,
  waitMs: number,
  online: boolean,
): Promise<string | null> {
  if (!online) return lookup
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), waitMs)
  })
  const result = await Promise.race([lookup, late])
  clearTimeout(timer)
  if (result !== 'late') return result
  void lookup.then(
    (url) => {
      if (url) URL.revokeObjectURL(url)
    },
    () => {},
  )
  return null
}
