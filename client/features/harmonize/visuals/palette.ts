/** A colour with red, green and blue in [0, 1]. */
export type Rgb = readonly [number, number, number]

/** The three colours every style is painted with. */
export interface Palette {
  deep: Rgb
  mid: Rgb
  light: Rgb
}

/** Used for any entry that is not a valid hex colour: a calm night-water blue ramp. */
export const DEFAULT_PALETTE: readonly [string, string, string] = ['#08142b', '#2a6f8f', '#cdeee6']

/** Parses `#rgb` or `#rrggbb` (the `#` is optional); null for anything else. */
export function parseHexColour(hex: string): Rgb | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim())
  if (!match?.[1]) return null
  const digits =
    match[1].length === 3 ? [...match[1]].map((digit) => digit + digit).join('') : match[1]
  const channel = (index: number) => Number.parseInt(digits.slice(index, index + 2), 16) / 255
  return [channel(0), channel(2), channel(4)]
}

/**
 * Turns the panel's three hex colours (deep, mid, light) into a palette. A malformed entry falls
 * back to the default colour in its place rather than throwing: a typo in panel content must not
 * take the visuals down.
 */
export function toPalette(colours: readonly [string, string, string]): Palette {
  const pick = (index: 0 | 1 | 2) =>
    parseHexColour(colours[index]) ?? (parseHexColour(DEFAULT_PALETTE[index]) as Rgb)
  return { deep: pick(0), mid: pick(1), light: pick(2) }
}

/** A CSS colour string for a palette colour, optionally with alpha. */
export function cssColour(colour: Rgb, alpha = 1): string {
  const [r, g, b] = colour.map((value) => Math.round(value * 255))
  return `rgb(${r} ${g} ${b} / ${alpha})`
}

/** Linear blend of two colours. */
export function mixColours(a: Rgb, b: Rgb, amount: number): Rgb {
  return [
    a[0] + (b[0] - a[0]) * amount,
    a[1] + (b[1] - a[1]) * amount,
    a[2] + (b[2] - a[2]) * amount,
  ]
}
