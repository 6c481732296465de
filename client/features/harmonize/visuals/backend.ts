import type { Palette } from './palette'

/** What draws the session's picture: WebGL2 shaders, or the 2D fallback. */
export interface Backend {
  readonly kind: 'webgl2' | '2d'
  /** Draws a frame; false when it cannot (context lost). */
  draw(time: number, palette: Palette): boolean
  destroy(): void
}
