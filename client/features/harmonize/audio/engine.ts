import {
  PAD_CHORD_SECONDS,
  PAD_PEDAL,
  PAD_VOICINGS,
  type PadNote,
  SCHUMANN_CARRIER_HZ,
  SCHUMANN_HZ,
} from './tuning'

// The session's sound as one Web Audio graph, generated on the device (principle 4: nothing to
// download). Framework-free so it runs the same in an AudioContext, in an OfflineAudioContext
// inside a test, or bundled alone.
//
//   pad: 11 notes × (exact sine + detuned voice),
//        4 chords crossfaded by 0.025 Hz LFOs ──┐
//   A4 pedal 432 Hz ─────────────────────────────┴─ low-pass ── backing ──┐
//   Solfeggio sine (+ layered tones) ─────────────────────────── solfeggio ─┼─ master ─ fade ─ out
//   216 Hz │ 223.83 Hz → merger (binaural) ──┐                             │
//   216 Hz × (0.6 + 0.4 sin 7.83 Hz) (AM) ───┴──────────────── schumann ──┘

/** The gains a listener can set: the whole mix or one of the three layers. */
export type HarmonizeLayer = 'master' | 'backing' | 'solfeggio' | 'schumann'

/** Volumes from 0 (silent) to 1 (the designed level), by layer. */
export type HarmonizeVolumes = Record<HarmonizeLayer, number>

/** Default seconds from silence to full level when a session starts. */
export const FADE_IN_SECONDS = 3

/** Default seconds from full level to silence when a session stops. */
export const FADE_OUT_SECONDS = 2

/**
 * Gain of each layer at volume 1. With every volume at 1 the sum of all layers' peak amplitudes
 * stays below 0.65 (pad ≤ 0.41, Solfeggio 0.08, Schumann 0.1 per ear), so the mix never clips
 * and leaves headroom for the device.
 */
export const LAYER_LEVELS: Readonly<HarmonizeVolumes> = {
  master: 1,
  backing: 1,
  solfeggio: 0.08,
  schumann: 0.1,
}

/** Level of an uploaded backing track, which is usually mastered near full scale. */
export const EXTERNAL_BACKING_LEVEL = 0.4

// Amplitude of a chord's notes from the bass up: the low notes carry the warmth.
const NOTE_LEVELS = [0.09, 0.07, 0.055, 0.045]
const PEDAL_LEVEL = 0.06
// Each note also sounds a soft, slightly detuned second voice; the slow beating against the exact
// voice is what makes the pad feel alive. The exact voice stays the loudest, so every note's
// spectral peak is at its exact 432-derived frequency.
const WARM_VOICE_LEVEL = 0.35
const WARM_VOICE_DETUNE_CENTS = 4
// Harmonics 1, 2 and 4 only: no third harmonic, whose equal-tempered near-misses (3 × D3 =
// 432.49 Hz) would blur the exact 432 Hz peak.
const WARM_VOICE_HARMONICS = [0, 1, 0.35, 0, 0.1]
const PAD_LOWPASS_HZ = 1400
// Web Audio's low-pass Q is in dB; -3.01 dB is Q = 1/√2 (Butterworth): no resonant bump.
const PAD_LOWPASS_Q_DB = -3.0103
// AM mode: the carrier's gain swings between 0.2 and 1.
const AM_DEPTH = 0.8
// Time constant of volume and mode changes: settled within 1 % after about 0.25 s, smooth
// enough to avoid zipper noise, quick enough to feel immediate.
const SMOOTHING_SECONDS = 0.05
const BINAURAL_SWITCH_SECONDS = 0.15
// Sources stop a little after the fade-out has reached exactly 0, so stopping is inaudible.
const STOP_MARGIN_SECONDS = 0.05
const MIN_FADE_SECONDS = 0.05

/** What {@link createHarmonizeGraph} needs. */
export interface HarmonizeGraphOptions {
  /** The panel's Solfeggio tone in Hz (one of SOLFEGGIO_HZ in the app). */
  solfeggioHz: number
  /**
   * Further panels' tones sounding with it (a Multi Layer Rx session). They share the Solfeggio
   * layer's level with the first tone, so layering never makes the mix louder or clip.
   */
  layeredHz?: readonly number[]
  /** true: binaural pair 216 / 223.83 Hz; false: 216 Hz amplitude-modulated at 7.83 Hz. */
  binaural: boolean
  /** Initial volumes, 0–1 each; missing layers are at 1. */
  volumes?: Partial<HarmonizeVolumes>
  /** Where the mix goes: the context's destination unless given; null leaves it unconnected. */
  destination?: AudioNode | null
  /** A source (e.g. an uploaded track's MediaElementAudioSourceNode) replacing the generated pad. */
  backing?: AudioNode
  fadeInSeconds?: number
  fadeOutSeconds?: number
}

