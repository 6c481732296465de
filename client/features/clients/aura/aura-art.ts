import { AURA_PICTURES } from '../../../../domain/clients'

// The 98 aura pictures of the aura screen (spec scans §2 Aura screen), generated on the device
// instead of stored images (PRODUCT.md: zero downloads, our own art). Framework-free so the
// screen, a test in Node and a throwaway preview script can all use it.
//
//   picture number ─┬─ fixed shuffle ── (core, outer) colour pair, unique ── style
//                   └─ mulberry32 ───── layers, outline, texture, rays, rings, speckles
//                                          │
//   auraDesign ─────────────────────────── AuraDesign (plain data)
//                                          │
//   auraGlowPixels ── low-resolution RGBA of every smooth part (pure, runs in Node)
//   drawAura ──────── that field upscaled to the canvas, speckles drawn sharp on top
//
// Everything is measured in units of the photo oval (1 = its edge), so a picture keeps its
// composition on any canvas size and the glows always hug the photo.

/** The colours an aura picture is made of, by their usual aura names. */
export type AuraColourName =
  | 'red'
  | 'orange'
  | 'gold'
  | 'yellow'
  | 'green'
  | 'turquoise'
  | 'blue'
  | 'indigo'
  | 'violet'
  | 'pink'
  | 'silver'

/**
 * The aura colours as `#rrggbb`. Soft, luminous tones rather than pure primaries (calm, not
 * garish), tuned so any two are at least ΔE 26 apart in CIELAB (some 11 just-noticeable differences):
 * side by side, no two are mistaken for each other.
 */
export const AURA_COLOURS: Readonly<Record<AuraColourName, string>> = {
  red: '#e0525c',
  orange: '#f27f3d',
  gold: '#d9a636',
  yellow: '#f3e68a',
  green: '#52c77e',
  turquoise: '#3cc8c8',
  blue: '#4a98e8',
  indigo: '#4659c4',
  violet: '#a862d4',
  pink: '#ec82bd',
  silver: '#e6eaf4',
}

/**
 * Where the photo sits, as fractions of the canvas: centre and radii of an ellipse. The middle
 * of every picture is one smooth colour inside it, so the photo can be drawn over it, clipped
 * to this ellipse or not.
 */
export const AURA_PHOTO_OVAL = { x: 0.5, y: 0.5, radiusX: 0.22, radiusY: 0.23 } as const

/** One egg-shaped glow. Sizes are in photo-oval units: 1 is the photo's edge. */
export interface AuraLayer {
  /** `#rrggbb`. */
  colour: string
  /** Half-size of the egg; the glow is half strength on this outline. */
  scale: number
  /** How strongly the glow covers what lies below it, 0–1. */
  opacity: number
  /** Width of the fading edge, relative to `scale`: small is a crisp egg, large a haze. */
  softness: number
  /** How much of the design's outline (ripples and plumes) this layer follows, 0–1. */
  wobble: number
  /** Shift of the egg's centre from the photo's centre, photo-oval units. */
  offsetX: number
  offsetY: number
}

/** A plume: the outline bulging out in one direction, like a flame. */
export interface AuraPlume {
  /** Radians, 0 to the right, π/2 downwards (canvas orientation). */
  angle: number
  /** Angular half-width in radians. */
  width: number
  /** Extra size at the plume's tip, as a fraction of the layer's size. */
  reach: number
}

/** Soft beams of light out of the glow. */
export interface AuraRays {
  count: number
  /** `#rrggbb`. */
  colour: string
  /** Brightness added at a beam's middle, 0–1. */
  strength: number
  /** Higher is narrower beams. */
  sharpness: number
  /** Rotation of the fan, radians. */
  phase: number
  /** How far out the beams fade, photo-oval units beyond the photo. */
  reach: number
}

/** Small points of light scattered in the glow. */
export interface AuraSpeckles {
  count: number
  /** `#rrggbb`. */
  colour: string
  /** Radius of the largest speckles, in pixels of a canvas 720 px on its shorter side. */
  size: number
}

