// Turn-taking on real speech from the project's TTS (16 kHz, 128-sample frames as the web SDK
// sends them), with silence gaps and in noise, for the default (energy) detector and WebRTC VAD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTurnDetector, type TurnDetector, type TurnDetectorOptions, type TurnEvent } from '../../../src/engines/audio/turn-detector'
import { createEspeakTtsEngine, type TtsEngine } from '../../../src/engines/tts/tts-engine'
import { RATE, concat, rmsOf, speak16k, voicedSpanMs, whiteNoise } from './call-audio'

const ETHAN = 'd7c17d05-0c73-4196-8cd2-25f2687d90b0'
const LAYLA = '16677e49-bcd2-4044-adb3-541626c49304'
const FRAME = 128

interface Emitted {
  event: TurnEvent
  /** Audio time when push() returned it. */
  emittedMs: number
}

function feed(detector: TurnDetector, audio: Float32Array): Emitted[] {
  const emitted: Emitted[] = []
  for (let offset = 0; offset + FRAME <= audio.length; offset += FRAME) {
    for (const event of detector.push(audio.subarray(offset, offset + FRAME)))
      emitted.push({ event, emittedMs: ((offset + FRAME) * 1000) / RATE })
  }
  return emitted
}

async function detect(audio: Float32Array, options: TurnDetectorOptions = {}): Promise<Emitted[]> {
  const detector = await createTurnDetector(options)
  try {
    return feed(detector, audio)
  } finally {
    detector.dispose()
  }
}

describe('createTurnDetector', () => {
  let tts: TtsEngine
  let english: Float32Array
  let arabic: Float32Array
  /** 1 s of silence, the English sentence, 1.5 s, the Arabic one, 1.2 s. */
  let call: Float32Array
  let truth: [number, number][]

  beforeAll(async () => {
    tts = await createEspeakTtsEngine()
    english = await speak16k(tts, 'Hello, I would like to book an appointment for next Tuesday.', ETHAN)
    arabic = await speak16k(tts, 'نعم، هذا مناسب لي. اسمي سارة.', LAYLA)
    call = concat(1, english, 1.5, arabic, 1.2)
    const englishAt = 1_000
    const arabicAt = englishAt + (english.length * 1000) / RATE + 1_500
    truth = [
      voicedSpanMs(english).map((ms) => ms + englishAt) as [number, number],
      voicedSpanMs(arabic).map((ms) => ms + arabicAt) as [number, number],
    ]
  })
  afterAll(() => tts.close())

  function expectTwoTurns(emitted: Emitted[], trailingSilenceMs = 600, toleranceMs = 120): void {
    expect(emitted.map(({ event }) => event.type)).toEqual(['speech-start', 'speech-end', 'speech-start', 'speech-end'])
    for (const [turn, [startMs, endMs]] of truth.entries()) {
      const start = emitted[turn * 2]!
      const end = emitted[turn * 2 + 1]!
      expect(start.event.atMs).toBeGreaterThan(startMs - toleranceMs)
      expect(start.event.atMs).toBeLessThan(startMs + toleranceMs)
      expect(end.event.type === 'speech-end' && end.event.atMs).toBeGreaterThan(endMs - toleranceMs * 2)
      expect(end.event.type === 'speech-end' && end.event.atMs).toBeLessThan(endMs + toleranceMs)
      if (end.event.type !== 'speech-end') throw new Error('unreachable')
      expect(end.event.speechMs).toBeCloseTo(end.event.atMs - start.event.atMs, 6)
      // The end is said once the trailing silence has passed, within one frame.
      expect(end.emittedMs - end.event.atMs).toBeGreaterThanOrEqual(trailingSilenceMs)
      expect(end.emittedMs - end.event.atMs).toBeLessThan(trailingSilenceMs + 10)
    }
  }

  // WebRTC VAD holds on to a voice for a while after it stops (about 130 ms in bench/vad.ts).
  it.each([
    ['energy', 120],
    ['webrtc', 200],
  ] as const)(
    '%s: two sentences (English, Arabic) with silence between them are two turns, each start and end where the voice is',
    async (detector, toleranceMs) => {
      expectTwoTurns(await detect(call, { detector }), 600, toleranceMs)
    },
  )

  it('the default detector still finds both turns in white noise at 10 dB SNR', async () => {
    const noise = whiteNoise(call.length, rmsOf(english) / Math.sqrt(10), 5)
    const noisy = call.map((sample, index) => sample + noise[index]!)
    expectTwoTurns(await detect(noisy), 600, 250)
  })

  it('starts no turn on noise alone, nor on a click or a cough shorter than minSpeechMs', async () => {
    expect(await detect(whiteNoise(10 * RATE, 0.02, 9))).toEqual([])
    const click = Float32Array.from({ length: 0.03 * RATE }, (_, index) => 0.5 * Math.sin(index / 3))
    const cough = english.subarray(Math.round(voicedSpanMs(english)[0] * 16), Math.round(voicedSpanMs(english)[0] * 16) + 0.12 * RATE)
    expect(await detect(concat(1, click, 1, cough, 1))).toEqual([])
    // The same voice for longer than minSpeechMs does start a turn.
    expect((await detect(concat(1, cough, 1), { minSpeechMs: 60 })).map(({ event }) => event.type)).toEqual(['speech-start', 'speech-end'])
  })

  it('ends turns after the configured trailing silence, and a pause shorter than it keeps one turn', async () => {
    expectTwoTurns(await detect(call, { trailingSilenceMs: 300 }), 300)
    // With 2 s needed, the 1.5 s gap between the sentences no longer ends the first turn.
    const long = await detect(call, { trailingSilenceMs: 2_000 })
    expect(long.map(({ event }) => event.type)).toEqual(['speech-start'])
  })

  it('says whether a turn is under way, with frames of another length (20 ms)', async () => {
    const detector = await createTurnDetector()
    const speakingAt = (ms: number) => {
      const until = Math.round((ms * RATE) / 1000)
      for (let offset = pushed; offset < until; offset += 320) detector.push(call.subarray(offset, Math.min(offset + 320, until)))
      pushed = until
      return detector.speaking
    }
    let pushed = 0
    const [[startMs, endMs]] = truth as [[number, number]]
    expect(speakingAt(startMs - 100)).toBe(false)
    expect(speakingAt(startMs + 400)).toBe(true)
    expect(speakingAt(endMs + 300)).toBe(true)
    expect(speakingAt(endMs + 700)).toBe(false)
    detector.dispose()
  })
})
