/**
 * Pipedream's Hamsa component, replayed request by request over real HTTP against a real
 * runtime listening on 127.0.0.1: the headers and bodies it sends (axios 1.x's headers, a
 * lower-case `authorization: Token …`, List Jobs' POST with no body but axios's form type), and
 * only what it reads from the answers. See shared/design/clients.md, "Pipedream's Hamsa component".
 */
import { request as httpRequest } from 'node:http'
import { describe, expect, it } from 'vitest'
import { ErrorEnvelopeSchema } from '../../../src/shared/api/errors'
import { JobReadSchema } from '../../../src/shared/api/jobs'
import { StatisticsNumbersEnvelopeSchema } from '../../../src/shared/api/projects'
import { VOICES } from '../../../src/shared/voices'
import { seedJob, seedJobs } from '../../helpers/seed-jobs'
import { startTestService, type TestService } from '../../helpers/test-service'
import { startWebhookReceiver } from '../../helpers/webhook-receiver'
import { startSpeechServerDouble } from '../../helpers/speech-server-double'
import { STT_SETTING_KEY } from '../../../src/service/settings/stt-settings'

const AVA = VOICES.find((voice) => voice.name === 'Ava')!.id
/** What axios 1.x sends with every request of the component. */
const AXIOS_HEADERS = {
  accept: 'application/json, text/plain, */*',
  'user-agent': 'axios/1.8.4',
  'accept-encoding': 'gzip, compress, deflate, br',
}

/**
 * The headers of one of the component's requests, as axios 1.x sets them: JSON data is
 * `application/json`; a POST without data still gets its default form type, with
 * `Content-Length: 0` (List Jobs, the job id options); a GET gets neither.
 */
function axiosHeaders(key: string, method: 'GET' | 'POST', payload: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { ...AXIOS_HEADERS, authorization: `Token ${key}` }
  if (payload !== undefined)
    Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) })
  else if (method === 'POST') Object.assign(headers, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' })
  return headers
}

interface Answer {
  status: number
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any -- the component reads answers untyped, as this test does
}

interface Pipedream {
  service: TestService
  /** One request as the component's axios sends it, header for header: a JSON body only when `body` is given. */
  send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer>
}

async function startPipedream(): Promise<Pipedream> {
  const service = await startTestService({ port: 0 })
  await service.runtime.start()
  const { port } = service.runtime.app.server.address() as { port: number }
  const send = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    new Promise<Answer>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body)
      const headers = axiosHeaders(service.key, method, payload)
      const outgoing = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (incoming) => {
        const chunks: Buffer[] = []
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }))
      })
      outgoing.on('error', reject)
      outgoing.end(payload)
    })
  return { service, send }
}

/** `GET /v1/projects/by-api-key` → `data.id`, as List Jobs and the job id options begin. */
async function projectIdOf(pipedream: Pipedream): Promise<string> {
  const answer = await pipedream.send('GET', '/v1/projects/by-api-key')
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return answer.body.data.id as string
}

