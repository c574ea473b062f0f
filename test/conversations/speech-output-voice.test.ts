import { beforeAll, describe, expect, it } from 'vitest'
import type { ServerFrame } from '../../src/shared/api/stream-frames'
import { SpeechOutput, type SpeechOutputOptions } from '../../src/conversations/speech-output'
import { timeWords, wordsHeard } from '../../src/conversations/word-timing'
import { CALLER_VOICES, spokenSamples } from '../helpers/spoken-audio'

/*
 * The agent's voice on the wire, on a clock the test moves: real speech made by the project's
 * own eSpeak voice (made once, handed over when the test says synthesis is done), the frames
 * the service would send, and what the caller heard when it was cut.
 */

const VOICE = CALLER_VOICES.en
const WELCOME = 'Hello and welcome to Olive Grove, the finest restaurant by the sea.'
const HELP = 'How else can I help?'
const RATE = 16_000
const speech = new Map<string, Int16Array>()

beforeAll(async () => {
  for (const text of [WELCOME, HELP])
    speech.set(
      text,
      Int16Array.from(await spokenSamples(text, VOICE), (sample) => Math.round(sample * 32767)),
    )
}, 60_000)

interface Deferred {
  text: string
  resolve: () => void
}

/** A SpeechOutput on a clock the test moves; synthesis answers when the test releases it (or at once). */
function harness(options: Partial<SpeechOutputOptions> & { holdSynthesis?: boolean } = {}) {
  let clock = 1_000
  const timers: { at: number; callback: () => void; cancelled: boolean }[] = []
  const frames: { frame: ServerFrame; at: number }[] = []
  const recorded: { samples: number; at: number }[] = []
  const held: Deferred[] = []
  const output = new SpeechOutput({
    voiceId: VOICE,
    audio: {
      speak: (text) => {
        const samples = speech.get(text) ?? new Int16Array(0)
        if (!options.holdSynthesis) return Promise.resolve(samples)
        return new Promise((resolve) => held.push({ text, resolve: () => resolve(samples) }))
      },
    },
    now: () => clock,
    send: (frame) => frames.push({ frame, at: clock }),
    onAudio: (samples, at) => recorded.push({ samples: samples.length, at }),
    setTimer: (callback, ms) => {
      const timer = { at: clock + ms, callback, cancelled: false }
      timers.push(timer)
      return { cancel: () => (timer.cancelled = true) }
    },
    ...options,
  })
  const settle = () => new Promise((resolve) => setImmediate(resolve))
  return {
    output,
    frames,
    recorded,
    held,
    settle,
    get now() {
      return clock
    },
    /** Moves the clock by `ms`, running timers due on the way; `lateMs` makes each timer fire that much late. */
    async advance(ms: number, lateMs = 0) {
      const until = clock + ms
      for (;;) {
        const due = timers.filter((timer) => !timer.cancelled && timer.at + lateMs <= until).sort((a, b) => a.at - b.at)[0]
        if (!due) break
        clock = Math.max(clock, due.at + lateMs)
        due.cancelled = true
        due.callback()
        await settle()
      }
      clock = until
      await settle()
    },
    media: () => frames.filter((sent) => sent.frame.event === 'media'),
  }
}

const samplesOf = (frame: ServerFrame) => (frame.event === 'media' ? Buffer.from(frame.media.payload, 'base64').length / 2 : 0)

describe('captions leave with the voice', () => {
  it('sends each sentence’s answer right after its first audio frame, not when synthesis starts', async () => {
    const call = harness({ holdSynthesis: true })
    const utterance = call.output.begin()
    call.output.say(utterance, WELCOME)
    call.output.say(utterance, HELP)
    void call.output.finish(utterance)
    await call.advance(500)
    expect(call.frames).toEqual([])
    for (const synthesis of call.held.splice(0)) synthesis.resolve()
    await call.settle()
    await call.advance(20_000)
    const events = call.frames.map((sent) => sent.frame.event)
    const answers = events.flatMap((event, index) => (event === 'answer' ? [index] : []))
    expect(answers).toHaveLength(2)
    for (const index of answers) expect(events[index - 1]).toBe('media')
    // The second caption follows the first sentence's audio, with the second's first frame.
    const firstSentenceFrames = Math.ceil((speech.get(WELCOME)?.length ?? 0) / 1_600)
    expect(answers[1]).toBe(answers[0]! + firstSentenceFrames + 1)
    expect(call.frames.filter((sent) => sent.frame.event === 'answer').map((sent) => (sent.frame as { content: string }).content)).toEqual([
      WELCOME,
      HELP,
    ])
    expect(events.at(-1)).toBe('mark')
  })

  it('still captions a sentence whose synthesis failed, in its place', async () => {
    const call = harness()
    const utterance = call.output.begin()
    call.output.say(utterance, 'A sentence the test voice has no audio for.')
    call.output.say(utterance, HELP)
    void call.output.finish(utterance)
    await call.advance(5_000)
    expect(call.frames.slice(0, 3).map((sent) => sent.frame.event)).toEqual(['answer', 'media', 'answer'])
  })
})

