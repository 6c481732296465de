import { describe, expect, it } from 'vitest'
import { AURA_PICTURES } from '../../../../domain/clients'
import {
  AURA_COLOURS,
  AURA_PHOTO_OVAL,
  AURA_STYLES,
  type AuraDesign,
  auraDesign,
  auraGlowPixels,
} from './aura-art'

const pictures = Array.from({ length: AURA_PICTURES }, (_, index) => index + 1)
const designs = pictures.map(auraDesign)

// The test measures with its own colour maths rather than the module's, so a mistake there
// cannot hide itself. CIELAB (D65) and ΔE76: a difference of about 2.3 is just noticeable.
type Lab = [number, number, number]

function rgbToLab(red: number, green: number, blue: number): Lab {
  const linear = (value: number) => {
    const c = value / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  const [r, g, b] = [linear(red), linear(green), linear(blue)]
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116)
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))]
}

function hexToLab(hex: string): Lab {
  const value = Number.parseInt(hex.slice(1), 16)
  return rgbToLab(value >> 16, (value >> 8) & 255, value & 255)
}

const deltaE = (a: Lab, b: Lab) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])

/**
 * How differently two designs strike a viewer: the colour distance of what is painted nearest
 * the photo (innermost layer) plus that of the outer haze (outermost layer), plus 15 when the
 * style differs (sunburst against rings or mist is seen at a glance), plus 4 per layer of
 * difference in layer count.
 */
function designDistance(a: AuraDesign, b: AuraDesign): number {
  const inner = (design: AuraDesign) => hexToLab(design.layers.at(-1)?.colour ?? '')
  const outer = (design: AuraDesign) => hexToLab(design.layers[0]?.colour ?? '')
  return (
    deltaE(inner(a), inner(b)) +
    deltaE(outer(a), outer(b)) +
    (a.style === b.style ? 0 : 15) +
    4 * Math.abs(a.layers.length - b.layers.length)
  )
}

// Two pictures of the same style and layer count must differ by ΔE 35 over their two main
// colours together: more than the 26 between the two closest aura colours, some 15 just
// noticeable differences. A copy with the same colours scores at most 15 + 12.
const DESIGN_DISTANCE_MIN = 35

// The pictures themselves, small: the mean ΔE over every point of the aura (outside the photo).
// 5 means the whole aura looks different, not only a corner of it; a copy of a picture with its
// colours nudged by an imperceptible amount stays near 1.
const RENDER_SIZE = { width: 36, height: 48 }
const RENDER_DISTANCE_MIN = 5

function renderAura(design: AuraDesign): Lab[] {
  const { width, height } = RENDER_SIZE
  const pixels = auraGlowPixels(design, width, height)
  const points: Lab[] = []
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const u = (x + 0.5 - width * AURA_PHOTO_OVAL.x) / (width * AURA_PHOTO_OVAL.radiusX)
      const v = (y + 0.5 - height * AURA_PHOTO_OVAL.y) / (height * AURA_PHOTO_OVAL.radiusY)
      if (u * u + v * v < 1) continue
      const at = (y * width + x) * 4
      points.push(rgbToLab(pixels[at] ?? 0, pixels[at + 1] ?? 0, pixels[at + 2] ?? 0))
    }
  }
  return points
}

function renderDistance(a: Lab[], b: Lab[]): number {
  let total = 0
  a.forEach((point, index) => {
    total += deltaE(point, b[index] as Lab)
  })
  return total / a.length
}

/** A near copy: every colour moved by 3 of 255 on each channel. */
function nudged(design: AuraDesign): AuraDesign {
  const nudge = (hex: string) =>
    `#${[0, 2, 4]
      .map((at) =>
        Math.min(255, Number.parseInt(hex.slice(1 + at, 3 + at), 16) + 3)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`
  return {
    ...design,
    background: nudge(design.background),
    layers: design.layers.map((layer) => ({ ...layer, colour: nudge(layer.colour) })),
  }
}

function closestPair<T>(items: T[], distance: (a: T, b: T) => number) {
  let closest = { distance: Number.POSITIVE_INFINITY, pictures: [0, 0] }
  for (let i = 0; i < items.length; i += 1) {
    for (let j = i + 1; j < items.length; j += 1) {
      const d = distance(items[i] as T, items[j] as T)
      if (d < closest.distance) closest = { distance: d, pictures: [i + 1, j + 1] }
    }
  }
  return closest
}