/**
 * What a picture is mainly about, besides its colours: sunburst 'rays', light lines along
 * 'rings', flame-like 'streams', cloudy 'mist', lopsided 'plumes', a field of 'sparkles', or
 * crisp nested eggs in three colours ('bands').
 */
export type AuraStyle = 'rays' | 'rings' | 'streams' | 'mist' | 'plumes' | 'sparkles' | 'bands'

/** Every style, in the order the picture table cycles through them. */
export const AURA_STYLES: readonly AuraStyle[] = [
  'rays',
  'rings',
  'streams',
  'mist',
  'plumes',
  'sparkles',
  'bands',
]

const TEXTURES = ['smooth', 'mist', 'streams'] as const

/** Everything that makes one picture, as plain data: the drawing is a function of this alone. */
export interface AuraDesign {
  picture: number
  /** The colour nearest the photo. No two pictures share both `core` and `outer`. */
  core: AuraColourName
  /** The colour of the outer haze. */
  outer: AuraColourName
  /** Rays, speckles, rings and three-colour blends use it. */
  accent: AuraColourName
  /** Follows from `core` and `outer` (see {@link auraDesign}). */
  style: AuraStyle
  /** `#rrggbb`: the dark ground around the aura. */
  background: string
  /** How much narrower the eggs are at the top than at the bottom, 0–1. */
  taper: number
  /** Outermost first; each is painted over the ones before it. */
  layers: AuraLayer[]
  /** Waves along the outline: harmonic 2 is an oval squeeze, higher ones are gentle lobes. */
  ripples: { harmonic: number; amplitude: number; phase: number }[]
  plumes: AuraPlume[]
  /** One side glows more: the direction (radians) and how much (0–1). */
  lean: { angle: number; amount: number }
  /** Cloudy 'mist', flame-like 'streams' radiating out, or an even 'smooth' glow. */
  texture: 'smooth' | 'mist' | 'streams'
  /** How much the texture varies the glow, 0–1. */
  textureStrength: number
  /** Brightness of the glowing rim right around the photo, 0–1. */
  rim: number
  /** Brightness of faint light lines along the layers' outlines, 0 for none. */
  rings: number
  rays: AuraRays | null
  speckles: AuraSpeckles | null
}

const COLOUR_NAMES = Object.keys(AURA_COLOURS) as AuraColourName[]

// Eleven colours give 110 ordered (core, outer) pairs. Leaving out these six pairs in both
// orders leaves exactly 98, one per picture: green against red, pink or orange reads as a
// Christmas card, and the others fight rather than blend when their glows overlap.
const CLASHING_PAIRS: readonly (readonly [AuraColourName, AuraColourName])[] = [
  ['red', 'green'],
  ['pink', 'green'],
  ['orange', 'green'],
  ['red', 'turquoise'],
  ['violet', 'green'],
  ['orange', 'indigo'],
]

// Fixed seeds: changing one would give every client different pictures than before.
const PAIR_SHUFFLE_SEED = 0x5eed_a0ba
const DESIGN_SEED = 0x9e37_79b9
const SPECKLE_SEED = 0x85eb_ca6b

/**
 * A small, fast seeded generator (mulberry32): the same seed always gives the same numbers, so a
 * picture looks the same on every device and in every release.
 */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

let pairTable: (readonly [AuraColourName, AuraColourName])[] | null = null

/**
 * The (core, outer) pair of each picture, index 0 for picture 1. Shuffled once with a fixed seed
 * so neighbouring numbers do not run through the colours in order.
 */
function colourPairs(): (readonly [AuraColourName, AuraColourName])[] {
  if (pairTable) return pairTable
  const clashes = (a: AuraColourName, b: AuraColourName) =>
    CLASHING_PAIRS.some(([x, y]) => (x === a && y === b) || (x === b && y === a))
  const pairs: (readonly [AuraColourName, AuraColourName])[] = []
  for (const core of COLOUR_NAMES) {
    for (const outer of COLOUR_NAMES) {
      if (core !== outer && !clashes(core, outer)) pairs.push([core, outer])
    }
  }
  const random = mulberry32(PAIR_SHUFFLE_SEED)
  for (let index = pairs.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1))
    ;[pairs[index], pairs[other]] = [pairs[other] as never, pairs[index] as never]
  }
  pairTable = pairs
  return pairs
}

