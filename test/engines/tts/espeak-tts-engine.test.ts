import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEspeakTtsEngine, TtsEngineError, type TtsEngine } from '../../../src/engines/tts/tts-engine'
import { VOICES } from '../../../src/shared/voices'
import { longestSilenceSeconds, medianPitchHz, nonZeroShare, readWav, rms } from './wav-reading'

const voice = (name: string) => VOICES.find((candidate) => candidate.name === name)!.id
const AVA = voice('Ava') // American female
const ETHAN = voice('Ethan') // American male
const HARPER = voice('Harper') // American female, quick
const OLIVER = voice('Oliver') // British male, measured
const LAYLA = voice('Layla') // Arabic female
const OMAR = voice('Omar') // Arabic male

/** 15 words. */
const ENGLISH = 'Your appointment with the dental clinic is confirmed for Tuesday at half past ten.'
const ARABIC = 'مرحباً بكم في عيادة الأسنان. موعدكم يوم الثلاثاء الساعة العاشرة والنصف صباحاً.'
const PARAGRAPH =
  'Thank you for calling the front desk. We have received your request and a member of our team will call you back ' +
  'within one business day. If your matter is urgent, please stay on the line and we will connect you to the next ' +
  'available agent. '

function textOf(length: number): string {
  return PARAGRAPH.repeat(Math.ceil(length / PARAGRAPH.length)).slice(0, length)
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

let engine: TtsEngine

beforeAll(async () => {
  engine = await createEspeakTtsEngine()
})

afterAll(async () => {
  await engine?.close()
})

describe('the eSpeak TTS engine', () => {
  it('speaks English into a valid 16-bit mono WAV of plausible length', async () => {
    const speech = await engine.synthesize(ENGLISH, AVA)
    const wav = readWav(speech.wav)

    expect(wav).toMatchObject({
      riff: 'RIFF',
      riffSize: speech.wav.length - 8,
      wave: 'WAVE',
      fmtId: 'fmt ',
      fmtSize: 16,
      audioFormat: 1,
      channels: 1,
      sampleRate: 22050,
      byteRate: 22050 * 2,
      blockAlign: 2,
      bitsPerSample: 16,
      dataId: 'data',
      dataSize: speech.wav.length - 44,
    })
    expect(speech.sampleRate).toBe(22050)
    expect(speech.durationSeconds).toBeCloseTo(wav.samples.length / 22050, 10)
    expect(speech.durationSeconds).toBeGreaterThan(2)
    expect(speech.durationSeconds).toBeLessThan(10)
    expect(rms(wav.samples)).toBeGreaterThan(500)
    expect(nonZeroShare(wav.samples)).toBeGreaterThan(0.5)
  })

  it('speaks Arabic', async () => {
    const speech = await engine.synthesize(ARABIC, LAYLA)
    const wav = readWav(speech.wav)

    expect(wav).toMatchObject({
      riff: 'RIFF',
      wave: 'WAVE',
      audioFormat: 1,
      channels: 1,
      bitsPerSample: 16,
      dataSize: speech.wav.length - 44,
    })
    expect(speech.durationSeconds).toBeGreaterThan(2)
    expect(speech.durationSeconds).toBeLessThan(20)
    expect(rms(wav.samples)).toBeGreaterThan(500)
    expect(nonZeroShare(wav.samples)).toBeGreaterThan(0.5)
  })

  it('gives every catalogue voice a voice of its own, all served by concurrent calls', async () => {
    const results = await Promise.all(VOICES.map((entry) => engine.synthesize(entry.lang === 'en' ? ENGLISH : ARABIC, entry.id)))

    const pitches = results.map((speech) => medianPitchHz(readWav(speech.wav).samples, speech.sampleRate))
    VOICES.forEach((entry, index) => {
      const speech = results[index]!
      expect(rms(readWav(speech.wav).samples), entry.name).toBeGreaterThan(500)
      // Female variants speak around 180-260 Hz here, male ones around 70-100 Hz.
      if (entry.gender === 'female') expect(pitches[index], entry.name).toBeGreaterThan(150)
      else expect(pitches[index], entry.name).toBeLessThan(130)
    })
    // No two voices of a language speak the same text at the same pitch and pace.
    const signatures = results.map(
      (speech, index) => `${VOICES[index]!.lang} ${Math.round(pitches[index]! / 5)} ${speech.durationSeconds.toFixed(1)}`,
    )
    expect(new Set(signatures).size).toBe(VOICES.length)
    // The first test on a cold pool: each worker warms up on its own (V8 optimises the synthesizer per thread).
  }, 60_000)

  it('makes two voices sound different: pitch for gender, pace for the rate', async () => {
    const [ava, ethan, harper, oliver, layla, omar] = await Promise.all(
      [AVA, ETHAN, HARPER, OLIVER, LAYLA, OMAR].map((id) => engine.synthesize(id === LAYLA || id === OMAR ? ARABIC : ENGLISH, id)),
    )
    const pitch = (speech: typeof ava) => medianPitchHz(readWav(speech!.wav).samples, speech!.sampleRate)

    expect(pitch(ava)).toBeGreaterThan(pitch(ethan) * 1.5)
    expect(pitch(layla)).toBeGreaterThan(pitch(omar) * 1.5)
    expect(harper!.durationSeconds).toBeLessThan(oliver!.durationSeconds * 0.85)
    expect(ava!.wav.equals(ethan!.wav)).toBe(false)
  })

  it('speaks 5,000 characters in one call', async () => {
    const speech = await engine.synthesize(textOf(5_000), ETHAN)

    // About 850 words at 170 words per minute, with pauses: four to six minutes.
    expect(speech.durationSeconds).toBeGreaterThan(200)
    expect(speech.durationSeconds).toBeLessThan(450)
    expect(readWav(speech.wav).dataSize).toBe(speech.wav.length - 44)
  })

  it('normalises whitespace and reads markup aloud instead of obeying it', async () => {
    const plain = await engine.synthesize('One two three. Four five six.', AVA)
    const spaced = await engine.synthesize('  One\n\ttwo   three.\r\n\u00a0Four five\u0000 six.\n', AVA)
    expect(Math.abs(spaced.durationSeconds - plain.durationSeconds)).toBeLessThan(0.1)

    // Obeyed as SSML, this would be a five-second pause.
    const markup = await engine.synthesize('One <break time="5s"/> two', AVA)
    expect(longestSilenceSeconds(readWav(markup.wav).samples, markup.sampleRate)).toBeLessThan(1)
  })

  it('rejects an unknown voice id and empty text with clear errors', async () => {
    const unknown = await rejection(engine.synthesize(ENGLISH, 'no-such-voice'))
    expect(unknown.code).toBe('UNKNOWN_VOICE')
    expect(unknown.message).toBe('Unknown voice id "no-such-voice": it is not one of the 14 catalogue voices')

    const empty = await rejection(engine.synthesize(' \n\t ', AVA))
    expect(empty.code).toBe('EMPTY_TEXT')
  })

  it('streams the same speech chunk by chunk, the first chunks before the synthesis ends', async () => {
    const whole = await engine.synthesize(textOf(1_500), AVA)
    const chunks: { bytes: Buffer; at: number }[] = []
    let settledAt = 0
    const streamed = await engine.synthesizeStream(textOf(1_500), AVA, (pcm, sampleRate) => {
      expect(sampleRate).toBe(whole.sampleRate)
      chunks.push({ bytes: pcm, at: performance.now() })
    })
    settledAt = performance.now()
    // About 100 ms of audio a chunk, whole samples each.
    expect(chunks.length).toBeGreaterThan(50)
    for (const chunk of chunks) expect(chunk.bytes.byteLength % 2).toBe(0)
    const bytes = Buffer.concat(chunks.map((chunk) => chunk.bytes))
    expect(streamed).toEqual({ sampleRate: whole.sampleRate, durationSeconds: bytes.byteLength / 2 / whole.sampleRate })
    // The same speech as the whole WAV (eSpeak varies by a few samples from run to run).
    expect(Math.abs(streamed.durationSeconds - whole.durationSeconds)).toBeLessThan(0.05)
    expect(rms(new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2))).toBeGreaterThan(500)
    // Handed over as they were made, not all at the end.
    expect(chunks[0]!.at).toBeLessThan(settledAt - 20)
    await expect(rejection(engine.synthesizeStream('   ', AVA, () => {}))).resolves.toMatchObject({ code: 'EMPTY_TEXT' })
    await expect(rejection(engine.synthesizeStream('Hello', 'nobody', () => {}))).resolves.toMatchObject({ code: 'UNKNOWN_VOICE' })
  })

  it('stops a streaming synthesis when its signal aborts: no chunk after the rejection', async () => {
    const controller = new AbortController()
    let afterRejection = 0
    let rejected = false
    const streaming = engine.synthesizeStream(
      textOf(5_000),
      AVA,
      () => {
        if (rejected) afterRejection++
        else controller.abort()
      },
      controller.signal,
    )
    const error = await rejection(streaming)
    rejected = true
    expect(error.code).toBe('ABORTED')
    await engine.synthesize('Still here.', AVA)
    expect(afterRejection).toBe(0)
  })

  it('rejects an already aborted signal', async () => {
    const reason = new Error('job timed out')
    const error = await rejection(engine.synthesize(ENGLISH, AVA, AbortSignal.abort(reason)))
    expect(error).toMatchObject({ code: 'ABORTED', message: 'Speech synthesis was aborted', cause: reason })
  })

  it('rejects promptly when the signal aborts mid-synthesis, and goes on serving', async () => {
    const controller = new AbortController()
    const long = engine.synthesize(textOf(5_000), OLIVER, controller.signal)
    const queued = engine.synthesize(textOf(5_000), OLIVER, controller.signal)
    await new Promise((resolve) => setTimeout(resolve, 20))
    const abortedAt = performance.now()
    controller.abort()

    expect((await rejection(long)).code).toBe('ABORTED')
    expect((await rejection(queued)).code).toBe('ABORTED')
    expect(performance.now() - abortedAt).toBeLessThan(50)
    // The worker stops the cancelled text within a chunk and takes the next call at once.
    const startedNext = performance.now()
    const next = await engine.synthesize('Still here.', AVA)
    expect(next.durationSeconds).toBeGreaterThan(0.3)
    expect(performance.now() - startedNext).toBeLessThan(500)
  })

  it('keeps the event loop responsive while a long text is synthesized', async () => {
    let longestGap = 0
    let last = performance.now()
    const timer = setInterval(() => {
      const now = performance.now()
      longestGap = Math.max(longestGap, now - last)
      last = now
    }, 10)
    try {
      const speech = await engine.synthesize(textOf(3_000), HARPER)
      expect(speech.durationSeconds).toBeGreaterThan(100)
    } finally {
      clearInterval(timer)
    }
    // Synthesizing this text on the main thread would block it for seconds (over 100 s of audio at
    // about 50x real time); a loaded 2-core machine can delay a timer by 100 ms on its own, so the
    // bound sits well between the two.
    expect(longestGap).toBeLessThan(500)
  })
})

