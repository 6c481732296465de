// Picks the render resolution from measured frame intervals, so a fractal that is too heavy for
// a phone's GPU gets fewer pixels instead of a stuttering frame rate. Pure: it sees numbers only,
// which keeps the policy testable without a browser.

/** Render pixels per CSS pixel below the screen's own ratio, from sharp to soft. */
export const RESOLUTION_STEPS = [1, 0.75, 0.5, 0.35] as const

/**
 * The scales (render pixels per CSS pixel) the renderer may use, sharpest first: the device pixel
 * ratio capped at `maxPixelRatio`, then the fixed steps below it. Fractal detail gains little
 * above 1.5 and costs the square of the ratio, hence the cap.
 */
export function resolutionLadder(devicePixelRatio: number, maxPixelRatio = 1.5): number[] {
  const top = Math.max(
    RESOLUTION_STEPS[RESOLUTION_STEPS.length - 1] ?? 0.35,
    Math.min(devicePixelRatio || 1, maxPixelRatio),
  )
  return [top, ...RESOLUTION_STEPS.filter((step) => step < top)]
}

export interface AdaptiveResolutionOptions {
  /** A window median above this is too slow (default: below ~45 fps). */
  slowMs?: number
  /** A window median below this leaves room for a sharper step (default: 60 Hz, with slack). */
  fastMs?: number
  /** Fast frames for this long before trying a sharper step; doubles after each failed try. */
  probeAfterMs?: number
  /** Longest wait between tries at a sharper step. */
  maxProbeAfterMs?: number
  /** Do not step down again this long after a step down did not help; doubles each time. */
  holdMs?: number
  /** Longest such hold. */
  maxHoldMs?: number
}

/**
 * Intervals longer than this are stalls (a hidden tab, a long compile), not load. Set high on
 * purpose: a device drawing 3 frames a second is exactly the one that must step down.
 */
const STALL_MS = 1000
/** Frames right after a resize pay for reallocating the drawing buffer; they are not measured. */
const WARM_UP_FRAMES = 2
/** A window ends when it holds this many frames and this much time. */
const WINDOW_FRAMES = 6
const WINDOW_MS = 500
/** A step down must make frames at least this much shorter to be kept. */
const MIN_GAIN = 0.92

/**
 * Adaptive resolution with hysteresis. Frame intervals are grouped into windows of about half a
 * second and judged by their median, so a single hitch changes nothing.
 * - A slow window steps one rung down the ladder.
 * - If the next window is not at least 8% faster, the pixels were not the bottleneck (a display
 *   or battery saver capped at 30 Hz, a busy main thread): the step is undone and no further step
 *   down is tried for `holdMs` (doubling each time), instead of blurring the picture for nothing.
 * - After `probeAfterMs` of fast windows it tries one rung up; when that proves slow it steps back
 *   down and waits twice as long before the next try, so the scale settles instead of pumping.
 */
export class AdaptiveResolution {
  readonly ladder: readonly number[]
  #index: number
  #slowMs: number
  #fastMs: number
  #probeBaseMs: number
  #maxProbeMs: number
  #holdBaseMs: number
  #maxHoldMs: number
  #holdMs: number

  #clock = 0
  #window: number[] = []
  #windowMs = 0
  #warmUp = WARM_UP_FRAMES
  #lastChangeAt = 0
  #probeAfterMs: number
  #holdUntil = 0
  #probing = false
  /** Set after a step down until the next window shows whether it helped. */
  #verify: { fromIndex: number; medianBefore: number } | null = null

  constructor(ladder: readonly number[], startScale = 1, options: AdaptiveResolutionOptions = {}) {
    if (ladder.length === 0) throw new Error('The resolution ladder is empty.')
    this.ladder = ladder
    const start = ladder.findIndex((scale) => scale <= startScale)
    this.#index = start === -1 ? ladder.length - 1 : start
    this.#slowMs = options.slowMs ?? 1000 / 45
    this.#fastMs = options.fastMs ?? 18
    this.#probeBaseMs = options.probeAfterMs ?? 4000
    this.#maxProbeMs = options.maxProbeAfterMs ?? 60_000
    this.#holdBaseMs = options.holdMs ?? 20_000
    this.#maxHoldMs = options.maxHoldMs ?? 300_000
    this.#holdMs = this.#holdBaseMs
    this.#probeAfterMs = this.#probeBaseMs
  }

  /** Render pixels per CSS pixel. */
  get scale(): number {
    return this.ladder[this.#index] ?? 1
  }

  /** Feeds the interval since the previous frame; returns true when `scale` changed. */
  record(frameMs: number): boolean {
    if (!(frameMs > 0)) return false
    if (frameMs > STALL_MS) {
      this.#resetWindow()
      return false
    }
    this.#clock += frameMs
    if (this.#warmUp > 0) {
      this.#warmUp -= 1
      return false
    }
    this.#window.push(frameMs)
    this.#windowMs += frameMs
    if (this.#window.length < WINDOW_FRAMES || this.#windowMs < WINDOW_MS) return false
    const median = medianOf(this.#window)
    this.#resetWindow()
    return this.#judge(median)
  }

  #judge(median: number): boolean {
    const last = this.ladder.length - 1
    if (this.#verify) {
      const { fromIndex, medianBefore } = this.#verify
      this.#verify = null
      if (median > medianBefore * MIN_GAIN && median > this.#fastMs) {
        this.#holdUntil = this.#clock + this.#holdMs
        this.#holdMs = Math.min(this.#holdMs * 2, this.#maxHoldMs)
        return this.#moveTo(fromIndex)
      }
      this.#holdMs = this.#holdBaseMs
    }
    if (median > this.#slowMs) {
      if (this.#index >= last || this.#clock < this.#holdUntil) return false
      if (this.#probing) {
        // The sharper step we tried cannot hold the frame rate: back off for longer.
        this.#probeAfterMs = Math.min(this.#probeAfterMs * 2, this.#maxProbeMs)
      } else {
        this.#verify = { fromIndex: this.#index, medianBefore: median }
      }
      return this.#moveTo(this.#index + 1)
    }
    if (this.#probing) {
      this.#probing = false
      this.#probeAfterMs = this.#probeBaseMs
    }
    if (
      median < this.#fastMs &&
      this.#index > 0 &&
      this.#clock - this.#lastChangeAt >= this.#probeAfterMs
    ) {
      const changed = this.#moveTo(this.#index - 1)
      this.#probing = true
      return changed
    }
    return false
  }

  #moveTo(index: number): boolean {
    this.#probing = false
    this.#lastChangeAt = this.#clock
    this.#warmUp = WARM_UP_FRAMES
    if (index === this.#index) return false
    this.#index = index
    return true
  }

  #resetWindow() {
    this.#window = []
    this.#windowMs = 0
  }
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}
