// The caller's room of a call: frames in, turns out, on the caller's clock. Real speech from the
// project's own voice and the real turn detector; only the network is simulated (when each
// frame arrives), because that is what the caller's clock must not depend on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { estimateGender } from '../../src/engines/audio/caller-gender'
import { createTurnDetector } from '../../src/engines/audio/turn-detector'
import { createEspeakTtsEngine, type TtsEngine } from '../../src/engines/tts/tts-engine'
import { CallRecording } from '../../src/conversations/call-recording'
import { CallerClock } from '../../src/conversations/caller-clock'
import { CallerTurns, DEFAULT_TURN_TAKING, type CallerTurn, type TurnTaking } from '../../src/conversations/caller-turns'
import { parseWavPcm16Mono } from '../../src/engines/audio/wav-file'
import { RATE, concat, speak16k, voicedSpanMs, whiteNoise } from '../engines/audio/call-audio'

const ETHAN = 'd7c17d05-0c73-4196-8cd2-25f2687d90b0'
const FRAME = 128
const FRAME_MS = (FRAME * 1000) / RATE
const LATENCY_MS = 20

/** How frames reach the service: all at once per burst of `burstMs`, `extraDelayMs(burst)` late beyond the latency. */
interface Network {
  burstMs: number
  extraDelayMs?: (burst: number) => number
}

const REAL_TIME: Network = { burstMs: FRAME_MS }
const BURSTS: Network = { burstMs: 500, extraDelayMs: (burst) => (burst % 3) * 70 }

interface Caller {
  turns: CallerTurn[]
  recording: CallRecording
  clock: CallerClock
  feed(network: Network, until?: number): void
  pokes: string[]
}

async function callerOf(audio: Float32Array, turnTaking: Partial<TurnTaking> = {}, startMs = 0): Promise<Caller> {
  let nowMs = startMs
  const turns: CallerTurn[] = []
  const pokes: string[] = []
  const recording = new CallRecording()
  const clock = new CallerClock()
  let ready!: () => void
  const detectorReady = new Promise<void>((resolve) => (ready = resolve))
  const room = new CallerTurns({
    audio: {
      turnDetector: async (options) => {
        const detector = await createTurnDetector({ ...options, sampleRate: RATE })
        setTimeout(ready)
        return detector
      },
      estimateGender,
    },
    agent: { silenceThreshold: 3_600, pokeMessages: [], tools: {} },
    state: { pokes: 0, callerGender: null },
    turnTaking: { ...DEFAULT_TURN_TAKING, ...turnTaking },
    recording,
    clock,
    startedAt: 0,
    now: () => nowMs,
    awaitingCaller: () => true,
    speechStarted: () => {},
    turn: (turn) => turns.push(turn),
    poke: (message) => pokes.push(message),
    silentToTheEnd: () => {},
    gender: () => {},
    onError: (error) => {
      throw error
    },
  })
  await detectorReady
  let sent = 0
  return {
    turns,
    pokes,
    recording,
    clock,
    feed(network, until = audio.length) {
      const burstFrames = Math.max(1, Math.round(network.burstMs / FRAME_MS))
      for (let burst = 0; sent < until; burst += 1) {
        const frames: Float32Array[] = []
        for (let index = 0; index < burstFrames && sent < until; index += 1, sent += FRAME) frames.push(audio.subarray(sent, sent + FRAME))
        // The burst leaves when its last frame was spoken, and arrives after the latency (and what the network adds).
        nowMs = startMs + (sent * 1000) / RATE + LATENCY_MS + (network.extraDelayMs?.(burst) ?? 0)
        for (const frame of frames) room.hear(frame)
      }
    },
  }
}