type Linear = [number, number, number]

const toLinear = (channel: number) =>
  channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4

const fromLinear = (value: number) =>
  value <= 0.0031308 ? value * 12.92 : 1.055 * value ** (1 / 2.4) - 0.055

function hexToLinear(hex: string): Linear {
  const value = Number.parseInt(hex.slice(1), 16)
  return [
    toLinear((value >> 16) / 255),
    toLinear(((value >> 8) & 255) / 255),
    toLinear((value & 255) / 255),
  ]
}

function linearToHex(colour: Linear): string {
  return `#${colour
    .map((channel) =>
      Math.round(Math.min(1, Math.max(0, fromLinear(channel))) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`
}

// Mixing in linear light, as overlapping glows do: red and blue meet in a clean magenta instead
// of the muddy grey a mix of sRGB numbers gives.
function mixHex(a: string, b: string, amount: number): string {
  const [r0, g0, b0] = hexToLinear(a)
  const [r1, g1, b1] = hexToLinear(b)
  return linearToHex([r0 + (r1 - r0) * amount, g0 + (g1 - g0) * amount, b0 + (b1 - b0) * amount])
}

/**
 * The design of aura picture `picture` (1–98): the same number always gives the same design.
 * Its core and outer colours come from a fixed table, so no two pictures share both, and its
 * style from those two colours, so pictures whose colours are close differ in style; the rest
 * (layers, outline, texture, rays, rings, speckles) comes from a generator seeded by the number.
 */