describe('a barge-in keeps only what was played', () => {
  it('is audible only while its audio plays: not while the first sentence is still being made, nor once it all played', async () => {
    const call = harness({ holdSynthesis: true })
    const utterance = call.output.begin()
    call.output.say(utterance, WELCOME)
    void call.output.finish(utterance)
    await call.advance(300)
    // Making its voice: speaking (the caller waits), but nothing to talk over yet.
    expect(call.output.speaking).toBe(true)
    expect(call.output.audible).toBe(false)
    for (const synthesis of call.held.splice(0)) synthesis.resolve()
    await call.settle()
    await call.advance(100)
    expect(call.output.audible).toBe(true)
    await call.advance(20_000)
    expect(call.output.audible).toBe(false)
  })

  it('has been audible since its first audio played: a caller already talking before then did not talk over it', async () => {
    const call = harness({ holdSynthesis: true })
    const utterance = call.output.begin()
    call.output.say(utterance, WELCOME)
    call.output.say(utterance, HELP)
    void call.output.finish(utterance)
    await call.advance(300)
    for (const synthesis of call.held.splice(0)) synthesis.resolve()
    await call.settle()
    const firstAudio = call.now
    await call.advance(250)
    expect(call.output.audibleSince(firstAudio - 1)).toBe(false)
    expect(call.output.audibleSince(firstAudio + 200)).toBe(true)
    // Into the second sentence: still one stretch from the first audio.
    await call.advance((speech.get(WELCOME)?.length ?? 0) / 16)
    expect(call.output.audible).toBe(true)
    expect(call.output.audibleSince(firstAudio + 10)).toBe(true)
    call.output.clear()
    expect(call.output.audibleSince(firstAudio + 10)).toBe(false)
  })

  it('keeps the words whose audio played by the clear, marks the turn interrupted, and says so in the clear frame', async () => {
    const call = harness()
    const utterance = call.output.begin()
    call.output.say(utterance, WELCOME)
    call.output.say(utterance, HELP)
    void call.output.finish(utterance)
    await call.settle()
    await call.advance(1_500)
    expect(call.output.clear()).toBe(true)
    const timed = timeWords(WELCOME, speech.get(WELCOME) ?? new Int16Array(0), VOICE)
    const expected = wordsHeard(timed, 1.5 * RATE).map((word) => word.text)
    expect(expected.length).toBeGreaterThan(1)
    expect(expected.length).toBeLessThan(timed.length)
    expect(utterance).toMatchObject({ interrupted: true, heardText: expected.join(' ') })
    expect(utterance.heardText).not.toContain('help')
    expect(call.frames.slice(-2).map((sent) => sent.frame)).toMatchObject([
      { event: 'clear' },
      { event: 'info', code: 'AGENT_INTERRUPTED', heard: expected.join(' ') },
    ])
    // Only played audio is recorded: 1.5 s of it, not the lead sent ahead.
    expect(call.recorded.reduce((sum, chunk) => sum + chunk.samples, 0)).toBe(1.5 * RATE)
    expect(call.media().reduce((sum, sent) => sum + samplesOf(sent.frame), 0)).toBeGreaterThan(1.5 * RATE)
  })

  it('clear before any audio was sent: nothing heard, interrupted, and no caption was sent', async () => {
    const call = harness({ holdSynthesis: true })
    const utterance = call.output.begin()
    call.output.say(utterance, WELCOME)
    await call.advance(200)
    expect(call.output.clear()).toBe(true)
    expect(utterance).toMatchObject({ interrupted: true, heardText: '' })
    expect(call.frames.map((sent) => sent.frame)).toMatchObject([
      { event: 'clear' },
      { event: 'info', code: 'AGENT_INTERRUPTED', heard: '' },
    ])
    // Synthesis that finishes after the clear sends nothing.
    for (const synthesis of call.held.splice(0)) synthesis.resolve()
    await call.advance(2_000)
    expect(call.frames).toHaveLength(2)
  })

  it('clear during the last word keeps the sentence but at most that word, and a second clear changes nothing', async () => {
    const call = harness()
    const utterance = call.output.begin()
    call.output.say(utterance, HELP)
    const heard = call.output.finish(utterance)
    await call.settle()
    const timed = timeWords(HELP, speech.get(HELP) ?? new Int16Array(0), VOICE)
    const last = timed.at(-1)!
    await call.advance(((last.start + last.end) / 2 / RATE) * 1000 - 20)
    expect(call.output.clear()).toBe(true)
    await heard
    const heardFirst = utterance.heardText
    expect(['How else can I', 'How else can I help?']).toContain(heardFirst)
    expect(utterance.interrupted).toBe(true)
    const frames = call.frames.length
    expect(call.output.clear()).toBe(false)
    expect(call.frames).toHaveLength(frames)
    expect(utterance.heardText).toBe(heardFirst)
  })

  it('a clear while the next sentence is still being made, the first one played out (the client ran dry), keeps only the first', async () => {
    const call = harness({ holdSynthesis: true })
    const utterance = call.output.begin()
    call.output.say(utterance, WELCOME)
    call.output.say(utterance, HELP)
    void call.output.finish(utterance)
    call.held[0]!.resolve()
    await call.settle()
    await call.advance(((speech.get(WELCOME)?.length ?? 0) / RATE) * 1000 + 500)
    expect(call.output.clear()).toBe(true)
    expect(utterance).toMatchObject({ interrupted: true, heardText: WELCOME })
  })

  it('a clear after the audio played but before its mark came back keeps every word and is no interruption', async () => {
    const call = harness()
    const utterance = call.output.begin()
    call.output.say(utterance, HELP)
    void call.output.finish(utterance)
    await call.settle()
    await call.advance(((speech.get(HELP)?.length ?? 0) / RATE) * 1000 + 100)
    call.output.clear()
    expect(utterance.interrupted).toBe(false)
    expect(utterance.heardText).toBeUndefined()
  })
})