describe('CallerTurns: turns on the caller’s clock', () => {
  let tts: TtsEngine
  let first: Float32Array
  let second: Float32Array
  /** 1 s of a quiet room, a sentence, 1.5 s, another, 1.5 s: the voice's true spans in ms of the caller's audio. */
  let call: Float32Array
  let truth: [number, number][]

  beforeAll(async () => {
    tts = await createEspeakTtsEngine()
    first = await speak16k(tts, 'Hello, I would like a table for two tonight.', ETHAN)
    second = await speak16k(tts, 'On the terrace, if you have one.', ETHAN)
    const room = (seconds: number, seed: number) => whiteNoise(Math.round(seconds * RATE), 0.0005, seed)
    call = concat(room(1, 1), first, room(1.5, 2), second, room(1.5, 3))
    const [firstStart, firstEnd] = voicedSpanMs(first)
    const [secondStart, secondEnd] = voicedSpanMs(second)
    const secondAt = 1000 + (first.length * 1000) / RATE + 1500
    truth = [
      [1000 + firstStart + LATENCY_MS, 1000 + firstEnd + LATENCY_MS],
      [secondAt + secondStart + LATENCY_MS, secondAt + secondEnd + LATENCY_MS],
    ]
  }, 60_000)
  afterAll(async () => {
    await tts.close()
  })

  it('saves a turn where the voice starts and ends in the caller’s audio, not the pre-roll nor the endpointing silence', async () => {
    const caller = await callerOf(call)
    caller.feed(REAL_TIME)
    expect(caller.turns).toHaveLength(2)
    caller.turns.forEach((turn, index) => {
      const [start, end] = truth[index]!
      // The detector decides frame by frame (8 ms) and the truth is measured in 10 ms windows: within 30 ms.
      expect(Math.abs(turn.startTime * 1000 - start)).toBeLessThanOrEqual(30)
      expect(Math.abs(turn.endTime * 1000 - end)).toBeLessThanOrEqual(30)
      // Recognition still hears the pre-roll and the whole voice.
      expect(turn.audio.length / RATE).toBeGreaterThan(turn.endTime - turn.startTime)
    })
  })

  it('gives a caller who sends 500 ms bursts, late by up to 140 ms, the same turn times as one sending at real time (within one frame)', async () => {
    const steady = await callerOf(call)
    steady.feed(REAL_TIME)
    const bursty = await callerOf(call)
    bursty.feed(BURSTS)
    expect(bursty.turns).toHaveLength(steady.turns.length)
    bursty.turns.forEach((turn, index) => {
      expect(Math.abs(turn.startTime - steady.turns[index]!.startTime)).toBeLessThanOrEqual(FRAME_MS / 1000)
      expect(Math.abs(turn.endTime - steady.turns[index]!.endTime)).toBeLessThanOrEqual(FRAME_MS / 1000)
    })
  })

  it('records the caller’s audio where it was spoken: a recording as long as the call, bursts or not', async () => {
    const callMs = (call.length * 1000) / RATE + LATENCY_MS
    for (const network of [REAL_TIME, BURSTS]) {
      const caller = await callerOf(call)
      caller.feed(network)
      const wav = parseWavPcm16Mono(caller.recording.toWav(callMs / 1000, caller.clock.placement()))
      expect(Math.abs((wav.samples.length * 1000) / RATE - callMs)).toBeLessThanOrEqual(100)
      // The first sentence's voice lies where it was spoken on the call's timeline.
      const recorded = Float32Array.from(wav.samples, (sample) => sample / 32768)
      const [start] = voicedSpanMs(recorded.subarray(0, Math.round(((truth[0]![1] + 200) * RATE) / 1000)))
      expect(Math.abs(start - truth[0]![0])).toBeLessThanOrEqual(20)
    }
  })

  it('starts a new segment when the caller really sent nothing for a while (a muted microphone), and no sooner', async () => {
    const caller = await callerOf(call)
    const half = Math.round(call.length / 2 / FRAME) * FRAME
    caller.feed(REAL_TIME, half)
    // Three seconds with nothing sent, then the next frame.
    const clock = caller.clock
    clock.advance(FRAME, (half * 1000) / RATE + 3_000 + LATENCY_MS + FRAME_MS)
    expect(clock.placement()).toHaveLength(2)
    expect(clock.msAt(half)).toBeCloseTo((half * 1000) / RATE + 3_000 + LATENCY_MS, 0)
    const bursty = await callerOf(call)
    bursty.feed({ burstMs: 1_000, extraDelayMs: () => 400 })
    expect(bursty.clock.placement()).toHaveLength(1)
  })

  it('keeps the clocks of many callers apart: eight callers fed in turn, each on its own network, each gets its own turn times', async () => {
    const callers = await Promise.all(Array.from({ length: 8 }, (_, index) => callerOf(call, {}, index * 730)))
    const networks = callers.map((_, index) =>
      index % 2 === 0 ? REAL_TIME : { burstMs: 250 + index * 60, extraDelayMs: (burst: number) => (burst * index * 37) % 200 },
    )
    // Interleaved, a slice of each at a time, as one event loop serves many sockets.
    for (let until = 0; until < call.length;) {
      until = Math.min(call.length, until + FRAME * 40)
      callers.forEach((caller, index) => caller.feed(networks[index]!, until))
    }
    callers.forEach((caller, index) => {
      expect(caller.turns).toHaveLength(2)
      caller.turns.forEach((turn, turnIndex) => {
        expect(Math.abs(turn.startTime * 1000 - (truth[turnIndex]![0] + index * 730))).toBeLessThanOrEqual(30)
        expect(Math.abs(turn.endTime * 1000 - (truth[turnIndex]![1] + index * 730))).toBeLessThanOrEqual(30)
      })
    })
  })
})

