import { encodeWavPcm16Mono, WAV_HEADER_BYTES } from '../tts/wav-encoding'
import { int16FromPcm16, pcm16FromInt16 } from './pcm-encoding'

/** A mono PCM16 WAV file's audio. */
export interface Pcm16Audio {
  samples: Int16Array
  sampleRate: number
}

/**
 * Reads a canonical WAV file (the 44-byte header the TTS engine writes: RIFF, `fmt ` of
 * plain PCM, then `data`). Files with other chunks or formats are refused with a message
 * that says what was found, rather than misread.
 */
export function parseWavPcm16Mono(wav: Buffer): Pcm16Audio {
  if (wav.byteLength < WAV_HEADER_BYTES) throw new Error(`Not a WAV file: ${wav.byteLength} bytes is shorter than a header`)
  if (wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE')
    throw new Error('Not a WAV file: no RIFF/WAVE header')
  if (wav.toString('ascii', 12, 16) !== 'fmt ' || wav.readUInt32LE(16) !== 16)
    throw new Error('Unsupported WAV file: the fmt chunk is not a plain 16-byte PCM one')
  const format = wav.readUInt16LE(20)
  const channels = wav.readUInt16LE(22)
  const bits = wav.readUInt16LE(34)
  if (format !== 1 || channels !== 1 || bits !== 16)
    throw new Error(`Unsupported WAV file: format ${format}, ${channels} channel(s), ${bits} bits (want PCM, mono, 16 bits)`)
  if (wav.toString('ascii', 36, 40) !== 'data') throw new Error('Unsupported WAV file: the data chunk does not follow the fmt chunk')
  const dataBytes = Math.min(wav.readUInt32LE(40), wav.byteLength - WAV_HEADER_BYTES)
  // An odd trailing byte (a truncated file) is dropped, not refused.
  const pcm = wav.subarray(WAV_HEADER_BYTES, WAV_HEADER_BYTES + dataBytes - (dataBytes % 2))
  return { samples: int16FromPcm16(pcm), sampleRate: wav.readUInt32LE(24) }
}

/** A canonical WAV file of mono PCM16 (16 kHz for speech recognition), with the TTS engine's writer. */
export function writeWavPcm16Mono(samples: Int16Array, sampleRate = 16_000): Buffer {
  return encodeWavPcm16Mono(pcm16FromInt16(samples), sampleRate)
}