export function auraDesign(picture: number): AuraDesign {
  if (!Number.isInteger(picture) || picture < 1 || picture > AURA_PICTURES) {
    throw new RangeError(`Aura picture must be a whole number from 1 to ${AURA_PICTURES}`)
  }
  const [core, outer] = colourPairs()[picture - 1] as readonly [AuraColourName, AuraColourName]
  // Colour names are in rainbow order, so neighbouring cores (the most alike on the same outer
  // colour) are one style apart, neighbouring outers three; a style repeats only between
  // pictures whose colours are far apart.
  const style = AURA_STYLES[
    (COLOUR_NAMES.indexOf(core) + 3 * COLOUR_NAMES.indexOf(outer)) % AURA_STYLES.length
  ] as AuraStyle
  const random = mulberry32(Math.imul(picture, DESIGN_SEED) ^ 0x2545f491)
  const between = (low: number, high: number) => low + (high - low) * random()
  const chance = (probability: number) => random() < probability
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T

  // A third colour, not yet in the picture, for what is drawn on top of the glows.
  const accent = pick(COLOUR_NAMES.filter((name) => name !== core && name !== outer))

  const bands = style === 'bands'
  const plumed = style === 'plumes'
  const layerCount = bands || plumed ? 4 + Math.floor(random() * 3) : 3 + Math.floor(random() * 3)
  // A middle layer in the accent colour: bands show it as a stripe, plumes as a flame.
  const blend = bands || plumed || (layerCount >= 4 && chance(0.3))
  // The outermost egg reaches the canvas's sides but leaves its corners to the dark ground;
  // plumes need more dark ground around them to show their shape.
  const outerScale = plumed ? between(1.3, 1.55) : between(1.45, 1.95)
  const innerScale = between(1.05, 1.18)
  const layers: AuraLayer[] = []
  for (let index = 0; index < layerCount; index += 1) {
    // 0 for the outermost, 1 for the innermost.
    const depth = index / (layerCount - 1)
    const middle = blend && index === Math.floor(layerCount / 2)
    layers.push({
      colour: middle
        ? AURA_COLOURS[accent]
        : mixHex(AURA_COLOURS[outer], AURA_COLOURS[core], depth ** 0.75),
      scale: outerScale + (innerScale - outerScale) * depth ** between(0.7, 1.1),
      opacity: 0.42 + 0.5 * depth * between(0.85, 1),
      // Bands are crisp eggs, one inside the other; otherwise the layers melt into each other.
      softness: bands ? between(0.035, 0.05) : between(0.05, 0.11) + 0.08 * (1 - depth),
      // Plumes are flames of every colour, so even the inner layers follow them there.
      wobble: plumed ? 1 - 0.85 * depth : (1 - depth) ** 0.8,
      offsetX: depth === 1 ? 0 : between(-0.12, 0.12) * (1 - depth),
      offsetY: depth === 1 ? 0 : between(-0.16, 0.08) * (1 - depth),
    })
  }

  // Low harmonics only, and gentle: higher ones turn the egg into a blob, most of all where
  // bands draw its outline crisply.
  const ripples = (bands ? [2, 3] : [2, 3, 4, 5])
    .filter(() => chance(0.5))
    .map((harmonic) => ({
      harmonic,
      amplitude: between(0.015, 0.05) / Math.sqrt(harmonic - 1),
      phase: between(0, Math.PI * 2),
    }))
  const plumes: AuraPlume[] = []
  const plumeCount = plumed ? 1 + Math.floor(random() * 3) : chance(0.2) ? 1 : 0
  for (let index = 0; index < plumeCount; index += 1) {
    plumes.push({
      // Mostly upwards and to the sides: auras are drawn rising from the head and shoulders.
      angle: -Math.PI / 2 + between(-1.7, 1.7),
      width: plumed ? between(0.28, 0.45) : between(0.25, 0.55),
      reach: plumed ? between(0.4, 0.65) : between(0.1, 0.2),
    })
  }

  let texture: AuraDesign['texture'] = pick(TEXTURES)
  if (style === 'mist' || style === 'streams') texture = style
  // Streams would hide the outlines that bands and plumes are about.
  else if (bands || plumed) texture = texture === 'streams' ? 'smooth' : texture
  const textureStrength =
    texture === 'smooth' ? 0 : style === 'mist' || style === 'streams' ? between(0.5, 0.75) : 0.3
  const bgBase = hexToLinear(chance(0.5) ? '#04050b' : '#080510')
  const tint = hexToLinear(AURA_COLOURS[outer])
  const tintAmount = between(0.015, 0.05)
  const light = pick(['#fff6dc', '#eef2ff', AURA_COLOURS[accent]])

  return {
    picture,
    core,
    outer,
    accent,
    style,
    background: linearToHex(
      [0, 1, 2].map((i) => (bgBase[i] as number) + (tint[i] as number) * tintAmount) as Linear,
    ),
    taper: between(0.08, 0.18),
    layers,
    ripples,
    plumes,
    lean: {
      // Plumes carry the light their way.
      angle: plumed ? (plumes[0]?.angle ?? 0) : between(0, Math.PI * 2),
      amount: plumed ? between(0.2, 0.35) : chance(0.5) ? between(0.1, 0.3) : 0,
    },
    texture,
    textureStrength,
    rim: between(0.15, 0.45),
    rings: style === 'rings' ? between(0.1, 0.18) : 0,
    rays:
      style === 'rays' || chance(0.12)
        ? {
            count: 6 + Math.floor(random() * 13),
            colour: chance(0.5) ? AURA_COLOURS[accent] : AURA_COLOURS[core],
            strength: style === 'rays' ? between(0.14, 0.22) : between(0.06, 0.1),
            sharpness: between(4, 12),
            phase: between(0, Math.PI * 2),
            reach: between(0.45, 0.9),
          }
        : null,
    speckles:
      style === 'sparkles' || chance(0.2)
        ? {
            count:
              style === 'sparkles'
                ? 110 + Math.floor(random() * 110)
                : 30 + Math.floor(random() * 40),
            colour: light,
            size: style === 'sparkles' ? between(2.2, 3.6) : between(1.4, 2.4),
          }
        : null,
  }
}

// Half a degree per step of the angle tables: outline, lean and beams change slowly with angle,
// and the field they are used in is at most 320 px across, so finer steps would not show.
const ANGLE_BINS = 720
const TAU = Math.PI * 2

