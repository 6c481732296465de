import { describe, expect, it } from 'vitest'
import {
  A4_HZ,
  equalTemperament432,
  PAD_PEDAL,
  PAD_VOICINGS,
  SCHUMANN_CARRIER_HZ,
  SCHUMANN_HZ,
  SOLFEGGIO_HZ,
  semitonesFrom432,
} from './tuning'

describe('equalTemperament432', () => {
  it('puts A4 at 432 Hz', () => {
    expect(A4_HZ).toBe(432)
    expect(equalTemperament432(0)).toBe(432)
  })

  it('doubles every octave and halves every octave down', () => {
    expect(equalTemperament432(12)).toBe(864)
    expect(equalTemperament432(24)).toBe(1728)
    expect(equalTemperament432(-12)).toBe(216)
    expect(equalTemperament432(-24)).toBe(108)
    for (const semitones of [-29, -17, -5, 3, 7, 10]) {
      expect(equalTemperament432(semitones + 12)).toBeCloseTo(2 * equalTemperament432(semitones), 9)
    }
  })

  it('gives the equal-tempered notes of A = 432 Hz', () => {
    expect(equalTemperament432(3)).toBeCloseTo(513.737, 3) // C5
    expect(equalTemperament432(7)).toBeCloseTo(647.269, 3) // E5
    expect(equalTemperament432(-5)).toBeCloseTo(323.634, 3) // E4
    expect(equalTemperament432(-9)).toBeCloseTo(256.869, 3) // C4
    expect(equalTemperament432(1)).toBeCloseTo(457.688, 3) // A#4
    // A fifth is 7 semitones: slightly narrower than the pure 3:2.
    expect(equalTemperament432(7) / 432).toBeCloseTo(2 ** (7 / 12), 12)
    // 100 cents are one semitone.
    expect(equalTemperament432(0.5)).toBeCloseTo(432 * 2 ** (1 / 24), 9)
  })

  it('is undone by semitonesFrom432', () => {
    for (const semitones of [-29, -12, 0, 4.5, 19]) {
      expect(semitonesFrom432(equalTemperament432(semitones))).toBeCloseTo(semitones, 9)
    }
  })
})

describe('the backing pad', () => {
  const notes = [PAD_PEDAL, ...PAD_VOICINGS.flatMap((voicing) => voicing.notes)]

  it('derives every chord note from A = 432 Hz, a whole number of semitones away', () => {
    for (const note of notes) {
      expect(Number.isInteger(note.semitones)).toBe(true)
      expect(note.hz).toBe(equalTemperament432(note.semitones))
      expect(semitonesFrom432(note.hz)).toBeCloseTo(note.semitones, 9)
    }
  })

  it('lists the exact frequencies of its chords', () => {
    const table = PAD_VOICINGS.map((voicing) => [
      voicing.name,
      voicing.notes.map((note) => `${note.name} ${note.hz.toFixed(3)}`),
    ])
    expect(table).toEqual([
      ['A', ['A2 108.000', 'E3 161.817', 'C#4 272.143', 'E4 323.634']],
      ['F#m', ['F#2 90.817', 'C#3 136.071', 'F#3 181.634', 'C#4 272.143']],
      ['Dmaj9', ['D3 144.163', 'F#3 181.634', 'C#4 272.143', 'E4 323.634']],
      ['Esus4', ['E2 80.909', 'B2 121.226', 'E3 161.817', 'B3 242.452']],
    ])
  })

  it('holds 432 Hz itself over every chord', () => {
    expect(PAD_PEDAL.hz).toBe(432)
  })

  it('names each note after its pitch class from A', () => {
    const pitchClasses = ['A', 'A#', 'B', 'C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#']
    for (const note of notes) {
      const pitchClass = pitchClasses[((note.semitones % 12) + 12) % 12]
      // Octave numbers change at C, three semitones above A.
      const octave = 4 + Math.floor((note.semitones + 9) / 12)
      expect(note.name).toBe(`${pitchClass}${octave}`)
    }
  })

  it('keeps the Schumann carrier (216 Hz) out of the chords', () => {
    for (const note of notes) expect(Math.abs(note.hz - SCHUMANN_CARRIER_HZ)).toBeGreaterThan(20)
  })
})

describe('Schumann and Solfeggio constants', () => {
  it('uses 7.83 Hz and an A3 carrier an octave below 432 Hz', () => {
    expect(SCHUMANN_HZ).toBe(7.83)
    expect(SCHUMANN_CARRIER_HZ).toBe(216)
  })

  it('lists the nine Solfeggio tones', () => {
    expect(SOLFEGGIO_HZ).toEqual([174, 285, 396, 417, 528, 639, 741, 852, 963])
  })
})