/** The nodes of a graph, for tests and for visualisers (e.g. an AnalyserNode on `fade`). */
export interface HarmonizeNodes {
  /** The fade envelope (0 → 1 → 0) and the graph's output. */
  fade: GainNode
  master: GainNode
  backing: GainNode
  solfeggio: GainNode
  schumann: GainNode
  /** The pad's low-pass; absent when an external backing source replaces the pad. */
  padFilter: BiquadFilterNode | null
  /** The first panel's tone. */
  solfeggioOscillator: OscillatorNode
  /** Every tone of the Solfeggio layer, the first panel's first. */
  toneOscillators: OscillatorNode[]
  /** 216 Hz: the left ear in binaural mode, the modulated carrier in AM mode. */
  carrier: OscillatorNode
  /** 223.83 Hz: the right ear in binaural mode. */
  beatCarrier: OscillatorNode
  /** 7.83 Hz modulator of AM mode. */
  schumannLfo: OscillatorNode
  binauralMix: GainNode
  amMix: GainNode
}

/** Controls of one session's sound. A graph plays once: build a new one for the next session. */
export interface HarmonizeGraph {
  readonly context: BaseAudioContext
  readonly nodes: HarmonizeNodes
  /** 'idle' before start, 'playing' after, 'stopping' during the fade-out, then 'stopped'. */
  readonly state: 'idle' | 'playing' | 'stopping' | 'stopped'
  readonly binaural: boolean
  /** Starts every source and fades in from exactly 0 (default: now). Later calls do nothing. */
  start(at?: number): void
  /**
   * Fades out from `at` (default: now) to exactly 0, then stops every source. Resolves once the
   * sources have ended; calling it again returns the same promise.
   */
  stop(at?: number): Promise<void>
  /** Moves a layer's volume (0–1) smoothly to `value`. */
  setVolume(layer: HarmonizeLayer, value: number): void
  /** Crossfades the Schumann layer between binaural and amplitude-modulated. */
  setBinaural(on: boolean): void
  /** Detaches the graph from its destination and from an external backing source. */
  disconnect(): void
}

/**
 * Builds the session's Web Audio graph in `context`: a 432 Hz-tuned backing pad (or an external
 * backing source), the panel's Solfeggio sine and the 7.83 Hz Schumann layer, each with its own
 * gain, under a master gain and a click-free fade envelope. Nothing sounds until `start()`.
 */
