// Every pitch the session plays is derived here, from A4 = 432 Hz, so the tests can prove that the
// sound is exactly what the product promises. Pure data and pure functions: no Web Audio.

/** Concert pitch of the session: A4 = 432 Hz (instead of the usual 440 Hz). */
export const A4_HZ = 432

/** The Schumann resonance the third layer beats or pulses at. */
export const SCHUMANN_HZ = 7.83

/** The nine Solfeggio tones a panel can use, in Hz. */
export const SOLFEGGIO_HZ = [174, 285, 396, 417, 528, 639, 741, 852, 963] as const

/** One of the nine Solfeggio tones. */
export type SolfeggioHz = (typeof SOLFEGGIO_HZ)[number]

/**
 * Frequency of the note `semitonesFromA4` semitones away from A4 in twelve-tone equal
 * temperament tuned to A4 = 432 Hz: 0 → 432, 12 → 864, -12 → 216, 3 → C5 ≈ 513.74.
 * Fractional semitones are allowed (100 cents = 1 semitone).
 */
export function equalTemperament432(semitonesFromA4: number): number {
  return A4_HZ * 2 ** (semitonesFromA4 / 12)
}

/** How many semitones `hz` lies from A4 = 432 Hz (the inverse of {@link equalTemperament432}). */
export function semitonesFrom432(hz: number): number {
  return 12 * Math.log2(hz / A4_HZ)
}

/** A named note of the pad, with its distance from A4 and its exact frequency. */
export interface PadNote {
  readonly name: string
  readonly semitones: number
  readonly hz: number
}

/** One chord of the backing pad. */
export interface PadVoicing {
  readonly name: string
  readonly notes: readonly PadNote[]
}

function note(name: string, semitones: number): PadNote {
  return { name, semitones, hz: equalTemperament432(semitones) }
}

/**
 * The pedal that sounds over every chord: A4 itself. Keeping it out of the crossfading chords
 * gives the pad a steady, clearly audible 432 Hz component whatever chord is playing.
 */
export const PAD_PEDAL: PadNote = note('A4', 0)

/**
 * The backing pad's slow progression in A major, I – vi – IV – V(sus4), four notes each, voiced
 * low and open for warmth; with the A4 pedal on top every chord contains 432 Hz. No chord holds
 * A3 (216 Hz), the Schumann carrier, so the binaural pair is not smeared by the pad. Frequencies:
 * - A:     A2 108.000, E3 161.817, C#4 272.143, E4 323.634
 * - F#m:   F#2 90.817, C#3 136.071, F#3 181.634, C#4 272.143
 * - Dmaj9: D3 144.163, F#3 181.634, C#4 272.143, E4 323.634
 * - Esus4: E2 80.909, B2 121.226, E3 161.817, B3 242.452
 */
export const PAD_VOICINGS: readonly PadVoicing[] = [
  { name: 'A', notes: [note('A2', -24), note('E3', -17), note('C#4', -8), note('E4', -5)] },
  { name: 'F#m', notes: [note('F#2', -27), note('C#3', -20), note('F#3', -15), note('C#4', -8)] },
  { name: 'Dmaj9', notes: [note('D3', -19), note('F#3', -15), note('C#4', -8), note('E4', -5)] },
  { name: 'Esus4', notes: [note('E2', -29), note('B2', -22), note('E3', -17), note('B3', -10)] },
]

/** Seconds each chord of the pad is at its fullest; a whole cycle lasts four times as long. */
export const PAD_CHORD_SECONDS = 10

/**
 * Carrier of the Schumann layer: A3 = 216 Hz, an octave below 432. In binaural mode the left ear
 * hears it and the right ear hears it plus {@link SCHUMANN_HZ}.
 */
export const SCHUMANN_CARRIER_HZ = equalTemperament432(-12)