describe('pacing by the audio clock', () => {
  it('keeps at least the lead queued after every pump, even when every timer fires 400 ms late', async () => {
    for (const lateMs of [0, 400]) {
      const call = harness({ leadMs: 600 })
      const utterance = call.output.begin()
      call.output.say(utterance, WELCOME)
      void call.output.finish(utterance)
      await call.settle()
      const total = (speech.get(WELCOME)?.length ?? 0) / RATE
      const leads: number[] = []
      const started = call.now
      while (call.now - started < total * 1000) {
        await call.advance(50, lateMs)
        const sent = call.media().reduce((sum, frame) => sum + samplesOf(frame.frame), 0) / RATE
        // What the client still has queued, on the audio clock (a late timer leaves less; the next pump makes up for it).
        if (sent < total) leads.push(sent - (call.now - started) / 1000)
      }
      expect(Math.min(...leads)).toBeGreaterThanOrEqual(lateMs === 0 ? 0.599 : 0.6 - 0.45)
    }
  })

  it('sends further ahead while the next sentence is still being synthesised, back to the lead once it is there', async () => {
    const call = harness({ holdSynthesis: true, leadMs: 600, coverLeadMs: 2_000 })
    const utterance = call.output.begin()
    call.output.say(utterance, WELCOME)
    call.output.say(utterance, HELP)
    void call.output.finish(utterance)
    call.held[0]!.resolve()
    await call.advance(10)
    const queued = () => call.media().reduce((sum, frame) => sum + samplesOf(frame.frame), 0) / RATE
    expect(queued()).toBeGreaterThanOrEqual(2)
    call.held[1]!.resolve()
    await call.advance(10)
    expect(queued()).toBeLessThan(2.2)
  })
})