describe('auraDesign', () => {
  it('gives the same design for the same number, whatever was asked before', () => {
    const backwards = [...pictures].reverse().map(auraDesign).reverse()
    expect(backwards).toEqual(designs)
    expect(auraDesign(42)).toEqual(auraDesign(42))
    expect(designs.map((design) => design.picture)).toEqual(pictures)
  })

  it('refuses numbers outside 1–98', () => {
    for (const picture of [0, -1, AURA_PICTURES + 1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => auraDesign(picture)).toThrow(RangeError)
    }
    expect(AURA_PICTURES).toBe(98)
  })

  it('gives every picture its own pair of core and outer colours', () => {
    const pairs = new Set(designs.map((design) => `${design.core}/${design.outer}`))
    expect(pairs.size).toBe(AURA_PICTURES)
    for (const design of designs) {
      expect(design.core).not.toBe(design.outer)
      // The innermost layer is the core colour, the outermost the outer one.
      expect(design.layers.at(-1)?.colour).toBe(AURA_COLOURS[design.core])
      expect(design.layers[0]?.colour).toBe(AURA_COLOURS[design.outer])
    }
  })

  it('makes every two pictures differ in a way a viewer notices', () => {
    // The measure must see a near copy as one, or the check below proves nothing.
    const first = designs[0] as AuraDesign
    expect(designDistance(first, nudged(first))).toBeLessThan(DESIGN_DISTANCE_MIN)
    const oneMoreLayer = { ...first, layers: [first.layers[0], ...first.layers] } as AuraDesign
    expect(designDistance(first, oneMoreLayer)).toBeLessThan(DESIGN_DISTANCE_MIN)

    const closest = closestPair(designs, designDistance)
    expect(closest.distance, `pictures ${closest.pictures.join(' and ')}`).toBeGreaterThanOrEqual(
      DESIGN_DISTANCE_MIN,
    )
  })

  it('draws every two pictures visibly differently', () => {
    const first = designs[0] as AuraDesign
    expect(renderDistance(renderAura(first), renderAura(nudged(first)))).toBeLessThan(
      RENDER_DISTANCE_MIN,
    )

    const closest = closestPair(designs.map(renderAura), renderDistance)
    expect(closest.distance, `pictures ${closest.pictures.join(' and ')}`).toBeGreaterThanOrEqual(
      RENDER_DISTANCE_MIN,
    )
  })

  it('spreads the pictures over every style and over three to six layers', () => {
    for (const style of AURA_STYLES) {
      expect(designs.filter((design) => design.style === style).length).toBeGreaterThanOrEqual(10)
    }
    const layerCounts = new Set(designs.map((design) => design.layers.length))
    expect([...layerCounts].sort((a, b) => a - b)).toEqual([3, 4, 5, 6])
  })

  it('uses only valid CSS colours', () => {
    const hex = /^#[0-9a-f]{6}$/
    for (const colour of Object.values(AURA_COLOURS)) expect(colour).toMatch(hex)
    for (const design of designs) {
      const colours = [
        design.background,
        ...design.layers.map((layer) => layer.colour),
        design.rays?.colour,
        design.speckles?.colour,
      ].filter((colour) => colour !== undefined)
      for (const colour of colours) expect(colour, `picture ${design.picture}`).toMatch(hex)
    }
  })
})

describe('auraGlowPixels', () => {
  it('paints the same pixels for the same design, all opaque', () => {
    const design = auraDesign(7)
    const pixels = auraGlowPixels(design, 30, 40)
    expect(pixels).toHaveLength(30 * 40 * 4)
    expect(auraGlowPixels(auraDesign(7), 30, 40)).toEqual(pixels)
    expect(pixels.filter((_, index) => index % 4 === 3).every((alpha) => alpha === 255)).toBe(true)
  })

  it('keeps the middle of the photo oval one calm colour for every picture', () => {
    const width = 120
    const height = 160
    for (const design of designs) {
      const pixels = auraGlowPixels(design, width, height)
      const at = (x: number, y: number) => {
        const index = (y * width + x) * 4
        return rgbToLab(pixels[index] ?? 0, pixels[index + 1] ?? 0, pixels[index + 2] ?? 0)
      }
      const centre = at(width / 2, height / 2)
      let spread = 0
      let step = 0
      for (let y = 0; y < height; y += 1) {
        for (let x = 0; x + 1 < width; x += 1) {
          const u = (x + 0.5 - width * AURA_PHOTO_OVAL.x) / (width * AURA_PHOTO_OVAL.radiusX)
          const v = (y + 0.5 - height * AURA_PHOTO_OVAL.y) / (height * AURA_PHOTO_OVAL.radiusY)
          const reach = Math.hypot(u, v)
          if (reach < 0.5) spread = Math.max(spread, deltaE(at(x, y), centre))
          if (reach < 0.8) step = Math.max(step, deltaE(at(x, y), at(x + 1, y)))
        }
      }
      // The middle half of the oval is one colour to the eye: no texture, rays or lopsided light.
      expect(spread, `picture ${design.picture}`).toBeLessThan(2)
      // Towards the photo's edge it only brightens smoothly (the glow's rim), pixel to pixel.
      expect(step, `picture ${design.picture}`).toBeLessThan(3)
    }
  })

  it('leaves the photo the middle 40–50 % of the picture', () => {
    expect(AURA_PHOTO_OVAL.x).toBe(0.5)
    expect(AURA_PHOTO_OVAL.y).toBe(0.5)
    for (const radius of [AURA_PHOTO_OVAL.radiusX, AURA_PHOTO_OVAL.radiusY]) {
      expect(radius).toBeGreaterThanOrEqual(0.2)
      expect(radius).toBeLessThanOrEqual(0.25)
    }
  })
})
