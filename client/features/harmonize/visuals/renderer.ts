// The session's generative visuals: one full-screen fragment shader per style, drawn with plain
// WebGL2 (no library, ARCHITECTURE.md; the GPU side is in webgl-backend.ts), with a 2D-canvas
// fallback (fallback-2d.ts). This file owns the loop, the sizing, the motion speed and the switch
// to the fallback when the GPU goes. Framework-free so any page can own it through a ref and an
// effect.

import { AdaptiveResolution, resolutionLadder } from './adaptive-resolution'
import type { Backend } from './backend'
import { createFallbackBackend } from './fallback-2d'
import { toPalette } from './palette'
import { FRACTAL_STYLES } from './styles'
import { createGlBackend, firstWorkingStyle, type GlBackend } from './webgl-backend'

export interface FractalRendererOptions {
  /** Deep, mid and light colours as hex (`#rrggbb`). */
  palette: [string, string, string]
  /** A style index (see FRACTAL_STYLES) or 'random' (the default): one pick per renderer. */
  style?: number | 'random'
  /** Forces reduced motion on or off; left out, `prefers-reduced-motion` decides (live). */
  reducedMotion?: boolean
  /** Called on every animation frame with the interval since the previous one, in ms. */
  onFrame?: (ms: number) => void
  /**
   * A fixed render scale in render pixels per CSS pixel. Turns adaptive resolution off; meant for
   * benchmarks and tests that must compare like with like.
   */
  resolutionScale?: number
  /** Highest render pixels per CSS pixel on dense screens (default 1.5). */
  maxPixelRatio?: number
  /** Scene time of the first frame, in seconds. Defaults to a random point so sessions differ. */
  timeOffset?: number
}

export interface FractalRenderer {
  /** What is drawing now. Changes from 'webgl2' to '2d' if the GPU context is lost for good. */
  readonly kind: 'webgl2' | '2d'
  /** The style being shown (after any fallback from a style that failed to compile). */
  readonly styleIndex: number
  /** The canvas being drawn on: a replacement after a permanent context loss (see destroy). */
  readonly canvas: HTMLCanvasElement
  /** Current render pixels per CSS pixel. */
  readonly scale: number
  readonly reducedMotion: boolean
  /** Starts the animation loop (idempotent). */
  start(): void
  /** Stops the loop and keeps the last frame on screen. */
  stop(): void
  /** Overrides `prefers-reduced-motion`. Motion slows at once, without a jump in the picture. */
  setReducedMotion(on: boolean): void
  setStyle(index: number): void
  setPalette(palette: [string, string, string]): void
  /** Re-reads the canvas's CSS size and device pixel ratio (also done by a ResizeObserver). */
  resize(): void
  /**
   * Draws the frame shown `seconds` of playback after the start, at the current motion speed,
   * and moves the clock there. Lets tests and screenshots be deterministic.
   */
  renderAt(seconds: number): void
  /** Stops, frees the GPU objects and listeners, and puts the original canvas back in place. */
  destroy(): void
}

/** How fast scene time runs with reduced motion on: the picture is nearly still. */
export const REDUCED_MOTION_SPEED = 0.05
/** A lost context that is not restored within this time is replaced by the 2D fallback. */
const RESTORE_TIMEOUT_MS = 3000
/** Smooth gradients lose nothing at half resolution, and it quarters the fill cost. */
const FALLBACK_SCALE = 0.5
/** Longest step of scene time per frame, so a stall resumes the motion instead of jumping it. */
const MAX_STEP_MS = 100

/**
 * Creates the fractal visuals on `canvas`. Never throws for missing or failing graphics: without
 * WebGL2, or when no style's shader compiles, it paints the calm 2D fallback instead (`kind`).
 * The canvas needs a CSS size (e.g. `width: 100%; height: 100%`): the renderer sets its
 * drawing-buffer size from that. Call `start()` to animate and `destroy()` when done.
 */
