// The Speex resampler (WASM, loaded from node_modules): lengths, pitch kept, streaming equal to
// the whole, and the eSpeak voice turned from 22050 Hz into 16 kHz.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createResampler } from '../../../src/engines/audio/speex-resampler'
import { parseWavPcm16Mono } from '../../../src/engines/audio/wav-file'
import { createEspeakTtsEngine, type TtsEngine } from '../../../src/engines/tts/tts-engine'

const ETHAN = 'd7c17d05-0c73-4196-8cd2-25f2687d90b0'

function sine(frequency: number, sampleRate: number, seconds: number, amplitude = 10_000): Int16Array {
  return Int16Array.from({ length: Math.round(sampleRate * seconds) }, (_, index) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * frequency * index) / sampleRate)),
  )
}

/** Frequency from sign changes: two per period. */
function zeroCrossingFrequency(samples: Int16Array, sampleRate: number): number {
  let crossings = 0
  for (let index = 1; index < samples.length; index += 1) if (samples[index - 1]! < 0 !== samples[index]! < 0) crossings += 1
  return crossings / 2 / (samples.length / sampleRate)
}

function rms(samples: Int16Array): number {
  let sum = 0
  for (const sample of samples) sum += sample * sample
  return Math.sqrt(sum / samples.length)
}

describe('createResampler', () => {
  it.each([
    [22_050, 16_000],
    [16_000, 22_050],
    [48_000, 16_000],
    [16_000, 8_000],
  ])('%i Hz -> %i Hz gives round(n * to / from) samples and a 1 kHz sine stays 1 kHz at the same level', async (from, to) => {
    const resampler = await createResampler(from, to)
    try {
      const input = sine(1_000, from, 1.3)
      const output = resampler.resample(input)
      expect(output.length).toBe(Math.round((input.length * to) / from))
      expect(zeroCrossingFrequency(output, to)).toBeCloseTo(1_000, -1) // within 5 Hz
      expect(rms(output) / rms(input)).toBeGreaterThan(0.95)
      expect(rms(output) / rms(input)).toBeLessThan(1.05)
    } finally {
      resampler.dispose()
    }
  })

  it('streams: 128-sample chunks then flush() give the same samples as one whole call, and a second stream starts clean', async () => {
    const resampler = await createResampler(22_050, 16_000)
    const input = sine(440, 22_050, 0.7)
    const whole = resampler.resample(input)
    for (let round = 0; round < 2; round += 1) {
      const pieces: number[] = []
      for (let offset = 0; offset < input.length; offset += 128) pieces.push(...resampler.push(input.subarray(offset, offset + 128)))
      pieces.push(...resampler.flush())
      expect(Int16Array.from(pieces)).toEqual(whole)
    }
    resampler.dispose()
    expect(() => resampler.push(input)).toThrow(/disposed/)
  })

  it('resamples stereo interleaved frames', async () => {
    const resampler = await createResampler(22_050, 16_000, 2)
    const output = resampler.resample(new Int16Array(2 * 2_205))
    expect(output.length).toBe(2 * 1_600)
    expect(() => resampler.push(new Int16Array(3))).toThrow(/whole frames/)
    resampler.dispose()
  })

  it('refuses nonsense rates and qualities', async () => {
    await expect(createResampler(0, 16_000)).rejects.toThrow(/fromRate must be a positive integer/)
    await expect(createResampler(22_050, 16_000, 1, { quality: 11 })).rejects.toThrow(/quality/)
  })

  describe('eSpeak speech', () => {
    let tts: TtsEngine
    beforeAll(async () => {
      tts = await createEspeakTtsEngine()
    })
    afterAll(() => tts.close())

    it("turns the TTS engine's 22050 Hz WAV into 16 kHz of the same duration and loudness", async () => {
      const speech = parseWavPcm16Mono((await tts.synthesize('Good morning, how can I help you today?', ETHAN)).wav)
      expect(speech.sampleRate).toBe(22_050)
      const resampler = await createResampler(speech.sampleRate, 16_000)
      const output = resampler.resample(speech.samples)
      resampler.dispose()
      expect(output.length / 16_000).toBeCloseTo(speech.samples.length / 22_050, 3)
      expect(rms(output) / rms(speech.samples)).toBeGreaterThan(0.9)
      expect(rms(output) / rms(speech.samples)).toBeLessThan(1.1)
    })
  })
})
