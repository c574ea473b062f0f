/**
 * The job runner's lanes and fairness over the whole HTTP pipeline, on SQLite and (in the
 * `postgres` project) PostgreSQL: media URLs served by a dripping server (a real loopback HTTP
 * server written here, standing for a hostile or broken media host: one byte every 2 s, never
 * silent long enough for the fetch's idle limit) must not keep another project's TTS job, or its
 * transcription, from running. The speech recognition server is the loopback double
 * (helpers/speech-server-double.ts), standing for whisper.cpp's server outside this machine; the
 * drips never get that far.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { STT_SETTING_KEY } from '../../../src/service/settings/stt-settings'
import type { RuntimeConfig } from '../../../src/service/runtime'
import { JobReadSchema, type Job } from '../../../src/shared/api/jobs'
import { VOICES } from '../../../src/shared/voices'
import { startSpeechServerDouble } from '../../helpers/speech-server-double'
import { startTestService, type TestService } from '../../helpers/test-service'

const AVA = VOICES.find((voice) => voice.name === 'Ava')!.id

/** A media host that answers audio and then sends one byte every `everyMs`, for ever; it records the paths asked. */
async function startDripServer(everyMs = 2_000): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = []
  const server = createServer((request, response) => {
    asked.push(request.url ?? '')
    response.writeHead(200, { 'content-type': 'audio/mpeg' })
    response.write('I')
    const timer = setInterval(() => response.write('D'), everyMs)
    response.on('close', () => clearInterval(timer))
  })
  drips.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked }
}
const drips: Server[] = []
afterEach(async () => {
  for (const server of drips.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A service with a speech server set; stopping it gives running jobs 100 ms, not 10 s. */
async function serviceWithSpeech(config: Partial<RuntimeConfig> = {}): Promise<TestService> {
  const speech = await startSpeechServerDouble()
  const service = await startTestService({ ...config, jobs: { graceMs: 100, ...config.jobs } })
  await service.runtime.store.settings.set(STT_SETTING_KEY, { engine: 'openai-compatible', baseUrl: speech.url, model: 'whisper-1' })
  return service
}

async function post(service: TestService, key: string, url: string, body: unknown): Promise<string> {
  const response = await service.call('POST', url, { key, body })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<{ data: { id: string } }>().data.id
}

async function jobOf(service: TestService, key: string, id: string): Promise<Job> {
  return JobReadSchema.parse((await service.call('GET', `/v1/jobs?jobId=${id}`, { key })).json()).data
}

/** Polls until the job ended or `withinMs` passed; answers the job as last read and when it was read. */
async function endOf(service: TestService, key: string, id: string, withinMs: number): Promise<Job> {
  const deadline = Date.now() + withinMs
  for (;;) {
    const job = await jobOf(service, key, id)
    if (job.status !== 'PENDING' || Date.now() > deadline) return job
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

async function until(condition: () => boolean, withinMs: number, what: string): Promise<void> {
  const deadline = Date.now() + withinMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('job lanes', () => {
  it("runs another project's TTS job and transcription at once while four media URLs of one project drip a byte every 2 s", async () => {
    const service = await serviceWithSpeech()
    const drip = await startDripServer()
    const other = await service.otherProject()
    // The speech engine starts with the process's first TTS job (seconds on a loaded machine): started first, not measured.
    const warmUp = await post(service, other.key, '/v1/jobs/text-to-speech', { voiceId: AVA, text: 'Warm up.' })
    expect((await endOf(service, other.key, warmUp, 60_000)).status).toBe('COMPLETED')
    const dripping = []
    for (let index = 0; index < 4; index += 1) {
      dripping.push(
        await post(service, service.key, '/v1/jobs/transcribe', {
          model: 'General-V2.0',
          processingType: 'async',
          mediaUrl: `${drip.url}/a${index}.mp3`,
        }),
      )
    }
    // The first project holds its share of the media lane (2 of its 3 slots); its other two wait.
    await until(() => drip.asked.length === 2, 10_000, 'two drips fetched')

    const queued = Date.now()
    const speech = await post(service, other.key, '/v1/jobs/text-to-speech', { voiceId: AVA, text: 'Your appointment is confirmed.' })
    const spoken = await endOf(service, other.key, speech, 30_000)
    const tookMs = Date.now() - queued
    expect(spoken.status, JSON.stringify(spoken.error)).toBe('COMPLETED')
    // Under a second on an idle 2-core machine (bench part `starvation`); the bound is generous for a loaded one.
    // Without lanes the drips hold every slot and the job stays PENDING for as long as they drip.
    expect(tookMs).toBeLessThan(15_000)
    // The other project's transcription takes the lane's free slot at once, ahead of the first project's waiting two.
    await post(service, other.key, '/v1/jobs/transcribe', { model: 'General-V2.0', processingType: 'async', mediaUrl: `${drip.url}/b.mp3` })
    await until(() => drip.asked.includes('/b.mp3'), 10_000, "the other project's media fetched")
    expect(drip.asked.slice(0, 2).sort()).toEqual(['/a0.mp3', '/a1.mp3'])
    expect(drip.asked).toHaveLength(3)
    for (const id of dripping) expect((await jobOf(service, service.key, id)).status).toBe('PENDING')
  }, 120_000)

  it('ends each dripping fetch with MEDIA_FETCH_FAILED at the least rate, once, and then runs the waiting ones', async () => {
    // A least rate of 64 bytes/s over 1 s windows (instead of 4 KiB/s over 30 s): the same rule, quicker.
    const service = await serviceWithSpeech({ mediaIntake: { minFetchBytesPerSecond: 64, fetchRateWindowMs: 1_000 } })
    const drip = await startDripServer()
    const ids = []
    for (let index = 0; index < 4; index += 1) {
      ids.push(
        await post(service, service.key, '/v1/jobs/transcribe', {
          model: 'General-V2.0',
          processingType: 'async',
          mediaUrl: `${drip.url}/a${index}.mp3?token=s3cret`,
        }),
      )
    }
    for (const [index, id] of ids.entries()) {
      const job = await endOf(service, service.key, id, 20_000)
      expect(job).toMatchObject({ status: 'FAILED', error: { code: 'MEDIA_FETCH_FAILED' } })
      expect(job.error!.message).toMatch(
        new RegExp(
          `^${drip.url}/a${index}\\.mp3 sent the media too slowly \\(\\d bytes? in 1 s; at least 64 bytes per second are needed\\); nothing was kept$`,
        ),
      )
    }
    // Not tried again: a slow host is slow the next time too.
    expect(drip.asked.map((path) => path.split('?')[0]).sort()).toEqual(['/a0.mp3', '/a1.mp3', '/a2.mp3', '/a3.mp3'])
  }, 60_000)
})
