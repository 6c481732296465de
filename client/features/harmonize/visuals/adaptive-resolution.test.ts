import { describe, expect, it } from 'vitest'
import { AdaptiveResolution, resolutionLadder } from './adaptive-resolution'

/** Feeds `count` frames of `ms` each and returns the scales seen after every change. */
function feed(policy: AdaptiveResolution, ms: number | ((scale: number) => number), count: number) {
  const seen: number[] = []
  for (let i = 0; i < count; i += 1) {
    const interval = typeof ms === 'number' ? ms : ms(policy.scale)
    if (policy.record(interval)) seen.push(policy.scale)
  }
  return seen
}

/** A GPU-bound device: the frame time is proportional to the pixels drawn. */
const gpuBound = (fullScaleMs: number) => (scale: number) => fullScaleMs * scale * scale

describe('resolutionLadder', () => {
  it('starts at the device pixel ratio, capped, then the fixed steps below it', () => {
    expect(resolutionLadder(1)).toEqual([1, 0.75, 0.5, 0.35])
    expect(resolutionLadder(3)).toEqual([1.5, 1, 0.75, 0.5, 0.35])
    expect(resolutionLadder(2, 2)).toEqual([2, 1, 0.75, 0.5, 0.35])
    expect(resolutionLadder(0.9)).toEqual([0.9, 0.75, 0.5, 0.35])
    expect(resolutionLadder(Number.NaN)).toEqual([1, 0.75, 0.5, 0.35])
  })
})

describe('AdaptiveResolution', () => {
  it('starts at one render pixel per CSS pixel, below a dense screen’s ratio', () => {
    expect(new AdaptiveResolution(resolutionLadder(3)).scale).toBe(1)
  })

  it('keeps the scale while frames are on time', () => {
    const policy = new AdaptiveResolution(resolutionLadder(1))
    expect(feed(policy, 16.7, 600)).toEqual([])
    expect(policy.scale).toBe(1)
  })

  it('steps down one rung at a time until a GPU-bound device holds the frame rate', () => {
    const policy = new AdaptiveResolution(resolutionLadder(1))
    // 45 ms at full size: 0.75 gives 25 ms (still slow), 0.5 gives 11 ms.
    const seen = feed(policy, gpuBound(45), 200)
    expect(seen.slice(0, 2)).toEqual([0.75, 0.5])
    expect(policy.scale).toBeLessThanOrEqual(0.75)
  })

  it('ignores a single hitch and stalls such as a hidden tab', () => {
    const policy = new AdaptiveResolution(resolutionLadder(1))
    const intervals = [...Array(40).fill(16.7), 120, ...Array(40).fill(16.7), 5000, 16.7, 16.7]
    for (const ms of intervals) policy.record(ms)
    expect(policy.scale).toBe(1)
  })

  it('undoes a step down that did not help (a display capped at 30 Hz)', () => {
    const policy = new AdaptiveResolution(resolutionLadder(1))
    const seen = feed(policy, 33.3, 400)
    expect(seen[0]).toBe(0.75)
    expect(seen[1]).toBe(1)
    // Held: it does not keep pumping down and up every second.
    expect(seen.length).toBeLessThanOrEqual(4)
    expect(policy.scale).toBe(1)
  })

  it('probes a sharper step when there is headroom, and backs off after a failed try', () => {
    const policy = new AdaptiveResolution(resolutionLadder(1), 0.5)
    expect(policy.scale).toBe(0.5)
    // 30 ms at full size: 0.75 gives 17 ms (fine), 1 is too slow.
    const seen = feed(policy, gpuBound(30), 3000)
    expect(seen[0]).toBe(0.75)
    expect(seen).toContain(1)
    const tries = seen.filter((scale) => scale === 1).length
    // ~50 s of frames: with doubling waits only a few tries at 1 fit, not one every 4 s.
    expect(tries).toBeGreaterThanOrEqual(1)
    expect(tries).toBeLessThanOrEqual(4)
    expect(policy.scale).toBe(0.75)
  })

  it('comes back to full resolution once the load goes away', () => {
    const policy = new AdaptiveResolution(resolutionLadder(1))
    feed(policy, gpuBound(45), 200)
    expect(policy.scale).toBeLessThan(1)
    feed(policy, 10, 2000)
    expect(policy.scale).toBe(1)
  })
})