describe('CallerTurns: turn-taking that copes', () => {
  let tts: TtsEngine
  let talk: Float32Array
  let sentence: Float32Array

  beforeAll(async () => {
    tts = await createEspeakTtsEngine()
    sentence = await speak16k(tts, 'I would like a table for two tonight, please.', ETHAN)
    // A television: two voices over each other, never a pause long enough to end a turn.
    const story = await speak16k(
      tts,
      'The weather tonight is mild along the coast, with a light breeze from the west and clear skies over the hills. Tomorrow brings sunshine in the morning and some cloud in the afternoon, with temperatures a little higher than today. In the news, the harbour festival opens on Friday with music, boats and food from all over the region, and the organisers expect more visitors than ever before.',
      ETHAN,
    )
    const length = 40 * RATE
    talk = new Float32Array(length)
    for (let index = 0; index < length; index += 1) {
      talk[index] = 0.5 * ((story[index % story.length] ?? 0) + (story[(index + 7_919) % story.length] ?? 0))
    }
  }, 60_000)
  afterAll(async () => {
    await tts.close()
  })

  it('answers a caller who talks 40 s without a pause at 15 s, then every 15 s, and loses none of the audio', async () => {
    const caller = await callerOf(concat(0.5, talk, 1.5))
    caller.feed(REAL_TIME)
    const [firstTurn, secondTurn] = caller.turns
    expect(caller.turns.length).toBeGreaterThanOrEqual(3)
    expect(firstTurn).toMatchObject({ cut: true })
    expect(firstTurn!.endTime - firstTurn!.startTime).toBeCloseTo(15, 1)
    // The next turn starts where the cut left off, and is cut again 15 s later.
    expect(secondTurn!.startTime).toBeCloseTo(firstTurn!.endTime, 3)
    expect(secondTurn).toMatchObject({ cut: true })
    const last = caller.turns.at(-1)!
    expect(last.cut).toBeUndefined()
    expect(last.endTime).toBeGreaterThan(40)
  })

  it('holds a turn across a pause shorter than the agent’s end-of-turn silence, and ends it at a longer one', async () => {
    const withPause = concat(0.5, sentence, 1.0, sentence, 1.5)
    const quick = await callerOf(withPause)
    quick.feed(REAL_TIME)
    expect(quick.turns).toHaveLength(2)
    const patient = await callerOf(withPause, { endOfTurnSilenceMs: 1_400 })
    patient.feed(REAL_TIME)
    expect(patient.turns).toHaveLength(1)
    expect(patient.turns[0]!.endTime - patient.turns[0]!.startTime).toBeGreaterThan((2 * sentence.length) / RATE)
  })
})
