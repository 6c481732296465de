import type { Backend } from './backend'
import { cssColour, mixColours, type Palette } from './palette'

/** Ripples start this often and take this long to grow and fade, in scene seconds. */
const RIPPLE_PERIOD = 14
const RIPPLES = 3

/**
 * Paints one frame of the fallback used when WebGL2 is missing or lost: a slowly turning linear
 * gradient from deep to mid, two soft light glows drifting on long Lissajous paths, and faint
 * rings that swell from the centre and fade. Every change is a slow drift of a few percent of
 * luminance, so it cannot flash; it costs a handful of gradient fills per frame.
 */
export function paintFallback(
  context: CanvasRenderingContext2D,
  width: number,
  height: number,
  time: number,
  palette: Palette,
): void {
  const { deep, mid, light } = palette
  const cx = width / 2
  const cy = height / 2
  const reach = Math.hypot(width, height) / 2
  const shortSide = Math.min(width, height)

  const angle = time * 0.03
  const dx = Math.cos(angle) * reach
  const dy = Math.sin(angle) * reach
  const base = context.createLinearGradient(cx - dx, cy - dy, cx + dx, cy + dy)
  base.addColorStop(0, cssColour(deep))
  base.addColorStop(0.55, cssColour(mixColours(deep, mid, 0.6)))
  base.addColorStop(1, cssColour(mid))
  context.fillStyle = base
  context.fillRect(0, 0, width, height)

  for (const [index, phase] of [0, 2.1].entries()) {
    const gx = cx + Math.cos(time * 0.041 + phase) * width * 0.28
    const gy = cy + Math.sin(time * 0.029 + phase * 1.7) * height * 0.24
    const radius = shortSide * (0.55 + 0.1 * Math.sin(time * 0.05 + index))
    const glow = context.createRadialGradient(gx, gy, 0, gx, gy, radius)
    glow.addColorStop(0, cssColour(light, 0.22))
    glow.addColorStop(0.45, cssColour(mixColours(mid, light, 0.5), 0.1))
    glow.addColorStop(1, cssColour(mid, 0))
    context.fillStyle = glow
    context.fillRect(0, 0, width, height)
  }

  // Each ripple is a soft band (a radial gradient that is clear, then faintly light, then clear).
  const band = shortSide * 0.06
  for (let ring = 0; ring < RIPPLES; ring += 1) {
    const phase = (((time / RIPPLE_PERIOD + ring / RIPPLES) % 1) + 1) % 1
    // sin(pi * phase) fades each ring in and out, so none appears or vanishes abruptly.
    const alpha = 0.12 * Math.sin(Math.PI * phase)
    const radius = shortSide * (0.1 + 0.65 * phase)
    const ripple = context.createRadialGradient(
      cx,
      cy,
      Math.max(0, radius - band),
      cx,
      cy,
      radius + band,
    )
    ripple.addColorStop(0, cssColour(light, 0))
    ripple.addColorStop(0.5, cssColour(light, alpha))
    ripple.addColorStop(1, cssColour(light, 0))
    context.fillStyle = ripple
    context.fillRect(0, 0, width, height)
  }
}

/** The 2D fallback as a renderer backend; null when the canvas gives no 2D context either. */
export function createFallbackBackend(canvas: HTMLCanvasElement): Backend | null {
  let context: CanvasRenderingContext2D | null = null
  try {
    context = canvas.getContext('2d', { alpha: false })
  } catch {
    context = null
  }
  if (!context) return null
  const painter = context
  return {
    kind: '2d',
    draw(time: number, palette: Palette) {
      paintFallback(painter, canvas.width, canvas.height, time, palette)
      return true
    },
    destroy() {},
  }
}