export function createHarmonizeGraph(
  context: BaseAudioContext,
  options: HarmonizeGraphOptions,
): HarmonizeGraph {
  const { solfeggioHz } = options
  // Two panels may share a tone: it sounds once, not twice as loud.
  const tones = [...new Set([solfeggioHz, ...(options.layeredHz ?? [])])]
  for (const hz of tones) {
    if (!Number.isFinite(hz) || hz <= 0 || hz >= context.sampleRate / 2) {
      throw new RangeError(`solfeggioHz must be between 0 and ${context.sampleRate / 2} Hz`)
    }
  }
  const fadeIn = Math.max(options.fadeInSeconds ?? FADE_IN_SECONDS, MIN_FADE_SECONDS)
  const fadeOut = Math.max(options.fadeOutSeconds ?? FADE_OUT_SECONDS, MIN_FADE_SECONDS)
  const volumes: HarmonizeVolumes = { master: 1, backing: 1, solfeggio: 1, schumann: 1 }
  for (const layer of Object.keys(volumes) as HarmonizeLayer[]) {
    volumes[layer] = clampVolume(options.volumes?.[layer] ?? 1)
  }

  const sources: OscillatorNode[] = []
  const oscillator = (frequency: number, type: OscillatorType = 'sine') => {
    const node = new OscillatorNode(context, { type, frequency })
    sources.push(node)
    return node
  }
  const gain = (value: number) => new GainNode(context, { gain: value })

  // Output chain. The fade starts at exactly 0 so nothing is heard before start().
  const fade = gain(0)
  const master = gain(LAYER_LEVELS.master * volumes.master)
  master.connect(fade)
  const destination = options.destination === undefined ? context.destination : options.destination
  if (destination) fade.connect(destination)
  const layerGain = (layer: Exclude<HarmonizeLayer, 'master'>) => {
    const node = gain(LAYER_LEVELS[layer] * volumes[layer])
    node.connect(master)
    return node
  }
  const backing = layerGain('backing')
  const solfeggio = layerGain('solfeggio')
  const schumann = layerGain('schumann')

  // (a) Backing: the generated pad, or the external source at a safe level.
  let padFilter: BiquadFilterNode | null = null
  let externalTrim: GainNode | null = null
  if (options.backing) {
    externalTrim = gain(EXTERNAL_BACKING_LEVEL)
    options.backing.connect(externalTrim)
    externalTrim.connect(backing)
  } else {
    padFilter = new BiquadFilterNode(context, {
      type: 'lowpass',
      frequency: PAD_LOWPASS_HZ,
      Q: PAD_LOWPASS_Q_DB,
    })
    padFilter.connect(backing)
    buildPad(context, padFilter, oscillator, gain)
  }

  // (b) Solfeggio: one pure sine at exactly the panel's frequency, or one per layered panel,
  // each at an equal share of the layer so their peaks together stay at one tone's level.
  const toneShare = tones.length > 1 ? gain(1 / tones.length) : null
  if (toneShare) toneShare.connect(solfeggio)
  const toneOscillators = tones.map((hz) => {
    const node = oscillator(hz)
    node.connect(toneShare ?? solfeggio)
    return node
  })
  const [solfeggioOscillator] = toneOscillators as [OscillatorNode, ...OscillatorNode[]]

  // (c) Schumann. Both modes are built and crossfaded, so switching never restarts a source.
  const carrier = oscillator(SCHUMANN_CARRIER_HZ)
  const beatCarrier = oscillator(SCHUMANN_CARRIER_HZ + SCHUMANN_HZ)
  const merger = new ChannelMergerNode(context, { numberOfInputs: 2 })
  carrier.connect(merger, 0, 0)
  beatCarrier.connect(merger, 0, 1)
  const binauralMix = gain(options.binaural ? 1 : 0)
  merger.connect(binauralMix)
  binauralMix.connect(schumann)

  const schumannLfo = oscillator(SCHUMANN_HZ)
  const amVca = gain(1 - AM_DEPTH / 2)
  const amDepth = gain(AM_DEPTH / 2)
  schumannLfo.connect(amDepth)
  amDepth.connect(amVca.gain)
  carrier.connect(amVca)
  const amMix = gain(options.binaural ? 0 : 1)
  amVca.connect(amMix)
  amMix.connect(schumann)

  const layerParams: Record<HarmonizeLayer, AudioParam> = {
    master: master.gain,
    backing: backing.gain,
    solfeggio: solfeggio.gain,
    schumann: schumann.gain,
  }

  let state: HarmonizeGraph['state'] = 'idle'
  let binaural = options.binaural
  let startedAt = 0
  let stopped: Promise<void> | null = null

  return {
    context,
    nodes: {
      fade,
      master,
      backing,
      solfeggio,
      schumann,
      padFilter,
      solfeggioOscillator,
      toneOscillators,
      carrier,
      beatCarrier,
      schumannLfo,
      binauralMix,
      amMix,
    },
    get state() {
      return state
    },
    get binaural() {
      return binaural
    },
    start(at) {
      if (state !== 'idle') return
      startedAt = Math.max(at ?? context.currentTime, context.currentTime)
      // A linear ramp from an explicit 0: the first sample is silent and the slope is gentle,
      // so the start cannot click.
      fade.gain.setValueAtTime(0, startedAt)
      fade.gain.linearRampToValueAtTime(1, startedAt + fadeIn)
      for (const source of sources) source.start(startedAt)
      state = 'playing'
    },
    stop(at) {
      if (stopped) return stopped
      if (state === 'idle') {
        state = 'stopped'
        stopped = Promise.resolve()
        return stopped
      }
      const from = Math.max(at ?? context.currentTime, context.currentTime, startedAt)
      const fadeInEnd = startedAt + fadeIn
      // Rebuild the envelope from `from` on with the value it has there, so a stop during the
      // fade-in turns round without a jump. cancelScheduledValues drops the fade-in's end event
      // when `from` is before it; the ramp to `level` then continues the same line.
      const param = fade.gain
      param.cancelScheduledValues(from)
      if (from > fadeInEnd) param.setValueAtTime(1, from)
      else if (from > startedAt) param.linearRampToValueAtTime((from - startedAt) / fadeIn, from)
      else param.setValueAtTime(0, from)
      param.linearRampToValueAtTime(0, from + fadeOut)
      const end = from + fadeOut + STOP_MARGIN_SECONDS
      stopped = new Promise<void>((resolve) => {
        const sentinel = sources[sources.length - 1]
        if (sentinel) sentinel.addEventListener('ended', () => resolve(), { once: true })
        else resolve()
      }).then(() => {
        state = 'stopped'
      })
      for (const source of sources) source.stop(end)
      state = 'stopping'
      return stopped
    },
    setVolume(layer, value) {
      volumes[layer] = clampVolume(value)
      smoothTo(layerParams[layer], LAYER_LEVELS[layer] * volumes[layer], SMOOTHING_SECONDS)
    },
    setBinaural(on) {
      if (on === binaural) return
      binaural = on
      smoothTo(binauralMix.gain, on ? 1 : 0, BINAURAL_SWITCH_SECONDS)
      smoothTo(amMix.gain, on ? 0 : 1, BINAURAL_SWITCH_SECONDS)
    },
    disconnect() {
      fade.disconnect()
      if (options.backing && externalTrim) options.backing.disconnect(externalTrim)
    },
  }

  function smoothTo(param: AudioParam, value: number, timeConstant: number) {
    // An exponential approach from whatever the current value is: no steps, no zipper noise,
    // and a later change simply takes over from where this one has got to.
    param.setTargetAtTime(value, context.currentTime, timeConstant)
  }
}