export function createFractalRenderer(
  canvas: HTMLCanvasElement,
  options: FractalRendererOptions,
): FractalRenderer {
  const original = canvas
  let target = canvas
  let palette = toPalette(options.palette)
  let styleIndex = pickStyle(options.style)
  let reducedOverride = options.reducedMotion ?? null
  const motionQuery =
    typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null
  const timeOffset = options.timeOffset ?? Math.random() * 600
  let sceneTime = timeOffset

  const fixedScale = options.resolutionScale
  const maxPixelRatio = options.maxPixelRatio ?? 1.5
  let pixelRatio = currentPixelRatio()
  let adaptive = new AdaptiveResolution(resolutionLadder(pixelRatio, maxPixelRatio))
  // A canvas outside the layout (clientWidth 0) keeps the size its attributes gave it.
  const attributeSize = { width: canvas.width || 300, height: canvas.height || 150 }
  let cssSize = { ...attributeSize }

  let frameRequest = 0
  let running = false
  let lastFrameAt: number | null = null
  let destroyed = false
  let restoreTimer: ReturnType<typeof setTimeout> | undefined

  const gl = createGlBackend(target, styleIndex, {
    onLost: handleContextLost,
    onRestored: handleContextRestored,
  })
  const usable = gl ? firstWorkingStyle(gl, styleIndex) : null
  if (usable !== null) styleIndex = usable
  let backend: Backend | null = gl ?? createFallbackBackend(target)

  const observer =
    typeof ResizeObserver === 'function' ? new ResizeObserver(() => resize()) : undefined
  observer?.observe(target)
  // WebGL2 is there but no style compiles: the canvas is taken by the GL context, so the
  // fallback needs a fresh one.
  if (gl && usable === null) switchToFallback()
  else resize()

  function speed(): number {
    const reduced = reducedOverride ?? motionQuery?.matches ?? false
    return reduced ? REDUCED_MOTION_SPEED : 1
  }

  function currentScale(): number {
    if (fixedScale !== undefined) return fixedScale
    return backend?.kind === '2d' ? Math.min(FALLBACK_SCALE, adaptive.scale) : adaptive.scale
  }

  function applySize() {
    const scale = currentScale()
    const width = Math.max(1, Math.round(cssSize.width * scale))
    const height = Math.max(1, Math.round(cssSize.height * scale))
    if (target.width !== width) target.width = width
    if (target.height !== height) target.height = height
  }

  function draw() {
    if (destroyed) return
    backend?.draw(sceneTime, palette)
  }

  function resize() {
    if (destroyed) return
    const ratio = currentPixelRatio()
    if (ratio !== pixelRatio) {
      pixelRatio = ratio
      adaptive = new AdaptiveResolution(resolutionLadder(pixelRatio, maxPixelRatio))
    }
    const width = target.clientWidth
    const height = target.clientHeight
    cssSize = width > 0 && height > 0 ? { width, height } : { ...attributeSize }
    applySize()
    // A new drawing-buffer size clears the canvas; redraw now rather than show a blank frame.
    draw()
  }

  function frame(now: number) {
    frameRequest = requestAnimationFrame(frame)
    if (lastFrameAt !== null) {
      const interval = now - lastFrameAt
      options.onFrame?.(interval)
      sceneTime += (Math.min(interval, MAX_STEP_MS) / 1000) * speed()
      if (fixedScale === undefined && adaptive.record(interval)) applySize()
    }
    lastFrameAt = now
    draw()
  }

  function start() {
    if (running || destroyed) return
    running = true
    lastFrameAt = null
    frameRequest = requestAnimationFrame(frame)
  }

  function stop() {
    running = false
    cancelAnimationFrame(frameRequest)
  }

  function handleContextLost() {
    clearTimeout(restoreTimer)
    restoreTimer = setTimeout(switchToFallback, RESTORE_TIMEOUT_MS)
  }

  function handleContextRestored() {
    clearTimeout(restoreTimer)
    const restored = backend?.kind === 'webgl2' ? (backend as GlBackend) : null
    if (!restored?.rebuild()) return switchToFallback()
    const working = firstWorkingStyle(restored, styleIndex)
    if (working === null) return switchToFallback()
    styleIndex = working
    draw()
  }

  // A canvas that has had a WebGL context can never give a 2D one, so the fallback after a lost
  // GPU draws on a copy of the element put in its place.
  function switchToFallback() {
    clearTimeout(restoreTimer)
    if (destroyed || backend?.kind === '2d') return
    backend?.destroy()
    const replacement = target.cloneNode(false) as HTMLCanvasElement
    observer?.unobserve(target)
    target.replaceWith(replacement)
    target = replacement
    observer?.observe(target)
    backend = createFallbackBackend(target)
    resize()
  }

  return {
    get kind() {
      return backend?.kind ?? '2d'
    },
    get styleIndex() {
      return styleIndex
    },
    get canvas() {
      return target
    },
    get scale() {
      return currentScale()
    },
    get reducedMotion() {
      return speed() !== 1
    },
    start,
    stop,
    setReducedMotion(on: boolean) {
      reducedOverride = on
    },
    setStyle(index: number) {
      const wanted = normaliseStyle(index)
      if (backend?.kind === 'webgl2') {
        const working = firstWorkingStyle(backend as GlBackend, wanted)
        if (working === null) return switchToFallback()
        styleIndex = working
      } else {
        styleIndex = wanted
      }
      draw()
    },
    setPalette(colours: [string, string, string]) {
      palette = toPalette(colours)
      draw()
    },
    resize,
    renderAt(seconds: number) {
      sceneTime = timeOffset + seconds * speed()
      draw()
    },
    destroy() {
      if (destroyed) return
      stop()
      destroyed = true
      clearTimeout(restoreTimer)
      observer?.disconnect()
      backend?.destroy()
      backend = null
      if (target !== original) target.replaceWith(original)
    },
  }
}

function currentPixelRatio(): number {
  return typeof devicePixelRatio === 'number' && devicePixelRatio > 0 ? devicePixelRatio : 1
}

function normaliseStyle(index: number): number {
  const count = FRACTAL_STYLES.length
  const whole = Number.isFinite(index) ? Math.trunc(index) : 0
  return ((whole % count) + count) % count
}

function pickStyle(style: number | 'random' | undefined): number {
  if (typeof style === 'number') return normaliseStyle(style)
  return Math.floor(Math.random() * FRACTAL_STYLES.length)
}
