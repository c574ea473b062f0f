import { createResampler } from '../../src/engines/audio/speex-resampler'
import { parseWavPcm16Mono } from '../../src/engines/audio/wav-file'
import { afterEveryFile } from './after-every'
import { sharedSpeechEngine } from './shared-speech-engine'

/** What was spoken in this file, by voice and text (see spokenSamples). */
const spoken = new Map<string, Promise<Float32Array>>()
afterEveryFile(() => spoken.clear())

/** A voice of the catalogue by language, for callers in tests. */
export const CALLER_VOICES = {
  en: 'd7c17d05-0c73-4196-8cd2-25f2687d90b0',
  ar: 'f738ab97-f3a6-4bfd-996a-0dacb6d9252a',
  enFemale: 'fe68337a-10d3-4648-99bb-2bb04554b6cf',
  arFemale: '12aefec9-90b5-4397-8a05-e82a35a625d3',
} as const

/**
 * Real speech for a test caller: the project's own eSpeak voice, resampled to the SDK's 16 kHz
 * with the same library the service uses, as Float32 samples in [-1, 1]. A text said again in
 * the same file is its first synthesis again (tests repeat a sentence to make minutes of talk):
 * eSpeak's takes of one text differ only by a few milliseconds of length and the waveform's
 * phase, which no test is about. Each caller gets its own copy.
 */
export async function spokenSamples(text: string, voiceId: string = CALLER_VOICES.en): Promise<Float32Array> {
  const key = `${voiceId}\u0000${text}`
  let samples = spoken.get(key)
  if (!samples) {
    samples = synthesized(text, voiceId)
    spoken.set(key, samples)
    samples.catch(() => spoken.delete(key))
  }
  return (await samples).slice()
}

async function synthesized(text: string, voiceId: string): Promise<Float32Array> {
  const speech = await (await sharedSpeechEngine()).synthesize(text, voiceId)
  const audio = parseWavPcm16Mono(speech.wav)
  const resampler = await createResampler(audio.sampleRate, 16_000)
  const samples = resampler.resample(audio.samples)
  resampler.dispose()
  return Float32Array.from(samples, (sample) => sample / 32768)
}