// Gradient (Perlin) noise on a grid that wraps around horizontally, so the 'streams' texture
// (angle across, distance out) has no seam at the left of the picture. Value noise would be
// cheaper but shows its square grid as blotches once the field is upscaled. Returns about 0–1.
function noiseGrid(random: () => number, columns: number, rows: number) {
  const angles = Array.from({ length: columns * rows }, () => random() * TAU)
  const gradientX = Float32Array.from(angles, Math.cos)
  const gradientY = Float32Array.from(angles, Math.sin)
  const fade = (t: number) => t * t * t * (t * (t * 6 - 15) + 10)
  const corner = (column: number, row: number, dx: number, dy: number) =>
    (gradientX[row * columns + column] as number) * dx +
    (gradientY[row * columns + column] as number) * dy
  return (x: number, y: number) => {
    const fx = Math.floor(x)
    const fy = Math.floor(y)
    const tx = x - fx
    const ty = y - fy
    const x0 = ((fx % columns) + columns) % columns
    const x1 = (x0 + 1) % columns
    const y0 = ((fy % rows) + rows) % rows
    const y1 = (y0 + 1) % rows
    const u = fade(tx)
    const top = corner(x0, y0, tx, ty) + (corner(x1, y0, tx - 1, ty) - corner(x0, y0, tx, ty)) * u
    const bottom =
      corner(x0, y1, tx, ty - 1) + (corner(x1, y1, tx - 1, ty - 1) - corner(x0, y1, tx, ty - 1)) * u
    return 0.5 + 0.75 * (top + (bottom - top) * fade(ty))
  }
}

const smoothstep = (edge0: number, edge1: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)))
  return t * t * (3 - 2 * t)
}

// A layer's glow falls off as a logistic curve of its distance from the outline (half strength
// on it): soft like light, with no visible edge where it ends. Read from a table: an exp() per
// layer per pixel was most of the drawing time.
const GLOW_RANGE = 8
const GLOW_STEPS = 128
const glowTable = Float32Array.from(
  { length: 2 * GLOW_RANGE * GLOW_STEPS + 1 },
  (_, index) => 1 / (1 + Math.exp(index / GLOW_STEPS - GLOW_RANGE)),
)

// Linear light to 8-bit sRGB by table: a pow() per channel per pixel would dominate the time.
const SRGB_TABLE_SIZE = 4096
// Kept unrounded (0–255 as floats) so the dither below acts before the value is rounded.
let srgbTable: Float32Array | null = null
function srgbLookup(): Float32Array {
  if (!srgbTable) {
    srgbTable = Float32Array.from(
      { length: SRGB_TABLE_SIZE + 1 },
      (_, index) => fromLinear(index / SRGB_TABLE_SIZE) * 255,
    )
  }
  return srgbTable
}

/**
 * atan2 to within 0.0003 radians, a thirtieth of an angle-table step, at a fraction of the cost
 * of Math.atan2 (it runs once per pixel).
 */
function fastAtan2(y: number, x: number): number {
  const ax = Math.abs(x)
  const ay = Math.abs(y)
  if (ax === 0 && ay === 0) return 0
  const a = ax > ay ? ay / ax : ax / ay
  const s = a * a
  let angle = ((-0.0464964749 * s + 0.15931422) * s - 0.327622764) * s * a + a
  if (ay > ax) angle = Math.PI / 2 - angle
  if (x < 0) angle = Math.PI - angle
  return y < 0 ? -angle : angle
}

/**
 * Paints every smooth part of `design` (ground, glows, texture, rays, rings, rim) into an RGBA
 * buffer of `width` × `height`, opaque, row by row. Pure and DOM-free: it runs in Node for tests,
 * and {@link drawAura} calls it at a reduced size and lets the canvas upscale the result, since
 * nothing in it is sharper than a few pixels.
 */
