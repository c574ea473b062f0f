/**
 * The operator UI's operations for transcripts, on a real runtime (real SQLite file, runner and
 * media store): where a job's media plays (`jobs.get`'s `playableMediaUrl`), a running job's
 * progress on its row (`jobs.list`), subtitles (`jobs.subtitles`) and translations made from a
 * finished job (`jobs.translate`), with their refusals. Transcriptions are seeded as finished or
 * running: this branch's runtime does not run them yet.
 */
import { describe, expect, it } from 'vitest'
import { writeWavPcm16Mono } from '../../src/engines/audio/wav-file'
import { invokeOperation } from '../../src/service/operator/invoke-operation'
import { sourceMediaName } from '../../src/service/ops/media-names'
import type { IpcInput, IpcOperationName, IpcOutput, IpcResult } from '../../src/shared/ipc/operations'
import { seedJob } from '../helpers/seed-jobs'
import { startTestService } from '../helpers/test-service'

const SEGMENTS = [
  { start: 0, end: 1.5, text: 'Hello, thanks for calling.' },
  { start: 1.5, end: 3.25, text: 'How can I help?' },
]

async function setUp() {
  const service = await startTestService()
  const { runtime } = service
  await runtime.start()
  const handlers = runtime.operatorHandlers('desktop')
  const call = async <N extends IpcOperationName>(name: N, input: IpcInput<N>): Promise<IpcResult<N>> =>
    (await invokeOperation(handlers, name, input, (error) => {
      throw error
    })) as IpcResult<N>
  const ok = async <N extends IpcOperationName>(name: N, input: IpcInput<N>) => {
    const result = await call(name, input)
    if (!result.ok) throw new Error(`${name} was refused: ${JSON.stringify(result.error)}`)
    return result.data as IpcOutput<N>
  }
  const mediaFile = sourceMediaName('call.wav')
  await runtime.context.media.put(mediaFile, writeWavPcm16Mono(new Int16Array(16_000 * 4)))
  const transcription = await seedJob(runtime, {
    title: 'Support call',
    mediaFile,
    sourceUrl: 'https://media.example.com/call.wav',
    text: SEGMENTS.map((segment) => segment.text).join(' '),
    jobResponse: { text: SEGMENTS.map((segment) => segment.text).join(' '), language: 'en', durationSeconds: 4, segments: SEGMENTS },
  })
  return { runtime, call, ok, mediaFile, transcription }
}

describe('jobs.get: where the media plays', () => {
  it("gives a transcription's stored source on this service, and a translation's through its source (translations of translations too)", async () => {
    const { runtime, ok, mediaFile, transcription } = await setUp()
    const own = `${runtime.context.baseUrl()}/media/${mediaFile}`
    const read = await ok('jobs.get', { id: transcription.id })
    expect(read.playableMediaUrl).toBe(own)
    // /v1's field keeps the client's URL.
    expect(read.job.mediaUrl).toBe('https://media.example.com/call.wav')
    const served = await fetch(own)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('audio/wav')
    await served.arrayBuffer()

    const translation = await seedJob(runtime, { type: 'TRANSLATION', relevantJobId: transcription.id, toLng: 'ar', mediaFile: null })
    const again = await seedJob(runtime, { type: 'TRANSLATION', relevantJobId: translation.id, toLng: 'en', mediaFile: null })
    expect((await ok('jobs.get', { id: translation.id })).playableMediaUrl).toBe(own)
    expect((await ok('jobs.get', { id: again.id })).playableMediaUrl).toBe(own)

    // Nothing to play: a running transcription, a translation of a text, one whose source is gone.
    const running = await seedJob(runtime, {
      status: 'PENDING',
      mediaFile: sourceMediaName('lecture.wav'),
      leaseOwner: 'elsewhere',
      leaseExpiresAt: Date.now() + 3_600_000,
    })
    expect((await ok('jobs.get', { id: running.id })).playableMediaUrl).toBeNull()
    const ofText = await seedJob(runtime, { type: 'TRANSLATION', relevantJobId: null, toLng: 'ar', mediaFile: null })
    expect((await ok('jobs.get', { id: ofText.id })).playableMediaUrl).toBeNull()
    const orphan = await seedJob(runtime, {
      type: 'TRANSLATION',
      relevantJobId: '7b0f7a3e-8f53-4a5e-9f59-3c3a4c8f0b11',
      toLng: 'ar',
      mediaFile: null,
    })
    expect((await ok('jobs.get', { id: orphan.id })).playableMediaUrl).toBeNull()
  })
})

