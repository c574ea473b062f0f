// The default turn detector on real noisy calls: eSpeak callers (English and Arabic, women and
// men, one word to a long sentence) in seeded white noise and in babble made from the project's
// own voices (bench/vad-corpus.ts says how), and noise with no caller at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTurnDetector, type TurnDetector, type TurnDetectorOptions, type TurnEvent } from '../../../src/engines/audio/turn-detector'
import { createEspeakTtsEngine, type TtsEngine } from '../../../src/engines/tts/tts-engine'
import {
  CALLER_TURNS,
  RATE,
  babble,
  babbleVoices,
  callerStream,
  mix,
  speechPower,
  whiteNoise,
  type SpeechStream,
} from '../../../bench/vad-corpus'

const FRAME = 128
/** Ten turns: five English, five Arabic, from "No." to a 7 s sentence. */
const TURNS = [0, 3, 5, 10, 13, 22, 25, 32, 35, 37].map((index) => CALLER_TURNS[index]!)

function turnStarts(detector: TurnDetector, audio: Float32Array): number[] {
  const starts: number[] = []
  for (let offset = 0; offset + FRAME <= audio.length; offset += FRAME) {
    for (const event of detector.push(audio.subarray(offset, offset + FRAME))) if (event.type === 'speech-start') starts.push(event.atMs)
  }
  return starts
}

async function detectStarts(audio: Float32Array, options: TurnDetectorOptions = {}): Promise<number[]> {
  const detector = await createTurnDetector(options)
  try {
    return turnStarts(detector, audio)
  } finally {
    detector.dispose()
  }
}

/** Which turns a speech-start fell in (from 300 ms before the voice to its end), and the starts that fell in none. */
function judge(starts: number[], stream: SpeechStream): { found: number; falseStarts: number } {
  const found = new Set<number>()
  let falseStarts = 0
  for (const atMs of starts) {
    const turn = stream.spans.findIndex(([from, to]) => atMs >= (from * 1000) / RATE - 300 && atMs < (to * 1000) / RATE)
    if (turn >= 0 && !found.has(turn)) found.add(turn)
    else falseStarts += 1
  }
  return { found: found.size, falseStarts }
}

describe('the default voice detector in noise', () => {
  let tts: TtsEngine
  let stream: SpeechStream
  let readings: Float32Array[]
  let speech: number

  beforeAll(async () => {
    tts = await createEspeakTtsEngine()
    stream = await callerStream(tts, TURNS, 11)
    readings = await babbleVoices(tts, ['Ava', 'Ethan', 'Grace', 'Oliver', 'Layla', 'Omar', 'Salma', 'Karim'])
    speech = speechPower(stream)
  }, 180_000)
  afterAll(() => tts.close())

  // The floor falls at once over the first second (a call that opens on speech finds its gaps
  // fast), so a crowd there may start one turn; after that, at most two more over the ~40 s:
  // the documented bound (docs/api.md: at most two turns a minute on quiet babble). The count
  // varied between 0 and 2 across runs of the same code, so a tighter bound only measured luck.
  it('finds every turn in babble at 5 dB SNR, and starts at most two others after the first second', async () => {
    const starts = await detectStarts(mix(stream.clean, babble(readings, stream.clean.length, 21), speech, 5))
    expect(judge(starts, stream).found).toBe(TURNS.length)
    const afterFirstSecond = judge(
      starts.filter((atMs) => atMs >= 1_000),
      stream,
    )
    expect(afterFirstSecond.found).toBe(TURNS.length)
    expect(afterFirstSecond.falseStarts).toBeLessThanOrEqual(2)
  })

  // Short of the 95 %: in steady white noise at 5 dB the energy detector loses about a
  // turn in ten (84 % in bench/vad.ts); TEN VAD alone finds 98 % there, but hears babble as one endless turn.
  it('finds nine turns in ten in white noise at 5 dB SNR, with at most one start elsewhere', async () => {
    const verdict = judge(await detectStarts(mix(stream.clean, whiteNoise(stream.clean.length, 21), speech, 5)), stream)
    expect(verdict.found).toBeGreaterThanOrEqual(TURNS.length - 1)
    expect(verdict.falseStarts).toBeLessThanOrEqual(1)
  })

  it.each(['white', 'babble'] as const)(
    'starts no turn on 60 s of %s noise alone, as loud as in the 5 dB call, after its first second',
    async (kind) => {
      const length = 60 * RATE
      const noise = kind === 'white' ? whiteNoise(length, 31) : babble(readings, length, 31)
      const starts = await detectStarts(mix(new Float32Array(length), noise, speech, 5))
      expect(starts.filter((atMs) => atMs >= 1_000)).toEqual([])
      expect(starts.length).toBeLessThanOrEqual(1)
    },
  )

  it.each(['energy', 'ten'] as const)(
    'four %s detectors fed in turn, frame by frame, keep their own state: each says what it says alone',
    { timeout: 120_000 },
    async (kind) => {
      const length = 20 * RATE
      const calls = [0, 1, 2, 3].map((index) => {
        const noise = index % 2 ? whiteNoise(length, 40 + index) : babble(readings, length, 40 + index)
        // Each call hears the callers from a different moment, in its own noise at its own level.
        return mix(stream.clean.slice(index * 3 * RATE, index * 3 * RATE + length), noise, speech, 5 + index * 4)
      })
      const alone = await Promise.all(calls.map((audio) => detectStarts(audio, { detector: kind })))
      const detectors = await Promise.all(calls.map(() => createTurnDetector({ detector: kind })))
      const together: number[][] = calls.map(() => [])
      for (let offset = 0; offset + FRAME <= length; offset += FRAME) {
        detectors.forEach((detector, index) => {
          for (const event of detector.push(calls[index]!.subarray(offset, offset + FRAME)))
            if (event.type === 'speech-start') together[index]!.push(event.atMs)
        })
      }
      for (const detector of detectors) detector.dispose()
      expect(together).toEqual(alone)
      // And the calls differ, so equal answers are not one shared answer.
      expect(new Set(alone.map((starts) => starts.join())).size).toBe(calls.length)
    },
  )

  it('falls back to the energy detector, with a warning, when the chosen model cannot start', async () => {
    const warnings: string[] = []
    const events: TurnEvent[] = []
    // An impossible hop makes the model refuse to start, as a missing or broken package would.
    const detector = await createTurnDetector({
      detector: 'ten',
      ten: { hopSamples: 300 as 256 },
      onFallback: (message) => warnings.push(message),
    })
    for (let offset = 0; offset + FRAME <= stream.clean.length; offset += FRAME)
      events.push(...detector.push(stream.clean.subarray(offset, offset + FRAME)))
    detector.dispose()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/TEN VAD.*energy detector/s)
    expect(events.filter((event) => event.type === 'speech-start')).toHaveLength(TURNS.length)
  })
})