export function auraGlowPixels(
  design: AuraDesign,
  width: number,
  height: number,
): Uint8ClampedArray<ArrayBuffer> {
  const pixels = new Uint8ClampedArray(width * height * 4)
  const cx = width * AURA_PHOTO_OVAL.x
  const cy = height * AURA_PHOTO_OVAL.y
  const rx = width * AURA_PHOTO_OVAL.radiusX
  const ry = height * AURA_PHOTO_OVAL.radiusY

  // Per-angle tables, computed once instead of per pixel.
  const outline = new Float32Array(ANGLE_BINS)
  const lean = new Float32Array(ANGLE_BINS)
  const rays = new Float32Array(ANGLE_BINS)
  const rayFade = new Float32Array(ANGLE_BINS)
  const rayRandom = mulberry32(design.picture ^ 0x1b873593)
  const rayLengths = Array.from(
    { length: design.rays?.count ?? 0 },
    () => 0.55 + 0.45 * rayRandom(),
  )
  for (let bin = 0; bin < ANGLE_BINS; bin += 1) {
    const angle = ((bin + 0.5) / ANGLE_BINS) * TAU - Math.PI
    let bulge = 0
    for (const { harmonic, amplitude, phase } of design.ripples) {
      bulge += amplitude * Math.cos(harmonic * angle + phase)
    }
    for (const plume of design.plumes) {
      const apart = Math.atan2(Math.sin(angle - plume.angle), Math.cos(angle - plume.angle))
      bulge += plume.reach * Math.exp(-((apart / plume.width) ** 2))
    }
    outline[bin] = bulge
    lean[bin] = design.lean.amount * Math.cos(angle - design.lean.angle)
    if (design.rays) {
      const { count, phase, sharpness, reach } = design.rays
      const turn = ((((angle - phase) / TAU) * count) % count) + count
      const ray = Math.floor(turn + 0.5) % count
      rays[bin] = design.rays.strength * (0.5 + 0.5 * Math.cos(TAU * turn)) ** sharpness
      // Each beam has its own length: a fan of equal beams looks mechanical.
      rayFade[bin] = 1 / Math.max(0.05, reach * (rayLengths[ray] as number))
    }
  }

  // Each layer's numbers side by side in one typed array: the inner loop runs once per layer per
  // pixel and reads nothing else.
  const LAYER_STRIDE = 9
  const layerCount = design.layers.length
  const layers = new Float64Array(layerCount * LAYER_STRIDE)
  design.layers.forEach((layer, index) => {
    const [red, green, blue] = hexToLinear(layer.colour)
    layers.set(
      [
        layer.offsetX,
        layer.offsetY,
        1 / layer.scale,
        layer.wobble,
        1 / layer.softness,
        layer.opacity,
        red,
        green,
        blue,
      ],
      index * LAYER_STRIDE,
    )
  })
  const taper = design.taper
  const textureStrength = design.texture === 'smooth' ? 0 : design.textureStrength
  const streams = design.texture === 'streams'
  const [groundR, groundG, groundB] = hexToLinear(design.background)
  const [coreR, coreG, coreB] = hexToLinear(AURA_COLOURS[design.core])
  const [ringR, ringG, ringB] = hexToLinear(AURA_COLOURS[design.accent])
  const [rayR, rayG, rayB] = hexToLinear(design.rays?.colour ?? AURA_COLOURS[design.core])
  const rings = design.rings
  const rim = design.rim
  const noise = noiseGrid(mulberry32(design.picture ^ 0x68e31da4), 48, 48)
  const table = srgbLookup()
  // Rounding noise under one 8-bit step, so dark gradients do not break into bands.
  const dither = mulberry32(design.picture ^ 0x27d4eb2f)

  let offset = 0
  for (let y = 0; y < height; y += 1) {
    const v = (y + 0.5 - cy) / ry
    for (let x = 0; x < width; x += 1) {
      const u = (x + 0.5 - cx) / rx
      const distance = Math.sqrt(u * u + v * v)
      const angle = fastAtan2(v, u)
      const bin = Math.min(ANGLE_BINS - 1, ((angle + Math.PI) * (ANGLE_BINS / TAU)) | 0)
      // Texture, rays and rings only outside the photo: the middle stays one calm colour.
      const outside = smoothstep(0.95, 1.35, distance)
      // Anything that depends on the angle fades out towards the centre, where the angle jumps:
      // there it would cut the middle into wedges.
      const lopsided = 1 + (lean[bin] as number) * smoothstep(0.5, 1.2, distance)

      const vignette = 1 - 0.55 * smoothstep(1.6, 3.2, distance)
      let r = groundR * vignette
      let g = groundG * vignette
      let b = groundB * vignette

      let grain = 1
      if (textureStrength > 0 && outside > 0) {
        let n: number
        if (streams) {
          // Angle across, log-distance out: streaks that run outwards like flames.
          const around = (angle + Math.PI) / TAU
          const out = Math.log(distance + 0.3)
          n = noise(around * 48, out * 3) * 0.7 + noise(around * 96 + 3, out * 5) * 0.3
        } else {
          n = noise(u * 2.2 + 7, v * 2.2 + 7) * 0.65 + noise(u * 5 + 20, v * 5 + 20) * 0.35
        }
        grain = 1 + textureStrength * outside * (n - 0.5) * 2.1
      }

      const bulge = outline[bin] as number
      let ringLight = 0
      for (let at = 0; at < layers.length; at += LAYER_STRIDE) {
        const du = u - (layers[at] as number)
        const dv = v - (layers[at + 1] as number)
        const inverseScale = layers[at + 2] as number
        // Wider below the middle than above: an egg standing on its broad end.
        const across = dv * inverseScale
        const ex = du / (1 + taper * Math.min(1, Math.max(-1, across)))
        const rho =
          (Math.sqrt(ex * ex + dv * dv) * inverseScale) / (1 + bulge * (layers[at + 3] as number))
        const z = (rho - 1) * (layers[at + 4] as number)
        const glow =
          z <= -GLOW_RANGE
            ? 1
            : z >= GLOW_RANGE
              ? 0
              : (glowTable[((z + GLOW_RANGE) * GLOW_STEPS) | 0] as number)
        let alpha = (layers[at + 5] as number) * glow * lopsided * grain
        if (alpha > 1) alpha = 1
        if (alpha > 0) {
          r += ((layers[at + 6] as number) - r) * alpha
          g += ((layers[at + 7] as number) - g) * alpha
          b += ((layers[at + 8] as number) - b) * alpha
        }
        if (rings > 0) {
          // A narrow bump on the outline, without the cost of an exp().
          const edge = (rho - 1) * 22
          const bump = 1 - edge * edge
          if (bump > 0) ringLight += bump * bump
        }
      }

      // A bright seam of the core colour right around the photo (about exp(-t²), cheaper).
      const t = (distance - 1.05) / 0.22
      const rimBump = 1 - (t * t) / 3
      if (rimBump > 0) {
        const light = rim * rimBump * rimBump * rimBump
        r += coreR * light
        g += coreG * light
        b += coreB * light
      }
      if (ringLight > 0) {
        const light = rings * ringLight * outside
        r += ringR * light
        g += ringG * light
        b += ringB * light
      }
      const beam = rays[bin] as number
      if (beam > 0.001 && outside > 0) {
        const light =
          beam * outside * Math.exp(-Math.max(0, distance - 1) * (rayFade[bin] as number))
        r += rayR * light
        g += rayG * light
        b += rayB * light
      }

      // Highlights roll off towards white instead of clipping into flat patches.
      r = r / (1 + r * 0.25)
      g = g / (1 + g * 0.25)
      b = b / (1 + b * 0.25)
      const jitter = dither() - 0.5
      pixels[offset] =
        (table[Math.min(SRGB_TABLE_SIZE, (r * SRGB_TABLE_SIZE) | 0)] as number) + jitter
      pixels[offset + 1] =
        (table[Math.min(SRGB_TABLE_SIZE, (g * SRGB_TABLE_SIZE) | 0)] as number) + jitter
      pixels[offset + 2] =
        (table[Math.min(SRGB_TABLE_SIZE, (b * SRGB_TABLE_SIZE) | 0)] as number) + jitter
      pixels[offset + 3] = 255
      offset += 4
    }
  }
  return pixels
}