describe("jobs.list: a running job's progress", () => {
  it('shows the progress of a PENDING job being run on its row, and none once it ended', async () => {
    const { runtime, ok, transcription } = await setUp()
    const running = await seedJob(runtime, {
      status: 'PENDING',
      title: 'Long lecture',
      jobResponse: null,
      leaseOwner: 'elsewhere',
      leaseExpiresAt: Date.now() + 3_600_000,
    })
    expect(await runtime.store.jobs.heartbeat(running.id, 'elsewhere', Date.now() + 3_600_000, 0.42)).toBe(true)
    const { jobs } = await ok('jobs.list', { take: 10 })
    expect(jobs.find((job) => job.id === running.id)?.progress).toBe(0.42)
    expect(jobs.find((job) => job.id === transcription.id)).not.toHaveProperty('progress')
    expect((await ok('jobs.get', { id: running.id })).job.progress).toBe(0.42)
  })
})

describe('jobs.subtitles', () => {
  it('answers SRT and WebVTT of a finished transcription, and refuses jobs without segments', async () => {
    const { runtime, ok, call, transcription } = await setUp()
    const srt = await ok('jobs.subtitles', { jobId: transcription.id, format: 'srt' })
    expect(srt).toEqual({
      format: 'srt',
      text: '1\n00:00:00,000 --> 00:00:01,500\nHello, thanks for calling.\n\n2\n00:00:01,500 --> 00:00:03,250\nHow can I help?\n',
    })
    const vtt = await ok('jobs.subtitles', { jobId: transcription.id, format: 'vtt' })
    expect(vtt.text.startsWith('WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nHello')).toBe(true)

    const running = await seedJob(runtime, {
      status: 'PENDING',
      jobResponse: null,
      leaseOwner: 'elsewhere',
      leaseExpiresAt: Date.now() + 3_600_000,
    })
    expect(await call('jobs.subtitles', { jobId: running.id, format: 'srt' })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } })
    const tts = await seedJob(runtime, { type: 'TTS', jobResponse: null })
    expect(await call('jobs.subtitles', { jobId: tts.id, format: 'vtt' })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } })
    const withoutSegments = await seedJob(runtime, {
      type: 'TRANSLATION',
      toLng: 'ar',
      jobResponse: { text: 'نص', fromLng: 'en', toLng: 'ar' },
    })
    expect(await call('jobs.subtitles', { jobId: withoutSegments.id, format: 'srt' })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT' },
    })
    expect(await call('jobs.subtitles', { jobId: '7b0f7a3e-8f53-4a5e-9f59-3c3a4c8f0b11', format: 'srt' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    })
    expect(await call('jobs.subtitles', { jobId: transcription.id, format: 'ass' as 'srt' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: [{ path: 'format' }] },
    })
  })
})

describe('jobs.translate', () => {
  it('queues a translation of a finished transcription (the app as its maker), and refuses what cannot be translated', async () => {
    const { runtime, ok, call, transcription } = await setUp()
    const job = await ok('jobs.translate', { jobId: transcription.id, toLng: 'ar' })
    expect(job).toMatchObject({
      type: 'TRANSLATION',
      status: 'PENDING',
      relevantJobId: transcription.id,
      fromLng: 'en',
      toLng: 'ar',
      apiKeyId: runtime.appCaller.apiKeyId,
    })
    // Offline (the default engine), it fails as the contract says, with nothing made up.
    await expect
      .poll(async () => (await ok('jobs.get', { id: job.id })).job.error?.code, { timeout: 20_000 })
      .toBe('LLM_ENGINE_NOT_CONFIGURED')

    // Already in English: a refusal on toLng, as /v1 gives it.
    expect(await call('jobs.translate', { jobId: transcription.id, toLng: 'en' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: [{ path: 'toLng' }] },
    })
    const running = await seedJob(runtime, {
      status: 'PENDING',
      jobResponse: null,
      leaseOwner: 'elsewhere',
      leaseExpiresAt: Date.now() + 3_600_000,
    })
    expect(await call('jobs.translate', { jobId: running.id, toLng: 'ar' })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', details: [{ path: 'jobId' }] },
    })
    expect(await call('jobs.translate', { jobId: '7b0f7a3e-8f53-4a5e-9f59-3c3a4c8f0b11', toLng: 'ar' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    })
    expect(await call('jobs.translate', { jobId: transcription.id, toLng: 'fr' as 'ar' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: [{ path: 'toLng' }] },
    })
  })
})
