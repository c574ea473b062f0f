/** Bytes before the samples in a canonical WAV file: RIFF header, `fmt ` chunk, `data` header. */
export const WAV_HEADER_BYTES = 44

/**
 * Wraps 16-bit mono PCM in a canonical 44-byte RIFF/WAVE header (PCM format 1).
 * `pcm` holds the samples as little-endian bytes, two per sample.
 */
export function encodeWavPcm16Mono(pcm: Uint8Array, sampleRate: number): Buffer {
  const channels = 1
  const bytesPerSample = 2
  const wav = Buffer.allocUnsafe(WAV_HEADER_BYTES + pcm.byteLength)
  wav.write('RIFF', 0, 'ascii')
  wav.writeUInt32LE(WAV_HEADER_BYTES - 8 + pcm.byteLength, 4) // everything after this field
  wav.write('WAVE', 8, 'ascii')
  wav.write('fmt ', 12, 'ascii')
  wav.writeUInt32LE(16, 16) // fmt chunk size for plain PCM
  wav.writeUInt16LE(1, 20) // PCM
  wav.writeUInt16LE(channels, 22)
  wav.writeUInt32LE(sampleRate, 24)
  wav.writeUInt32LE(sampleRate * channels * bytesPerSample, 28) // byte rate
  wav.writeUInt16LE(channels * bytesPerSample, 32) // block align
  wav.writeUInt16LE(bytesPerSample * 8, 34)
  wav.write('data', 36, 'ascii')
  wav.writeUInt32LE(pcm.byteLength, 40)
  wav.set(pcm, WAV_HEADER_BYTES)
  return wav
}