function clampVolume(value: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0
}

/**
 * The pad: each distinct note is one exact sine plus one soft, detuned warm voice, shared by the
 * chords that contain it. Each chord has a gain driven by a very slow periodic wave, so the
 * progression runs sample-accurately for as long as the session lasts, with no timers.
 */
function buildPad(
  context: BaseAudioContext,
  output: AudioNode,
  oscillator: (frequency: number, type?: OscillatorType) => OscillatorNode,
  gain: (value: number) => GainNode,
) {
  const pedal = oscillator(PAD_PEDAL.hz)
  const pedalGain = gain(PEDAL_LEVEL)
  pedal.connect(pedalGain)
  pedalGain.connect(output)

  const warmWave = new PeriodicWave(context, {
    real: new Float32Array(WARM_VOICE_HARMONICS.length),
    imag: Float32Array.from(WARM_VOICE_HARMONICS),
  })
  const noteOutputs = new Map<string, AudioNode>()
  const noteOutput = (note: PadNote) => {
    const existing = noteOutputs.get(note.name)
    if (existing) return existing
    const mix = gain(1)
    oscillator(note.hz).connect(mix)
    const warm = oscillator(note.hz)
    warm.setPeriodicWave(warmWave)
    // Alternate the detune's sign so the pad's beating does not all lean one way.
    warm.detune.value = (noteOutputs.size % 2 === 0 ? 1 : -1) * WARM_VOICE_DETUNE_CENTS
    const warmGain = gain(WARM_VOICE_LEVEL)
    warm.connect(warmGain)
    warmGain.connect(mix)
    noteOutputs.set(note.name, mix)
    return mix
  }

  const count = PAD_VOICINGS.length
  const cycleHz = 1 / (count * PAD_CHORD_SECONDS)
  PAD_VOICINGS.forEach((voicing, index) => {
    const window = crossfadeWindow(index, count)
    const chord = gain(window.dc)
    const lfo = oscillator(cycleHz)
    lfo.setPeriodicWave(
      new PeriodicWave(context, {
        real: window.real,
        imag: window.imag,
        disableNormalization: true,
      }),
    )
    lfo.connect(chord.gain)
    chord.connect(output)
    voicing.notes.forEach((note, position) => {
      const send = gain(NOTE_LEVELS[position] ?? 0)
      noteOutput(note).connect(send)
      send.connect(chord)
    })
  })
}

/**
 * Chord `index` of `count` has the gain w(θ) = s·cos⁶((θ − 2π·index/count) / 2), with θ the
 * cycle's phase: 0 at the chord's centre, gliding to 0 half a cycle later. cos⁶(x/2) is
 * 5/16 + 15/32 cos x + 3/16 cos 2x + 1/32 cos 3x; its harmonics 1–3 cancel when summed over four
 * or more equally spaced chords, so with s = 16 / (5 · count) the chords' gains always add up to
 * exactly 1: the pad's loudness never swells between chords. An oscillator cannot output DC, so
 * the constant term becomes the chord gain's own value and the wave adds the rest.
 */
function crossfadeWindow(index: number, count: number) {
  const scale = 16 / (5 * count)
  const harmonics = [0, 15 / 32, 3 / 16, 1 / 32]
  const real = new Float32Array(harmonics.length)
  const imag = new Float32Array(harmonics.length)
  const phase = (2 * Math.PI * index) / count
  harmonics.forEach((amplitude, n) => {
    // cos(n(θ − φ)) = cos(nφ)·cos(nθ) + sin(nφ)·sin(nθ)
    real[n] = scale * amplitude * Math.cos(n * phase)
    imag[n] = scale * amplitude * Math.sin(n * phase)
  })
  return { dc: (scale * 5) / 16, real, imag }
}
