import { useCallback, useEffect, useState } from 'react'
import type { PanelDetail } from '../../../domain/panels'
import type { MediaSources } from './use-media-sources'
import { createFractalRenderer, type FractalRenderer } from './visuals/renderer'

interface SessionVisualOptions {
  panel: PanelDetail
  sources: MediaSources | null
  /** Calm motion: the renderer's slow mode, never an uploaded video. */
  calm: boolean
  /** Calm motion chosen on the screen; null follows the system setting (live). */
  calmChoice: boolean | null
  /** The picture moves while this is true and holds its frame otherwise. */
  playing: boolean
}

/**
 * The session's picture: an uploaded video when there is one that loads, else the fractal
 * renderer. Calm motion always uses the renderer's calm mode: we cannot vouch that an uploaded
 * video never flashes. Turning it on or off mid-session swaps the two; the newcomer picks up
 * where the session is, since both simply follow `playing`.
 */
export function useSessionVisual({
  panel,
  sources,
  calm,
  calmChoice,
  playing,
}: SessionVisualOptions) {
  const [video, setVideo] = useState<HTMLVideoElement | null>(null)
  const [videoReady, setVideoReady] = useState(false)
  const [videoFailed, setVideoFailed] = useState(false)
  // A state, not a ref: the canvas element comes and goes with calm motion.
  const [canvas, setCanvas] = useState<HTMLCanvasElement | null>(null)
  const [renderer, setRenderer] = useState<FractalRenderer | null>(null)
  const showVideo = Boolean(sources?.video) && !videoFailed && !calm

  useEffect(() => {
    if (!canvas) return
    const created = createFractalRenderer(canvas, { palette: panel.palette, style: 'random' })
    created.renderAt(0)
    setRenderer(created)
    return () => {
      created.destroy()
      setRenderer(null)
    }
  }, [panel.palette, canvas])

  useEffect(() => {
    if (renderer && calmChoice !== null) renderer.setReducedMotion(calmChoice)
  }, [renderer, calmChoice])

  useEffect(() => {
    if (showVideo) {
      if (playing) void video?.play().catch(() => {})
      else video?.pause()
    } else if (playing) renderer?.start()
    else renderer?.stop()
  }, [showVideo, playing, video, renderer])

  const videoRef = useCallback((element: HTMLVideoElement | null) => {
    setVideo(element)
    // A saved copy can be ready before React listens for canplay.
    if (element && element.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA) setVideoReady(true)
  }, [])

  return {
    showVideo,
    ready: showVideo ? videoReady : Boolean(renderer),
    videoProps: {
      ref: videoRef,
      src: sources?.video ?? undefined,
      onCanPlay: () => setVideoReady(true),
      onError: () => setVideoFailed(true),
    },
    canvasRef: setCanvas,
  }
}
