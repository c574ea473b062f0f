import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createEspeakTtsEngine, TtsEngineError, type SpeechOptions, type TtsEngine } from '../../../src/engines/tts/tts-engine'
import { VOICES } from '../../../src/shared/voices'

/*
 * The pool around eSpeak, with a stand-in module in real worker threads (fixtures/thread-tagging-espeak.mjs):
 * each synthesis keeps its thread busy 30 ms and answers samples holding the worker's threadId,
 * so a test sees which thread ran what, and in which order the work finished.
 */
const TAGGING = fileURLToPath(new URL('./fixtures/thread-tagging-espeak.mjs', import.meta.url))
const AVA = VOICES.find((voice) => voice.name === 'Ava')!.id

function pool(workers: number, idleReleaseMs?: number): Promise<TtsEngine> {
  return createEspeakTtsEngine({ espeakModulePath: TAGGING, workers, ...(idleReleaseMs ? { idleReleaseMs } : {}) })
}

/** Runs `text` and answers the worker's threadId, recording in `order` when it finished. */
async function tagged(engine: TtsEngine, text: string, order: string[], options?: SpeechOptions): Promise<number> {
  const speech = await engine.synthesizePcm(text, AVA, options)
  order.push(text)
  return speech.samples[0]!
}

function rejection(promise: Promise<unknown>): Promise<TtsEngineError> {
  return promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(TtsEngineError)
      return error as TtsEngineError
    },
  )
}

async function using<T>(engine: TtsEngine, test: (engine: TtsEngine) => Promise<T>): Promise<T> {
  try {
    return await test(engine)
  } finally {
    await engine.close()
  }
}

describe('the synthesis pool', () => {
  it('runs a live synthesis queued behind 30 batch ones next, on one worker', async () => {
    await using(await pool(1), async (engine) => {
      const order: string[] = []
      const jobs = Array.from({ length: 30 }, (_, index) => tagged(engine, `job ${index}`, order, { priority: 'batch' }))
      const call = tagged(engine, 'call sentence', order, { priority: 'live' })
      await Promise.all([...jobs, call])
      // Job 0 had the worker already; the call's sentence went next.
      expect(order.indexOf('call sentence')).toBe(1)
      expect(order.filter((text) => text.startsWith('job'))).toEqual(Array.from({ length: 30 }, (_, index) => `job ${index}`))
    })
  })

  it('takes calls in turn: a call with five sentences queued does not hold back another call', async () => {
    await using(await pool(1), async (engine) => {
      const order: string[] = []
      const callA = new AbortController()
      const callB = new AbortController()
      const blocker = tagged(engine, 'job', order, { priority: 'batch' })
      const a = [1, 2, 3, 4, 5].map((sentence) => tagged(engine, `A${sentence}`, order, { signal: callA.signal }))
      const b = [1, 2].map((sentence) => tagged(engine, `B${sentence}`, order, { signal: callB.signal }))
      await Promise.all([blocker, ...a, ...b])
      expect(order).toEqual(['job', 'A1', 'B1', 'A2', 'B2', 'A3', 'A4', 'A5'])
    })
  })

  it('frees the place of an aborted synthesis at once: it rejects before the work ahead of it ends, and never runs', async () => {
    await using(await pool(1), async (engine) => {
      const order: string[] = []
      const controller = new AbortController()
      const running = tagged(engine, 'running', order)
      const aborted = rejection(tagged(engine, 'aborted', order, { signal: controller.signal, priority: 'batch' }))
      const after = tagged(engine, 'after', order, { priority: 'batch' })
      controller.abort(new Error('caller hung up'))
      const error = await aborted
      expect(error).toMatchObject({ code: 'ABORTED', cause: new Error('caller hung up') })
      expect(order).toEqual([])
      await Promise.all([running, after])
      expect(order).toEqual(['running', 'after'])
    })
  })

  it('starts workers only when work waits for them, up to its size, and uses them all under load', async () => {
    await using(await pool(3), async (engine) => {
      const order: string[] = []
      // One at a time: the warm worker serves them all.
      const sequential = new Set<number>()
      for (let index = 0; index < 4; index += 1) sequential.add(await tagged(engine, `one ${index}`, order))
      expect(sequential.size).toBe(1)
      // Many at once: three threads, never a fourth.
      const threads = new Set(await Promise.all(Array.from({ length: 40 }, (_, index) => tagged(engine, `many ${index}`, order))))
      expect(threads.size).toBe(3)
      expect(threads.has([...sequential][0]!)).toBe(true)
    })
  })

  it('fails the synthesis whose worker crashed with a clear error, and serves the rest on a new worker', async () => {
    await using(await pool(1), async (engine) => {
      const order: string[] = []
      const before = await tagged(engine, 'before', order)
      const crash = rejection(tagged(engine, 'please crash now', order))
      const queued = [1, 2, 3].map((index) => tagged(engine, `queued ${index}`, order))
      const error = await crash
      expect(error.code).toBe('WORKER_CRASHED')
      expect(error.message).toBe('The eSpeak worker thread stopped while synthesizing (exit code 70); the next call starts a new one')
      const replacements = new Set(await Promise.all(queued))
      expect(replacements.size).toBe(1)
      expect(replacements.has(before)).toBe(false)
    })
  })

  it('ends a worker idle for idleReleaseMs, keeps one warm, and starts another when work comes back', async () => {
    await using(await pool(2, 150), async (engine) => {
      const order: string[] = []
      const busy = () => Promise.all(Array.from({ length: 30 }, (_, index) => tagged(engine, `work ${index}`, order)))
      const first = new Set(await busy())
      expect(first.size).toBe(2)
      await new Promise((resolve) => setTimeout(resolve, 600))
      const second = new Set(await busy())
      expect(second.size).toBe(2)
      // One of the two stayed warm; the other is a new thread.
      expect([...second].filter((thread) => first.has(thread))).toHaveLength(1)
    })
  })

  it('serves 20 calls of 3 sentences with 100 jobs queued first: every first sentence before any third, jobs after the calls', async () => {
    await using(await pool(2), async (engine) => {
      const order: string[] = []
      const jobs = Array.from({ length: 100 }, (_, index) => tagged(engine, `job ${index}`, order, { priority: 'batch' }))
      const calls = Array.from({ length: 20 }, () => new AbortController())
      const sentences = calls.flatMap((call, index) =>
        [1, 2, 3].map((sentence) => tagged(engine, `call ${index} sentence ${sentence}`, order, { signal: call.signal })),
      )
      await Promise.all([...jobs, ...sentences])
      const position = (text: string) => order.indexOf(text)
      const lastFirst = Math.max(...calls.map((_, index) => position(`call ${index} sentence 1`)))
      const firstThird = Math.min(...calls.map((_, index) => position(`call ${index} sentence 3`)))
      expect(lastFirst).toBeLessThan(firstThird)
      // Only the job segments already running when the calls came (one per worker) finish before the calls' last sentence.
      const lastCall = Math.max(...sentences.map((_, index) => position(`call ${Math.floor(index / 3)} sentence ${(index % 3) + 1}`)))
      expect(order.slice(0, lastCall).filter((text) => text.startsWith('job')).length).toBeLessThanOrEqual(2)
      expect(order).toHaveLength(160)
    })
  })
})