async function waitForCompletion(service: TestService, jobId: string): Promise<void> {
  const deadline = Date.now() + 20_000
  while (JobReadSchema.parse((await service.call('GET', `/v1/jobs?jobId=${jobId}`)).json()).data.status === 'PENDING') {
    if (Date.now() > deadline) throw new Error(`job ${jobId} still PENDING`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

function expectValidationError(answer: Answer, path: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400)
  const envelope = ErrorEnvelopeSchema.parse(answer.body)
  expect(envelope.error.code).toBe('VALIDATION_ERROR')
  expect(envelope.error.details.map((detail) => detail.path)).toContain(path)
}

describe("Pipedream's Hamsa component, action by action", () => {
  it('Synthesize Voice: POST /v1/jobs/text-to-speech and reads data.id', async () => {
    const pipedream = await startPipedream()
    const answer = await pipedream.send('POST', '/v1/jobs/text-to-speech', { voiceId: AVA, text: 'Your parcel arrives tomorrow.' })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.body.data.id).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('Create AI Content: POST /v1/jobs/ai-content?jobId= from a transcription, and reads data.id', async () => {
    const pipedream = await startPipedream()
    const transcription = await seedJob(pipedream.service.runtime, {
      text: 'Thanks for calling. Your refund was approved and arrives within five days.',
    })
    const answer = await pipedream.send('POST', `/v1/jobs/ai-content?jobId=${transcription.id}`, { aiParts: ['summary', 'keywords'] })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.body.data.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(answer.body.data.relevantJobId).toBe(transcription.id)
  })

  it('Transcribe Video: POST /v1/jobs/transcribe with its model names and webhookAuth; the job runs and its webhook says so (the speech server is a loopback double)', async () => {
    const pipedream = await startPipedream()
    const speech = await startSpeechServerDouble()
    await pipedream.service.runtime.store.settings.set(STT_SETTING_KEY, { engine: 'openai-compatible', baseUrl: speech.url })
    const receiver = await startWebhookReceiver()
    // The media: this service's own TTS audio, as a URL the component would pass along.
    const tts = await pipedream.send('POST', '/v1/jobs/text-to-speech', { voiceId: AVA, text: 'Your parcel arrives tomorrow before noon.' })
    await waitForCompletion(pipedream.service, tts.body.data.id)
    const mediaUrl = (await pipedream.send('GET', `/v1/jobs?jobId=${tts.body.data.id}`)).body.data.mediaUrl as string
    for (const model of ['Hamsa-General-V2.0', 'Hamsa-Conversational-V1.0']) {
      const answer = await pipedream.send('POST', '/v1/jobs/transcribe', {
        mediaUrl,
        model,
        processingType: 'async',
        webhookUrl: receiver.url,
        title: 'Parcel call',
        language: 'en',
        webhookAuth: { authKey: 'Token' },
      })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      expect(answer.body.data).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: 'TRANSCRIPTION',
        model,
        status: 'PENDING',
      })
      await waitForCompletion(pipedream.service, answer.body.data.id)
    }
    await expect.poll(() => receiver.requests.length, { timeout: 10_000 }).toBe(2)
    for (const request of receiver.requests) {
      expect(request.headers.authorization).toBe('Token')
      expect(JSON.parse(request.body)).toMatchObject({ event: 'job.completed', data: { type: 'TRANSCRIPTION', status: 'COMPLETED' } })
    }
    expect(speech.requests).toHaveLength(2)
  })

  it('List Jobs: GET /v1/projects/by-api-key, then POST /v1/jobs/all?projectId= with no body', async () => {
    const pipedream = await startPipedream()
    const project = await pipedream.send('GET', '/v1/projects/by-api-key')
    expect(project.status).toBe(200)
    expect(project.body.data).toEqual({
      id: pipedream.service.runtime.bootstrap.projectId,
      name: 'Default project',
      createdAt: expect.any(String),
    })
    const seeded = await seedJob(pipedream.service.runtime, { title: 'Support call' })

    const list = await pipedream.send('POST', `/v1/jobs/all?projectId=${project.body.data.id}`)
    expect(list.status, JSON.stringify(list.body)).toBe(200)
    expect(list.body.data.jobs.map((job: { id: string; title: string }) => [job.id, job.title])).toEqual([[seeded.id, 'Support call']])
  })

  it('Job id options: ?take=100&skip=<page*100> in the query is an offset, and reads data.jobs[].{id,title}', async () => {
    const pipedream = await startPipedream()
    const start = Date.parse('2026-11-01T00:00:00.000Z')
    const seeded = (
      await seedJobs(pipedream.service.runtime, 230, (index) => ({
        title: `Job ${index}`,
        createdAt: new Date(start + index * 1000).toISOString(),
      }))
    ).reverse() // newest first, as listed
    const projectId = await projectIdOf(pipedream)

    const pages: { id: string; title: string }[][] = []
    for (const page of [0, 1, 2, 3]) {
      const answer = await pipedream.send('POST', `/v1/jobs/all?projectId=${projectId}&take=100&skip=${page * 100}`)
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      pages.push(answer.body.data.jobs.map(({ id, title }: { id: string; title: string }) => ({ id, title })))
    }
    expect(pages.map((page) => page.length)).toEqual([100, 100, 30, 0])
    // Every job once, in order: no page overlaps or skips one (a page number would have started at 9,900).
    expect(pages.flat()).toEqual(seeded.map(({ id, title }) => ({ id, title })))
  })

  it('Voice id options: GET /v1/tts/voices?take=100[&skip=] and shows name (tags joined by " - ")', async () => {
    const pipedream = await startPipedream()
    const first = await pipedream.send('GET', '/v1/tts/voices?take=100')
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const options = first.body.data.map(({ id, name, tags }: { id: string; name: string; tags: string[] }) => ({
      label: `${name} (${tags.join(' - ')})`,
      value: id,
    }))
    expect(options).toHaveLength(14)
    expect(options[0]).toEqual({ label: 'Ava (English - Female - American)', value: AVA })
    expect(options).toContainEqual({
      label: 'Omar (Arabic - Male - Modern Standard Arabic)',
      value: 'f738ab97-f3a6-4bfd-996a-0dacb6d9252a',
    })
    expect(new Set(options.map((option: { value: string }) => option.value))).toEqual(new Set(VOICES.map((voice) => voice.id)))

    const next = await pipedream.send('GET', '/v1/tts/voices?take=100&skip=100')
    expect(next.status).toBe(200)
    expect(next.body.data).toEqual([])
    const slice = await pipedream.send('GET', '/v1/tts/voices?take=3&skip=12')
    expect(slice.body.data.map((voice: { name: string }) => voice.name)).toEqual(['Yousef', 'Rania'])
  })

  it('List Jobs, 40 at once, as many workflow runs would', async () => {
    const pipedream = await startPipedream()
    const seeded = await seedJob(pipedream.service.runtime, { title: 'Support call' })
    const projectId = await projectIdOf(pipedream)
    const answers = await Promise.all(Array.from({ length: 40 }, () => pipedream.send('POST', `/v1/jobs/all?projectId=${projectId}`)))
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200))
    for (const answer of answers) expect(answer.body.data.jobs.map((job: { id: string }) => job.id)).toEqual([seeded.id])
  })
})