describe('the engine lifecycle', () => {
  it('stays closed after close(): idempotent, calls in flight and later calls reject clearly', async () => {
    const own = await createEspeakTtsEngine()
    const inFlight = rejection(own.synthesize(textOf(2_000), AVA))

    await Promise.all([own.close(), own.close()])

    expect(await inFlight).toMatchObject({ code: 'ENGINE_CLOSED' })
    expect(await rejection(own.synthesize(ENGLISH, AVA))).toMatchObject({ code: 'ENGINE_CLOSED', message: 'The TTS engine is closed' })
    await own.close()
  })

  it('rejects creation clearly when eSpeak cannot be loaded', async () => {
    const error = await rejection(createEspeakTtsEngine({ espeakModulePath: '/nowhere/espeak-ng.js' }))
    expect(error.code).toBe('START_FAILED')
    expect(error.message).toMatch(/^eSpeak could not start in its worker thread: .*\/nowhere\/espeak-ng\.js/)
  })

  it('fails the call whose worker crashed, then starts a new worker for the next call', async () => {
    // The stand-in eSpeak of the pool's tests: its thread exits on a text with "crash", and it answers 100 samples holding its threadId.
    const crashing = await createEspeakTtsEngine({
      espeakModulePath: fileURLToPath(new URL('./fixtures/thread-tagging-espeak.mjs', import.meta.url)),
      workers: 1,
    })
    try {
      const before = (await crashing.synthesizePcm('hello', AVA)).samples[0]
      const crashed = await rejection(crashing.synthesize('please crash now', AVA))
      expect(crashed.code).toBe('WORKER_CRASHED')
      expect(crashed.message).toMatch(/worker thread stopped while synthesizing \(exit code 70\); the next call starts a new one/)

      const next = await crashing.synthesizePcm('hello again', AVA)
      expect(next.samples).toHaveLength(100)
      expect(next.samples[0]).not.toBe(before)
    } finally {
      await crashing.close()
    }
  })

  it('serves concurrent calls from several worker threads', async () => {
    const pool = await createEspeakTtsEngine({ workers: 2 })
    try {
      const results = await Promise.all(
        [ENGLISH, ARABIC, ENGLISH, ARABIC].map((text, index) => pool.synthesize(text, index % 2 ? OMAR : ETHAN)),
      )
      for (const speech of results) expect(rms(readWav(speech.wav).samples)).toBeGreaterThan(500)
    } finally {
      await pool.close()
    }
  })

  it('puts a call ahead of TTS jobs: a call sentence asked for behind 30 queued jobs finishes before nearly all of them', async () => {
    const pool = await createEspeakTtsEngine({ workers: 2 })
    const jobs = new AbortController()
    try {
      const finished: string[] = []
      // Each job about 600 characters (two segments), as TTS jobs are spoken: whole WAVs, batch priority.
      const queued = Array.from({ length: 30 }, (_, index) =>
        pool.synthesize(textOf(600), index % 2 ? OMAR : ETHAN, { signal: jobs.signal, priority: 'batch' }).then(
          () => finished.push(`job ${index}`),
          (error: unknown) => expect(error).toMatchObject({ code: 'ABORTED' }),
        ),
      )
      const call = await pool.synthesizePcm('Hello, thank you for calling. How can I help you today?', AVA, { priority: 'live' })
      finished.push('call')
      expect(call.sampleRate).toBe(22050)
      expect(call.durationSeconds).toBeCloseTo(call.samples.length / 22050, 10)
      expect(rms(call.samples)).toBeGreaterThan(500)
      // The jobs each worker held a segment of when the call came may finish first, no more.
      expect(finished.indexOf('call')).toBeLessThanOrEqual(2)
      jobs.abort()
      await Promise.all(queued)
    } finally {
      await pool.close()
    }
  })

  it('hands a call the same speech as PCM that a job gets as WAV', async () => {
    const [pcm, wav] = await Promise.all([engine.synthesizePcm(ENGLISH, AVA), engine.synthesize(ENGLISH, AVA, { priority: 'batch' })])
    expect(Math.abs(pcm.durationSeconds - wav.durationSeconds)).toBeLessThan(0.05)
    expect(rms(pcm.samples)).toBeGreaterThan(500)
    expect(await rejection(engine.synthesizePcm('  ', AVA))).toMatchObject({ code: 'EMPTY_TEXT' })
  })
})
