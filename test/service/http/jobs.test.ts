import { describe, expect, it } from 'vitest'
import type { AiContentEngine } from '../../../src/engines/ai-content/ai-content-engine'
import { AiContentJobEnvelopeSchema, JobListEnvelopeSchema, JobReadSchema, TtsJobEnvelopeSchema } from '../../../src/shared/api/jobs'
import { VOICES } from '../../../src/shared/voices'
import { seedJob, seedJobs } from '../../helpers/seed-jobs'
import { startTestService, type TestService } from '../../helpers/test-service'

const AVA = VOICES.find((voice) => voice.name === 'Ava')!.id
const LAYLA = VOICES.find((voice) => voice.name === 'Layla')!.id

/** Polls the job until it leaves PENDING (the runner works in the same process). */
async function waitForJob(service: TestService, id: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const response = await service.call('GET', `/v1/jobs?jobId=${id}`)
    const job = JobReadSchema.parse(response.json())
    if (job.data.status !== 'PENDING') return job
    if (Date.now() > deadline) throw new Error(`job ${id} still PENDING after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

function pathOf(url: string): string {
  return new URL(url).pathname
}

function wavDurationSeconds(wav: Buffer): number {
  expect(wav.toString('ascii', 0, 4)).toBe('RIFF')
  expect(wav.toString('ascii', 8, 12)).toBe('WAVE')
  const channels = wav.readUInt16LE(22)
  const sampleRate = wav.readUInt32LE(24)
  const bitsPerSample = wav.readUInt16LE(34)
  expect([channels, bitsPerSample]).toEqual([1, 16])
  return wav.readUInt32LE(40) / (sampleRate * 2)
}

describe('POST /v1/jobs/text-to-speech', () => {
  it('queues a job that writes real audio, served at its media URL and previewed', async () => {
    const service = await startTestService()
    const response = await service.call('POST', '/v1/jobs/text-to-speech', {
      body: { voiceId: AVA, text: 'Your appointment is confirmed for Tuesday at ten in the morning.' },
    })
    expect(response.statusCode, response.body).toBe(200)
    const created = TtsJobEnvelopeSchema.parse(response.json()).data
    expect(created).toMatchObject({ type: 'TTS', status: 'PENDING', ttsVoiceId: AVA, model: 'espeak-ng', webhookUrl: null })
    expect(created.mediaUrl).toMatch(/\/media\/[A-Za-z0-9_-]{32}\.wav$/)
    expect(created.jobResponse).toEqual({
      text: 'Your appointment is confirmed for Tuesday at ten in the morning.',
      ttsMediaFile: created.mediaUrl,
    })
    expect(created.totalCost).toBeGreaterThan(0)

    const done = await waitForJob(service, created.id)
    expect(done.data).toMatchObject({ status: 'COMPLETED', type: 'TTS', mediaUrl: created.mediaUrl })
    expect(done.data.usageTime).toMatch(/^\d+\.\d{3}$/)
    const media = await service.call('GET', pathOf(created.mediaUrl), { key: null })
    expect(media.statusCode).toBe(200)
    expect(media.headers['content-type']).toBe('audio/wav')
    const seconds = wavDurationSeconds(media.rawPayload)
    expect(seconds).toBeCloseTo(Number(done.data.usageTime), 2)
    expect(seconds).toBeGreaterThan(1.5)

    const ranged = await service.call('GET', pathOf(created.mediaUrl), { key: null, headers: { range: 'bytes=0-99' } })
    expect(ranged.statusCode).toBe(206)
    expect(ranged.rawPayload.length).toBe(100)
    expect(ranged.headers['content-range']).toBe(`bytes 0-99/${media.rawPayload.length}`)
    const tail = await service.call('GET', pathOf(created.mediaUrl), { key: null, headers: { range: 'bytes=-10' } })
    expect(tail.rawPayload).toEqual(media.rawPayload.subarray(-10))
    const beyond = await service.call('GET', pathOf(created.mediaUrl), {
      key: null,
      headers: { range: `bytes=${media.rawPayload.length}-` },
    })
    expect(beyond.statusCode).toBe(416)
    expect(beyond.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } })
    expect((await service.call('GET', '/media/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.wav', { key: null })).statusCode).toBe(404)

    const preview = await service.call('GET', pathOf(done.previewUrl), { key: null })
    expect(preview.statusCode).toBe(200)
    expect(preview.headers['content-type']).toContain('text/html')
    expect(preview.body).toContain(`<audio controls preload="metadata" src="${created.mediaUrl}"`)
  })

  it('speaks Arabic too', async () => {
    const service = await startTestService()
    const created = (
      await service.call('POST', '/v1/jobs/text-to-speech', { body: { voiceId: LAYLA, text: 'مرحباً، تم تأكيد موعدك يوم الثلاثاء.' } })
    ).json().data
    const done = await waitForJob(service, created.id)
    expect(done.data.status).toBe('COMPLETED')
    expect(Number(done.data.usageTime)).toBeGreaterThan(0.5)
  })

  it('answers media that does not exist, or is not written yet, with a 404', async () => {
    const service = await startTestService()
    for (const path of ['/media/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.wav', '/media/../voicedesk.db', '/media/secret.key']) {
      expect((await service.call('GET', path, { key: null })).statusCode, path).toBe(404)
    }
    expect((await service.call('GET', '/preview/not-a-token', { key: null })).statusCode).toBe(404)
  })

  const invalid: [string, Record<string, unknown>, string][] = [
    ['blank text', { voiceId: AVA, text: '   ' }, 'body.text'],
    ['text over 5,000 characters', { voiceId: AVA, text: 'a'.repeat(5_001) }, 'body.text'],
    ['an unknown voice', { voiceId: '9d6a1707-b717-4e39-b6d2-4bfd68aee57d', text: 'Hi' }, 'body.voiceId'],
    ['a webhook that is not http(s)', { voiceId: AVA, text: 'Hi', webhookUrl: 'file:///etc/passwd' }, 'body.webhookUrl'],
    [
      'a webhookAuth part with a line break',
      { voiceId: AVA, text: 'Hi', webhookUrl: 'http://127.0.0.1/x', webhookAuth: { authKey: 'Bearer\r\nX: 1' } },
      'body.webhookAuth.authKey',
    ],
    ['an unknown field', { voiceId: AVA, text: 'Hi', speed: 2 }, 'body.speed'],
  ]
  it.each(invalid)('refuses %s with a 400 naming the path, and queues nothing', async (_label, body, path) => {
    const service = await startTestService()
    const response = await service.call('POST', '/v1/jobs/text-to-speech', { body })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.details.map((detail: { path: string }) => detail.path)).toContain(path)
    const list = await service.call('POST', `/v1/jobs/all?projectId=${service.runtime.bootstrap.projectId}`, { body: {} })
    expect(list.json().data.total).toBe(0)
  })
})

const TRANSCRIPT = `Thanks for calling Northwind Dental, this is Maya. The caller, James Porter, wanted to move his cleaning appointment
from Monday to Thursday afternoon because of a work trip. We checked the schedule and Thursday at three is open with Dr. Patel.
James also asked whether his insurance covers the fluoride treatment. I explained that most plans cover it once a year and that
the front desk will confirm his coverage by email. He asked for a reminder text the day before. The appointment is now booked for
Thursday at three, and a reminder text will go out on Wednesday.`

describe('AI content', () => {
  it('writes the parts asked for from a finished transcript, readable by its id or by the source id', async () => {
    const service = await startTestService()
    const source = await seedJob(service.runtime, { title: 'Dental call', text: TRANSCRIPT })
    const response = await service.call('POST', `/v1/jobs/ai-content?jobId=${source.id}`, {
      body: { aiParts: ['summary', 'twitterThread', 'keywords'] },
    })
    expect(response.statusCode, response.body).toBe(200)
    const created = AiContentJobEnvelopeSchema.parse(response.json()).data
    expect(created).toMatchObject({ type: 'AI_CONTENT', status: 'PENDING', jobResponse: null, relevantJobId: source.id })

    await waitForJob(service, created.id)
    const read = AiContentJobEnvelopeSchema.parse((await service.call('GET', `/v1/jobs/ai-content?jobId=${created.id}`)).json()).data
    expect(read.status).toBe('COMPLETED')
    expect(Object.keys(read.jobResponse!).sort()).toEqual(['keywords', 'summary', 'transcriptionJobId', 'twitterThread'])
    expect(read.jobResponse!.transcriptionJobId).toBe(source.id)
    expect(read.jobResponse!.summary!.length).toBeGreaterThan(20)
    for (const tweet of read.jobResponse!.twitterThread!.split(/\n\s*\n/)) expect([...tweet].length).toBeLessThanOrEqual(280)

    const bySource = (await service.call('GET', `/v1/jobs/ai-content?jobId=${source.id}`)).json().data
    expect(bySource.id).toBe(created.id)
  })

  it('refuses a source of another type, one that is not COMPLETED, an unknown one, and bad parts', async () => {
    const service = await startTestService()
    const failed = await seedJob(service.runtime, { status: 'FAILED' })
    const aiJob = await seedJob(service.runtime, { type: 'AI_CONTENT', relevantJobId: failed.id, text: null })
    const body = { aiParts: ['summary'] }
    expect((await service.call('POST', `/v1/jobs/ai-content?jobId=${failed.id}`, { body })).statusCode).toBe(409)
    expect((await service.call('POST', `/v1/jobs/ai-content?jobId=${aiJob.id}`, { body })).statusCode).toBe(409)
    expect((await service.call('POST', '/v1/jobs/ai-content?jobId=9d6a1707-b717-4e39-b6d2-4bfd68aee57d', { body })).statusCode).toBe(404)
    const source = await seedJob(service.runtime)
    for (const aiParts of [[], ['summary', 'summary'], ['poem']]) {
      const response = await service.call('POST', `/v1/jobs/ai-content?jobId=${source.id}`, { body: { aiParts } })
      expect(response.statusCode, JSON.stringify(aiParts)).toBe(400)
      expect(response.json().error.details[0].path).toMatch(/^body\.aiParts/)
    }
  })

  it('ends FAILED with a clear error when the engine fails', async () => {
    const broken: AiContentEngine = {
      name: 'broken-model',
      generate: async () => {
        throw new Error('could not reach http://127.0.0.1:9/v1/chat/completions')
      },
    }
    const service = await startTestService({ aiContentEngine: broken })
    const source = await seedJob(service.runtime, { text: TRANSCRIPT })
    const created = (await service.call('POST', `/v1/jobs/ai-content?jobId=${source.id}`, { body: { aiParts: ['summary'] } })).json().data
    const done = await waitForJob(service, created.id)
    expect(done.data).toMatchObject({
      status: 'FAILED',
      error: { code: 'AI_ENGINE_FAILED', message: expect.stringContaining('could not reach') },
    })
    expect(done.data.model).toBe('broken-model')
  })
})

describe('GET /v1/jobs and POST /v1/jobs/all', () => {
  it('reads one job of the project with a preview URL, and 404s others', async () => {
    const service = await startTestService()
    const job = await seedJob(service.runtime, { title: 'Quarterly call' })
    const read = await service.call('GET', `/v1/jobs?jobId=${job.id}`)
    expect(read.statusCode).toBe(200)
    const body = JobReadSchema.parse(read.json())
    expect(read.json()).not.toHaveProperty('success')
    expect(body.previewUrl).toMatch(/\/preview\/[A-Za-z0-9_-]{32}$/)
    expect(body.data).toMatchObject({ id: job.id, type: 'TRANSCRIPTION', usageTime: '42.000', billingId: null })
    const other = await service.otherProject()
    expect((await service.call('GET', `/v1/jobs?jobId=${job.id}`, { key: other.key })).statusCode).toBe(404)
    const forbidden = await service.call('POST', `/v1/jobs/all?projectId=${service.runtime.bootstrap.projectId}`, {
      key: other.key,
      body: {},
    })
    expect(forbidden.statusCode).toBe(403)
    expect(forbidden.json().error.code).toBe('FORBIDDEN')
  })

  it("answers a FAILED job's error with a code of the contract's list, INTERNAL for a code it does not know", async () => {
    const service = await startTestService()
    const read = async (fields: Parameters<typeof seedJob>[1]) => {
      const response = await service.call('GET', `/v1/jobs?jobId=${(await seedJob(service.runtime, { status: 'FAILED', ...fields })).id}`)
      expect(response.statusCode).toBe(200)
      return JobReadSchema.parse(response.json()).data.error
    }
    expect(await read({ errorCode: 'TIMEOUT', errorMessage: 'The last try ran out of time' })).toEqual({
      code: 'TIMEOUT',
      message: 'The last try ran out of time',
    })
    // Written by another version (or by hand): still an answer that keeps to the schema, with its message.
    expect(await read({ errorCode: 'FROM_A_NEWER_VERSION', errorMessage: 'Something new went wrong' })).toEqual({
      code: 'INTERNAL',
      message: 'Something new went wrong',
    })
    expect(await read({ errorCode: null, errorMessage: null })).toEqual({ code: 'INTERNAL', message: 'The job failed' })
  })

  it('filters, sorts with stable ties, pages by 1-based skip, and searches title, text and id', async () => {
    const service = await startTestService()
    const base = Date.parse('2026-01-01T00:00:00.000Z')
    const seeded = await seedJobs(service.runtime, 25, (index) => ({
      title: index % 5 === 0 ? `Refund request ${index}` : `Support call ${index}`,
      text: index === 7 ? 'الرجاء تأكيد موعد الاستشارة' : `Customer number ${index} asked about delivery`,
      type: index % 2 === 0 ? 'TRANSCRIPTION' : 'TRANSLATION',
      status: index % 3 === 0 ? 'FAILED' : 'COMPLETED',
      totalCost: index % 4,
      // Pairs share a timestamp, so ties must be broken by id.
      createdAt: new Date(base + Math.floor(index / 2) * 1000).toISOString(),
    }))
    const list = async (body: unknown) => {
      const response = await service.call('POST', `/v1/jobs/all?projectId=${service.runtime.bootstrap.projectId}`, { body })
      expect(response.statusCode, response.body).toBe(200)
      return JobListEnvelopeSchema.parse(response.json()).data
    }

    const first = await list({})
    expect(first).toMatchObject({ total: 25, filtered: 25 })
    expect(first.jobs).toHaveLength(10)
    const pages = [...first.jobs, ...(await list({ skip: 2 })).jobs, ...(await list({ skip: 3 })).jobs]
    expect(new Set(pages.map((job) => job.id)).size).toBe(25)
    const expectedOrder = [...seeded].sort((a, b) =>
      a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
    )
    expect(pages.map((job) => job.id)).toEqual(expectedOrder.map((job) => job.id))

    const failed = await list({ status: 'FAILED', take: 100 })
    expect(failed.filtered).toBe(seeded.filter((job) => job.status === 'FAILED').length)
    expect(failed.jobs.every((job) => job.status === 'FAILED')).toBe(true)
    const translations = await list({ type: 'TRANSLATION', status: 'COMPLETED', take: 100 })
    expect(translations.jobs.every((job) => job.type === 'TRANSLATION' && job.status === 'COMPLETED')).toBe(true)

    const byCost = await list({ sort: { field: 'cost', direction: 'ASC' }, take: 100 })
    const costs = byCost.jobs.map((job) => job.cost)
    expect(costs).toEqual([...costs].sort((a, b) => a - b))
    const byTitle = await list({ sort: { field: 'title', direction: 'desc' }, take: 100 })
    const titles = byTitle.jobs.map((job) => job.title)
    expect(titles).toEqual([...titles].sort().reverse())

    expect((await list({ search: 'REFUND' })).filtered).toBe(5)
    expect((await list({ search: 'refu' })).filtered).toBe(5)
    expect((await list({ search: 'delivery 12' })).jobs.map((job) => job.title)).toEqual(['Support call 12'])
    expect((await list({ search: 'الاستشارة' })).jobs.map((job) => job.id)).toEqual([seeded[7]!.id])
    expect((await list({ search: seeded[3]!.id.toUpperCase() })).jobs.map((job) => job.id)).toEqual([seeded[3]!.id])
    // An id search counts its one job on every page, and none when a filter leaves it out.
    expect(await list({ search: seeded[3]!.id, skip: 2 })).toMatchObject({ jobs: [], filtered: 1 })
    const otherStatus = seeded[3]!.status === 'FAILED' ? 'COMPLETED' : 'FAILED'
    expect(await list({ search: seeded[3]!.id, status: otherStatus })).toMatchObject({ jobs: [], filtered: 0 })
    expect((await list({ search: '"*' })).filtered).toBe(0)

    const item = first.jobs[0]!
    expect(item.apiKey).toMatch(/…/)
    expect(item.attributes.apiKey).toBe(item.apiKey)
    expect(item.createdBy).toBe(service.runtime.bootstrap.userId)
  })

  it('refuses out-of-range pages and unknown sort fields', async () => {
    const service = await startTestService()
    const url = `/v1/jobs/all?projectId=${service.runtime.bootstrap.projectId}`
    for (const [body, path] of [
      [{ take: 0 }, 'body.take'],
      [{ take: 101 }, 'body.take'],
      [{ skip: 0 }, 'body.skip'],
      [{ sort: { field: 'priority' } }, 'body.sort.field'],
      [{ sort: { field: 'title', direction: 'up' } }, 'body.sort.direction'],
      [{ status: 'RUNNING' }, 'body.status'],
    ] as const) {
      const response = await service.call('POST', url, { body })
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
      expect(response.json().error.details[0].path).toBe(path)
    }
    expect((await service.call('POST', '/v1/jobs/all', { body: {} })).statusCode).toBe(400)
  })
})