describe('what the component relies on, at its edges', () => {
  it('refuses query take and skip out of bounds, or not integers, in the envelope', async () => {
    const pipedream = await startPipedream()
    const projectId = await projectIdOf(pipedream)
    for (const [query, path] of [
      ['take=0', 'query.take'],
      ['take=101', 'query.take'],
      ['take=ten', 'query.take'],
      ['skip=-1', 'query.skip'],
      ['skip=1.5', 'query.skip'],
      ['skip=1000000001', 'query.skip'],
    ] as const) {
      expectValidationError(await pipedream.send('POST', `/v1/jobs/all?projectId=${projectId}&${query}`), path)
      expectValidationError(await pipedream.send('GET', `/v1/tts/voices?${query}`), path)
    }
    // The bounds themselves are fine.
    expect((await pipedream.send('POST', `/v1/jobs/all?projectId=${projectId}&take=100&skip=1000000000`)).status).toBe(200)
    expect((await pipedream.send('GET', '/v1/tts/voices?take=1&skip=0')).body.data).toHaveLength(1)
  })

  it('lets the body win over the query: a body skip is a 1-based page, a query skip an offset', async () => {
    const pipedream = await startPipedream()
    const start = Date.parse('2026-11-01T00:00:00.000Z')
    const newestFirst = (
      await seedJobs(pipedream.service.runtime, 12, (index) => ({ createdAt: new Date(start + index * 1000).toISOString() }))
    )
      .reverse()
      .map((job) => job.id)
    const projectId = await projectIdOf(pipedream)
    const idsOf = async (query: string, body?: unknown) => {
      const answer = await pipedream.send('POST', `/v1/jobs/all?projectId=${projectId}${query}`, body)
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      return answer.body.data.jobs.map((job: { id: string }) => job.id) as string[]
    }
    expect(await idsOf('&take=5&skip=5')).toEqual(newestFirst.slice(5, 10)) // offset 5
    expect(await idsOf('', { take: 5, skip: 2 })).toEqual(newestFirst.slice(5, 10)) // page 2
    expect(await idsOf('&take=3&skip=1', { take: 5, skip: 2 })).toEqual(newestFirst.slice(5, 10)) // the body's take and page
    expect(await idsOf('&take=3&skip=1', { skip: 2 })).toEqual(newestFirst.slice(3, 6)) // the query's take, the body's page
    expect(await idsOf('&take=3&skip=1', { take: 2 })).toEqual(newestFirst.slice(1, 3)) // the body's take, the query's offset
    expect(await idsOf('&take=3&skip=1', {})).toEqual(newestFirst.slice(1, 4))
  })

  it.each([
    ['authKey only', { authKey: 'Bearer' }, 'Bearer'],
    ['authSecret only', { authSecret: 'hook-secret-0123456789' }, 'hook-secret-0123456789'],
    ['both parts', { authKey: 'Basic', authSecret: 'dXNlcjpwYXNz' }, 'Basic dXNlcjpwYXNz'],
    ['neither part', {}, undefined],
  ])('Synthesize Voice with %s of webhookAuth reaches the webhook with that Authorization header', async (_label, webhookAuth, header) => {
    const pipedream = await startPipedream()
    const receiver = await startWebhookReceiver()
    const created = await pipedream.send('POST', '/v1/jobs/text-to-speech', {
      voiceId: AVA,
      text: 'Ready.',
      webhookUrl: `${receiver.url}/hook`,
      webhookAuth,
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const [request] = await receiver.waitForRequests(1, 20_000)
    expect(request!.headers.authorization).toBe(header)
    expect(JSON.parse(request!.body)).toMatchObject({ event: 'job.completed', data: { id: created.body.data.id } })
    const deliveries = (await pipedream.service.call('GET', `/v1/webhooks/deliveries?jobId=${created.body.data.id}`)).json().data.deliveries
    expect(deliveries[0].hasAuthorization).toBe(header !== undefined)
  })

  it.each([
    ['CR LF in authKey', { authKey: 'Bearer\r\nX-Injected: 1', authSecret: 's' }, 'body.webhookAuth.authKey'],
    ['LF in authSecret', { authSecret: 'secret\nX-Injected: 1' }, 'body.webhookAuth.authSecret'],
    ['NUL in authSecret', { authKey: 'k', authSecret: 'sec\u0000ret' }, 'body.webhookAuth.authSecret'],
    ['an empty authKey', { authKey: '' }, 'body.webhookAuth.authKey'],
    ['an unknown part', { authKey: 'k', token: 't' }, 'body.webhookAuth.token'],
  ])('refuses a webhookAuth with %s (it goes into a header)', async (_label, webhookAuth, path) => {
    const pipedream = await startPipedream()
    const answer = await pipedream.send('POST', '/v1/jobs/text-to-speech', {
      voiceId: AVA,
      text: 'Hi',
      webhookUrl: 'http://127.0.0.1:9/hook',
      webhookAuth,
    })
    expectValidationError(answer, path)
  })

  it("refuses CR, LF and NUL in an agent's webhookAuth too, which still needs both parts", async () => {
    const pipedream = await startPipedream()
    const agent = await pipedream.send('POST', '/v1/voice-agents', { agentName: 'Desk' })
    const path = `/v1/voice-agents/${agent.body.data.id}`
    const patch = (webhookAuth: unknown) => pipedream.service.call('PATCH', path, { body: { webhookAuth } })
    for (const [webhookAuth, field] of [
      [{ authKey: 'Bearer\r\n', authSecret: 's' }, 'body.webhookAuth.authKey'],
      [{ authKey: 'Bearer', authSecret: 'a\u0000b' }, 'body.webhookAuth.authSecret'],
      [{ authKey: 'Bearer' }, 'body.webhookAuth.authSecret'],
    ] as const) {
      const answer = await patch(webhookAuth)
      expectValidationError({ status: answer.statusCode, body: answer.json() }, field)
    }
  })
})

describe('GET /v1/projects/statistics/numbers', () => {
  it('counts jobs, minutes and credits by period, and no conversations yet', async () => {
    const pipedream = await startPipedream()
    const { runtime } = pipedream.service
    const now = Date.now()
    const ago = (ms: number) => new Date(now - ms).toISOString()
    const hour = 3_600_000
    await seedJob(runtime, { type: 'TRANSCRIPTION', usageSeconds: 90, totalCost: 6, createdAt: ago(hour) })
    await seedJob(runtime, { type: 'TRANSLATION', usageSeconds: 30, totalCost: 4, createdAt: ago(3 * 24 * hour) })
    await seedJob(runtime, { type: 'TRANSCRIPTION', status: 'FAILED', usageSeconds: 600, totalCost: 30, createdAt: ago(2 * hour) })
    await seedJob(runtime, { type: 'TRANSCRIPTION', usageSeconds: 120, totalCost: 6, createdAt: ago(20 * 24 * hour) })
    await seedJob(runtime, { type: 'TRANSCRIPTION', usageSeconds: 60, totalCost: 3, createdAt: ago(400 * 24 * hour) })
    const tts = await pipedream.send('POST', '/v1/jobs/text-to-speech', { voiceId: AVA, text: 'Counted today.' })
    await waitForCompletion(pipedream.service, tts.body.data.id)
    const ttsJob = JobReadSchema.parse((await pipedream.service.call('GET', `/v1/jobs?jobId=${tts.body.data.id}`)).json()).data
    const ttsSeconds = Number(ttsJob.usageTime)

    const numbers = async (query: string) => {
      const answer = await pipedream.send('GET', `/v1/projects/statistics/numbers${query}`)
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      return StatisticsNumbersEnvelopeSchema.parse(answer.body).data
    }
    const minutes = (seconds: number) => Math.round((seconds / 60) * 1000) / 1000

    const day = await numbers('?period=day')
    expect(day).toMatchObject({
      period: 'day',
      jobs: 3,
      conversations: 0,
      cost: 6 + ttsJob.totalCost,
      jobsByStatus: { PENDING: 0, COMPLETED: 2, FAILED: 1 },
    })
    expect(day.minutes).toBeCloseTo(minutes(90 + ttsSeconds), 3)
    expect(day.byType.TRANSCRIPTION).toEqual({ jobs: 2, minutes: 1.5, cost: 6 })
    expect(day.byType.TTS).toMatchObject({ jobs: 1, cost: ttsJob.totalCost })
    expect(Date.parse(day.to) - Date.parse(day.from!)).toBe(24 * hour)

    const week = await numbers('?period=week')
    expect(week).toMatchObject({ jobs: 4, cost: 10 + ttsJob.totalCost })
    expect(week.byType.TRANSLATION).toEqual({ jobs: 1, minutes: 0.5, cost: 4 })
    expect(await numbers('')).toMatchObject({ period: 'month', jobs: 5, cost: 16 + ttsJob.totalCost })
    const all = await numbers('?period=all')
    expect(all).toMatchObject({ period: 'all', from: null, jobs: 6, cost: 19 + ttsJob.totalCost, conversations: 0 })
    expect(all.byType.AI_CONTENT).toEqual({ jobs: 0, minutes: 0, cost: 0 })

    expectValidationError(await pipedream.send('GET', '/v1/projects/statistics/numbers?period=year'), 'query.period')
  })

  it("shows only the caller's project", async () => {
    const pipedream = await startPipedream()
    await seedJob(pipedream.service.runtime, {})
    const other = await pipedream.service.otherProject()
    const answer = await pipedream.service.call('GET', '/v1/projects/statistics/numbers?period=all', { key: other.key })
    expect(answer.json().data).toMatchObject({ jobs: 0, cost: 0, minutes: 0 })
    const project = await pipedream.service.call('GET', '/v1/projects/by-api-key', { key: other.key })
    expect(project.json().data.id).toBe(other.projectId)
  })
})