// The glow field is computed at most this many pixels along its longer side and upscaled: it is
// all soft gradients, and this keeps a 720 × 960 picture to a few milliseconds.
const FIELD_MAX_SIDE = 320

/** Where the low-resolution field is put before it is scaled up. */
function scratchCanvas(
  context: CanvasRenderingContext2D,
  width: number,
  height: number,
): OffscreenCanvas | HTMLCanvasElement {
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(width, height)
  const canvas = context.canvas.ownerDocument.createElement('canvas')
  canvas.width = width
  canvas.height = height
  return canvas
}

/**
 * Draws aura picture `picture` (1–98) filling the `width` × `height` area at the context's
 * origin (in the context's current transform, so a caller scaling for devicePixelRatio passes
 * CSS sizes). The photo belongs in {@link AURA_PHOTO_OVAL}, where the picture is one smooth
 * colour. Leaves the context's state as it found it.
 */
export function drawAura(
  context: CanvasRenderingContext2D,
  width: number,
  height: number,
  picture: number,
): void {
  const design = auraDesign(picture)
  const step = Math.max(1, Math.max(width, height) / FIELD_MAX_SIDE)
  const fieldWidth = Math.max(1, Math.round(width / step))
  const fieldHeight = Math.max(1, Math.round(height / step))
  const field = scratchCanvas(context, fieldWidth, fieldHeight)
  const fieldContext = field.getContext('2d') as
    | OffscreenCanvasRenderingContext2D
    | CanvasRenderingContext2D
  fieldContext.putImageData(
    new ImageData(auraGlowPixels(design, fieldWidth, fieldHeight), fieldWidth, fieldHeight),
    0,
    0,
  )

  context.save()
  context.globalAlpha = 1
  context.globalCompositeOperation = 'source-over'
  context.imageSmoothingEnabled = true
  context.imageSmoothingQuality = 'high'
  context.drawImage(field, 0, 0, width, height)
  if (design.speckles) drawSpeckles(context, width, height, design)
  context.restore()
}

