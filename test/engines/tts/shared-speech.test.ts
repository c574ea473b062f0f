import { afterAll, describe, expect, it } from 'vitest'
import { SharedSpeech } from '../../../src/engines/tts/shared-speech'
import { createEspeakTtsEngine, TtsEngineError, type TtsEngine } from '../../../src/engines/tts/tts-engine'
import { VOICES } from '../../../src/shared/voices'

const AVA = VOICES.find((voice) => voice.name === 'Ava')!.id
const ARABIC_VOICE = VOICES.find((voice) => voice.lang === 'ar')!.id

/** A synthesis the test finishes by hand, and the stop signal it was given. */
function manualMaker() {
  const made: { text: string; stop: AbortSignal; finish: (audio: Int16Array) => void; fail: (error: Error) => void }[] = []
  const make = (text: string) => (stop: AbortSignal) =>
    new Promise<Int16Array>((resolve, reject) => made.push({ text, stop, finish: resolve, fail: reject }))
  return { made, make }
}

async function rejection(promise: Promise<unknown>): Promise<TtsEngineError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(TtsEngineError)
  return error as TtsEngineError
}

describe('SharedSpeech: one synthesis for a sentence many calls say', () => {
  let engine: Promise<TtsEngine> | undefined
  afterAll(async () => (await engine)?.close())

  it('twenty calls greeting at once make the greeting once with real eSpeak, and the next call gets it kept', async () => {
    engine ??= createEspeakTtsEngine()
    const tts = await engine
    const shared = new SharedSpeech({ maxSamples: 1_000_000 })
    let syntheses = 0
    const make = (text: string, voiceId: string) => async (stop: AbortSignal) => {
      syntheses += 1
      return (await tts.synthesizePcm(text, voiceId, { signal: stop, priority: 'live' })).samples
    }
    const greeting = 'Hello, thank you for calling Bella Vista. How can I help you today?'
    const calls = Array.from({ length: 20 }, () => new AbortController())
    const audio = await Promise.all(calls.map((call) => shared.speak(greeting, AVA, call.signal, make(greeting, AVA))))
    expect(syntheses).toBe(1)
    expect(audio[0]!.length).toBeGreaterThan(22_050) // more than a second of speech
    expect(new Set(audio).size).toBe(1)
    await shared.speak(greeting, AVA, new AbortController().signal, make(greeting, AVA))
    expect(syntheses).toBe(1)
    // Another voice saying the same words is another sentence.
    const arabic = await shared.speak(greeting, ARABIC_VOICE, undefined, make(greeting, ARABIC_VOICE))
    expect(syntheses).toBe(2)
    expect(arabic).not.toBe(audio[0])
  })

  it('a call that hangs up leaves the shared synthesis running for the others; the last one leaving stops it', async () => {
    const { made, make } = manualMaker()
    const shared = new SharedSpeech({ maxSamples: 1_000 })
    const first = new AbortController()
    const second = new AbortController()
    const firstAudio = shared.speak('Welcome', AVA, first.signal, make('Welcome'))
    const secondAudio = shared.speak('Welcome', AVA, second.signal, make('Welcome'))
    expect(made).toHaveLength(1)
    first.abort()
    expect((await rejection(firstAudio)).code).toBe('ABORTED')
    expect(made[0]!.stop.aborted).toBe(false)
    made[0]!.finish(new Int16Array([1, 2, 3]))
    expect(Array.from(await secondAudio)).toEqual([1, 2, 3])

    const third = new AbortController()
    const thirdAudio = shared.speak('Goodbye', AVA, third.signal, make('Goodbye'))
    third.abort()
    expect((await rejection(thirdAudio)).code).toBe('ABORTED')
    expect(made[1]!.stop.aborted).toBe(true)
    // Asked again, it is made anew (the stopped one is not waited for).
    const again = shared.speak('Goodbye', AVA, undefined, make('Goodbye'))
    expect(made).toHaveLength(3)
    made[2]!.finish(new Int16Array([9]))
    expect(Array.from(await again)).toEqual([9])
  })

  it('a call already hung up gets ABORTED at once and starts nothing', async () => {
    const { made, make } = manualMaker()
    const shared = new SharedSpeech({ maxSamples: 1_000 })
    const gone = new AbortController()
    gone.abort()
    expect((await rejection(shared.speak('Hi', AVA, gone.signal, make('Hi')))).code).toBe('ABORTED')
    expect(made).toHaveLength(0)
  })

  it('a failed synthesis fails every call waiting for it and is not kept: the next ask tries again', async () => {
    const { made, make } = manualMaker()
    const shared = new SharedSpeech({ maxSamples: 1_000 })
    const waiting = [shared.speak('Hi', AVA, new AbortController().signal, make('Hi')), shared.speak('Hi', AVA, undefined, make('Hi'))]
    made[0]!.fail(new TtsEngineError('WORKER_CRASHED', 'the worker died'))
    for (const audio of waiting) expect((await rejection(audio)).code).toBe('WORKER_CRASHED')
    const retry = shared.speak('Hi', AVA, undefined, make('Hi'))
    expect(made).toHaveLength(2)
    made[1]!.finish(new Int16Array([5]))
    expect(Array.from(await retry)).toEqual([5])
  })

  it('keeps no more audio than its size: the least recently used sentence goes first', async () => {
    const shared = new SharedSpeech({ maxSamples: 10 })
    let syntheses = 0
    const make = (length: number) => () => {
      syntheses += 1
      return Promise.resolve(new Int16Array(length))
    }
    await shared.speak('one', AVA, undefined, make(4))
    await shared.speak('two', AVA, undefined, make(4))
    await shared.speak('one', AVA, undefined, make(4)) // kept; now the most recent
    await shared.speak('three', AVA, undefined, make(4)) // 12 > 10: 'two' goes
    expect(syntheses).toBe(3)
    await shared.speak('one', AVA, undefined, make(4))
    expect(syntheses).toBe(3)
    await shared.speak('two', AVA, undefined, make(4))
    expect(syntheses).toBe(4)
    // A sentence longer than the whole cache is handed out but not kept.
    await shared.speak('long', AVA, undefined, make(50))
    await shared.speak('long', AVA, undefined, make(50))
    expect(syntheses).toBe(6)
  })
})
