/** Speech from the project's own TTS at the call's 16 kHz, and seeded noise to mix with it. */
import { float32FromInt16 } from '../../../src/engines/audio/pcm-encoding'
import { createResampler } from '../../../src/engines/audio/speex-resampler'
import { parseWavPcm16Mono } from '../../../src/engines/audio/wav-file'
import type { TtsEngine } from '../../../src/engines/tts/tts-engine'
import { seededRandom } from '../../helpers/seeded-random'

export const RATE = 16_000

export async function speak16k(tts: TtsEngine, text: string, voiceId: string): Promise<Float32Array> {
  const speech = parseWavPcm16Mono((await tts.synthesize(text, voiceId)).wav)
  const resampler = await createResampler(speech.sampleRate, RATE)
  try {
    return float32FromInt16(resampler.resample(speech.samples))
  } finally {
    resampler.dispose()
  }
}

/** The pieces one after another: numbers are seconds of silence. */
export function concat(...pieces: (Float32Array | number)[]): Float32Array {
  const arrays = pieces.map((piece) => (typeof piece === 'number' ? new Float32Array(Math.round(piece * RATE)) : piece))
  const out = new Float32Array(arrays.reduce((sum, array) => sum + array.length, 0))
  let offset = 0
  for (const array of arrays) {
    out.set(array, offset)
    offset += array.length
  }
  return out
}

/** Uniform white noise of the given RMS from a seeded PRNG (mulberry32): the same every run. */
export function whiteNoise(length: number, rms: number, seed = 1): Float32Array {
  const random = seededRandom(seed)
  // Uniform on [-a, a] has RMS a / sqrt(3).
  return Float32Array.from({ length }, () => (random() * 2 - 1) * rms * Math.sqrt(3))
}

export function rmsOf(samples: Float32Array): number {
  let sum = 0
  for (const sample of samples) sum += sample * sample
  return Math.sqrt(sum / samples.length)
}

/** Where the voice is: the first and last 10 ms window within 40 dB of the loudest, in ms. */
export function voicedSpanMs(samples: Float32Array): [number, number] {
  const window = RATE / 100
  const levels: number[] = []
  for (let offset = 0; offset + window <= samples.length; offset += window)
    levels.push(20 * Math.log10(rmsOf(samples.subarray(offset, offset + window)) + 1e-9))
  const threshold = Math.max(...levels) - 40
  const first = levels.findIndex((level) => level >= threshold)
  const last = levels.findLastIndex((level) => level >= threshold)
  return [first * 10, (last + 1) * 10]
}
