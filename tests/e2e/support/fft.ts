// A small spectrum analyser for the audio tests: radix-2 FFT, Hann window, and peak frequencies
// refined by parabolic interpolation. Enough to tell 432.0 Hz from 432.5 Hz; not a DSP library.

/** Magnitude spectrum of a signal, one value per bin from 0 Hz to the Nyquist frequency. */
export interface Spectrum {
  magnitudes: Float64Array
  /** Width of one bin in Hz. */
  binHz: number
}

/** A spectral peak: its interpolated frequency and its amplitude as a sine's peak amplitude. */
export interface Peak {
  hz: number
  amplitude: number
}

/**
 * In-place iterative radix-2 FFT of `re` + i·`im`; the length must be a power of two.
 */
export function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length
  if (n !== im.length || (n & (n - 1)) !== 0) throw new Error('FFT size must be a power of two')
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1
    for (; j & bit; bit >>= 1) j ^= bit
    j ^= bit
    if (i < j) {
      ;[re[i], re[j]] = [re[j] as number, re[i] as number]
      ;[im[i], im[j]] = [im[j] as number, im[i] as number]
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const angle = (-2 * Math.PI) / size
    const stepRe = Math.cos(angle)
    const stepIm = Math.sin(angle)
    const half = size >> 1
    for (let start = 0; start < n; start += size) {
      let wRe = 1
      let wIm = 0
      for (let k = 0; k < half; k++) {
        const a = start + k
        const b = a + half
        const bRe = re[b] as number
        const bIm = im[b] as number
        const tRe = bRe * wRe - bIm * wIm
        const tIm = bRe * wIm + bIm * wRe
        const aRe = re[a] as number
        const aIm = im[a] as number
        re[b] = aRe - tRe
        im[b] = aIm - tIm
        re[a] = aRe + tRe
        im[a] = aIm + tIm
        const nextRe = wRe * stepRe - wIm * stepIm
        wIm = wRe * stepIm + wIm * stepRe
        wRe = nextRe
      }
    }
  }
}

/**
 * Hann-windowed magnitude spectrum of `samples` (whose length must be a power of two),
 * zero-padded `padding` times for a finer grid. Magnitudes are scaled so that a sine of
 * amplitude A centred on a bin reads A.
 */
export function spectrum(samples: ArrayLike<number>, sampleRate: number, padding = 1): Spectrum {
  const length = samples.length
  const size = length * padding
  const re = new Float64Array(size)
  const im = new Float64Array(size)
  let windowSum = 0
  for (let i = 0; i < length; i++) {
    const w = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / length)
    windowSum += w
    re[i] = (samples[i] as number) * w
  }
  fft(re, im)
  const magnitudes = new Float64Array(size / 2 + 1)
  for (let k = 0; k < magnitudes.length; k++) {
    magnitudes[k] = (2 * Math.hypot(re[k] as number, im[k] as number)) / windowSum
  }
  return { magnitudes, binHz: sampleRate / size }
}

/**
 * The strongest peak within `hz` ± `searchHz`, its frequency refined by fitting a parabola
 * through the log magnitudes of the top bin and its neighbours.
 */
export function peakNear(spec: Spectrum, hz: number, searchHz: number): Peak {
  const { magnitudes, binHz } = spec
  const from = Math.max(1, Math.floor((hz - searchHz) / binHz))
  const to = Math.min(magnitudes.length - 2, Math.ceil((hz + searchHz) / binHz))
  let best = from
  for (let k = from; k <= to; k++) {
    if ((magnitudes[k] as number) > (magnitudes[best] as number)) best = k
  }
  // The tiny floor keeps log() finite where a test looks for a tone that is rightly absent.
  const log = (k: number) => Math.log((magnitudes[k] as number) + 1e-30)
  const left = log(best - 1)
  const centre = log(best)
  const right = log(best + 1)
  const denominator = left - 2 * centre + right
  const offset = denominator === 0 ? 0 : (0.5 * (left - right)) / denominator
  const amplitude = Math.exp(centre - 0.25 * (left - right) * offset)
  return { hz: (best + offset) * binHz, amplitude }
}

/** Decibels of `amplitude` relative to `reference`. */
export function decibels(amplitude: number, reference: number): number {
  return 20 * Math.log10(amplitude / reference)
}