/**
 * Speckles are drawn at full resolution: upscaled from the field they would blur into smudges.
 * They keep out of the photo and thin out away from it.
 */
function drawSpeckles(
  context: CanvasRenderingContext2D,
  width: number,
  height: number,
  design: AuraDesign,
): void {
  const speckles = design.speckles
  if (!speckles) return
  // One soft dot, drawn once and stamped at every size: a gradient per speckle costs more, and
  // plain circles look like bubbles rather than light.
  const spriteSize = 32
  const sprite = scratchCanvas(context, spriteSize, spriteSize)
  const spriteContext = sprite.getContext('2d') as
    | OffscreenCanvasRenderingContext2D
    | CanvasRenderingContext2D
  const value = Number.parseInt(speckles.colour.slice(1), 16)
  const [r, g, b] = [value >> 16, (value >> 8) & 255, value & 255]
  const gradient = spriteContext.createRadialGradient(16, 16, 0, 16, 16, 16)
  gradient.addColorStop(0, `rgb(${r} ${g} ${b} / 1)`)
  gradient.addColorStop(0.18, `rgb(${r} ${g} ${b} / 0.8)`)
  gradient.addColorStop(0.45, `rgb(${r} ${g} ${b} / 0.18)`)
  gradient.addColorStop(1, `rgb(${r} ${g} ${b} / 0)`)
  spriteContext.fillStyle = gradient
  spriteContext.fillRect(0, 0, spriteSize, spriteSize)

  const random = mulberry32(Math.imul(design.picture, SPECKLE_SEED) ^ 0x165667b1)
  const unit = Math.min(width, height) / 720
  const cx = width * AURA_PHOTO_OVAL.x
  const cy = height * AURA_PHOTO_OVAL.y
  const rx = width * AURA_PHOTO_OVAL.radiusX
  const ry = height * AURA_PHOTO_OVAL.radiusY
  context.globalCompositeOperation = 'lighter'
  for (let index = 0; index < speckles.count; index += 1) {
    const angle = random() * TAU
    const distance = 1.15 + 1.3 * random() ** 1.6
    const x = cx + Math.cos(angle) * distance * rx
    const y = cy + Math.sin(angle) * distance * ry
    // The sprite's bright centre is about a fifth of its size.
    const size = speckles.size * unit * (0.35 + 0.65 * random() ** 2) * 5
    context.globalAlpha = Math.min(1, Math.max(0, (0.3 + 0.7 * random()) * (1.5 - distance * 0.4)))
    context.drawImage(sprite, x - size / 2, y - size / 2, size, size)
  }
}
