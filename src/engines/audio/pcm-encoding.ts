/*
 * The sample formats of a live call: the web SDK sends base64 Float32 LE (16 kHz mono,
 * 128-sample frames) and the agent answers with base64 PCM16 LE. Node's Buffer does the
 * bytes; only the float <-> int16 scaling is ours.
 */
import { endianness } from 'node:os'

const LITTLE_ENDIAN = endianness() === 'LE'

/** Decodes base64 Float32 little-endian samples. Throws a RangeError when the length is not a multiple of 4 bytes. */
export function float32FromBase64(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64')
  if (bytes.byteLength % 4 !== 0) throw new RangeError(`Float32 audio must be a multiple of 4 bytes, got ${bytes.byteLength}`)
  if (!LITTLE_ENDIAN) bytes.swap32()
  // A copy: Buffer.from may hand out a slice of a shared pool at an offset not aligned to 4.
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
}

/** Encodes samples as base64 Float32 little-endian (what the web SDK sends). */
export function float32ToBase64(samples: Float32Array): string {
  const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)
  return LITTLE_ENDIAN ? bytes.toString('base64') : Buffer.from(bytes).swap32().toString('base64')
}

/** Decodes base64 PCM16 little-endian. Throws a RangeError on an odd number of bytes. */
export function int16FromBase64(base64: string): Int16Array {
  return int16FromPcm16(Buffer.from(base64, 'base64'))
}

/** Encodes samples as base64 PCM16 little-endian (an even number of bytes by construction). */
export function int16ToBase64(samples: Int16Array): string {
  return pcm16FromInt16(samples).toString('base64')
}

/** Little-endian PCM16 bytes as samples (a copy). Throws a RangeError on an odd number of bytes. */
export function int16FromPcm16(bytes: Uint8Array): Int16Array {
  if (bytes.byteLength % 2 !== 0) throw new RangeError(`PCM16 audio must be an even number of bytes, got ${bytes.byteLength}`)
  // One copy, into memory of its own (hours of decoded media pass through here).
  const samples = new Int16Array(bytes.byteLength / 2)
  new Uint8Array(samples.buffer).set(bytes)
  if (!LITTLE_ENDIAN) Buffer.from(samples.buffer).swap16()
  return samples
}

/** Samples as little-endian PCM16 bytes (a copy). */
export function pcm16FromInt16(samples: Int16Array): Buffer {
  const bytes = Buffer.from(samples.buffer.slice(samples.byteOffset, samples.byteOffset + samples.byteLength))
  return LITTLE_ENDIAN ? bytes : bytes.swap16()
}

/** Float samples in [-1, 1] to Int16, clipped (values beyond full scale do not wrap round). */
export function int16FromFloat32(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length)
  for (let index = 0; index < samples.length; index += 1) {
    const value = samples[index]! * 32768
    out[index] = value >= 32767 ? 32767 : value <= -32768 ? -32768 : Math.round(value)
  }
  return out
}

/** Int16 samples to floats in [-1, 1). */
export function float32FromInt16(samples: Int16Array): Float32Array {
  const out = new Float32Array(samples.length)
  for (let index = 0; index < samples.length; index += 1) out[index] = samples[index]! / 32768
  return out
}

/**
 * Splits PCM16 bytes into frames of `frameMs` at `sampleRate` (mono). The last frame may be
 * shorter; every frame holds whole samples. Frames are views of `pcm`, not copies.
 */
export function chunkPcm16(pcm: Buffer, sampleRate: number, frameMs: number): Buffer[] {
  const samplesPerFrame = Math.round((sampleRate * frameMs) / 1000)
  if (!Number.isInteger(frameMs) || frameMs <= 0 || samplesPerFrame < 1)
    throw new RangeError(`frameMs must be a positive whole number of ms, got ${frameMs}`)
  if (pcm.byteLength % 2 !== 0) throw new RangeError(`PCM16 audio must be an even number of bytes, got ${pcm.byteLength}`)
  const frameBytes = samplesPerFrame * 2
  const frames: Buffer[] = []
  for (let offset = 0; offset < pcm.byteLength; offset += frameBytes)
    frames.push(pcm.subarray(offset, Math.min(offset + frameBytes, pcm.byteLength)))
  return frames
}

/** Pieces of audio one after another, as one array of their kind (a single piece is answered as it is). */
export function joinSamples<T extends Float32Array | Int16Array>(pieces: readonly T[], make: (length: number) => T): T {
  if (pieces.length === 1) return pieces[0]!
  const out = make(pieces.reduce((sum, piece) => sum + piece.length, 0))
  let offset = 0
  for (const piece of pieces) {
    out.set(piece, offset)
    offset += piece.length
  }
  return out
}
