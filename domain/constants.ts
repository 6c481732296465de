/** Timers and sizes the spec fixes (core §9, public flows §9). */
export const SNACKBAR_AUTO_HIDE_MS = 6000
export const SIDE_MENU_WIDTH_PX = 279
export const HARMONIZE_DURATION_MS = 180_000
export const AFFIRMATION_ROTATION_MS = 7000
export const INGREDIENT_ROTATION_MS = 4000

/** m:ss, e.g. 180000 → "3:00"; never negative. */
export function formatCountdown(remainingMs: number): string {
  const seconds = Math.max(0, Math.ceil(remainingMs / 1000))
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}
