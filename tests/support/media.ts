/**
 * A mono 16-bit PCM WAV file holding a quiet sine tone: a real backing track small enough to
 * make inside a test.
 */
export function makeWav(seconds = 1, hz = 432, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate)
  const wav = Buffer.alloc(44 + samples * 2)
  wav.write('RIFF', 0, 'ascii')
  wav.writeUInt32LE(36 + samples * 2, 4)
  wav.write('WAVE', 8, 'ascii')
  wav.write('fmt ', 12, 'ascii')
  wav.writeUInt32LE(16, 16) // fmt chunk size
  wav.writeUInt16LE(1, 20) // PCM
  wav.writeUInt16LE(1, 22) // mono
  wav.writeUInt32LE(sampleRate, 24)
  wav.writeUInt32LE(sampleRate * 2, 28) // bytes per second
  wav.writeUInt16LE(2, 32) // bytes per frame
  wav.writeUInt16LE(16, 34) // bits per sample
  wav.write('data', 36, 'ascii')
  wav.writeUInt32LE(samples * 2, 40)
  for (let index = 0; index < samples; index++) {
    const value = Math.round(Math.sin((2 * Math.PI * hz * index) / sampleRate) * 8000)
    wav.writeInt16LE(value, 44 + index * 2)
  }
  return wav
}

/**
 * The smallest byte pattern file-type recognises as a WebM video (an EBML header with the
 * "webm" doc type). Enough for storing and serving; a browser cannot play it.
 */
export function makeWebmHeader(padding = 64): Buffer {
  const header = Buffer.from([
    0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81,
    0x04, 0x42, 0xf3, 0x81, 0x08, 0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d, 0x42, 0x87, 0x81, 0x04,
    0x42, 0x85, 0x81, 0x02,
  ])
  return Buffer.concat([header, Buffer.alloc(padding, 0xec)])
}
