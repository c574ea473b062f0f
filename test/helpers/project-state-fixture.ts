import { expect } from 'vitest'
import { VOICES } from '../../src/shared/voices'
import type { RuntimeConfig } from '../../src/service/runtime'
import { createRuntime } from '../../src/service/runtime'
import { makeTempDir } from './temp-dir'
import { startTestService, TEST_KEY, waitForJobEnd, type TestService } from './test-service'
import type { WebhookReceiver } from './webhook-receiver'

const AVA = VOICES.find((voice) => voice.name === 'Ava')!.id

/** A test service listening on 127.0.0.1 (a free port), called by a real HTTP client (fetch). */
export interface LiveService extends TestService {
  baseUrl: string
  http(
    method: string,
    path: string,
    options?: { json?: unknown; body?: Uint8Array; headers?: Record<string, string>; key?: string | null },
  ): Promise<Response>
}

export async function startLiveService(config: Partial<RuntimeConfig> = {}): Promise<LiveService> {
  return live(await startTestService({ port: 0, host: '127.0.0.1', ...config }))
}

/** A SQLite service whatever the test project's engine (startTestService picks PostgreSQL in the postgres project). */
export async function startLiveSqliteService(): Promise<LiveService & { stop(): Promise<void> }> {
  const dataDir = makeTempDir()
  const runtime = await createRuntime({ dataDir, fixedApiKey: TEST_KEY, port: 0, host: '127.0.0.1' })
  const service = await live({
    runtime,
    dataDir,
    key: TEST_KEY,
    call: (method, url) => runtime.app.inject({ method, url, headers: { authorization: `Token ${TEST_KEY}` } }),
    otherProject: () => Promise.reject(new Error('not here')),
  })
  return { ...service, stop: () => runtime.stop() }
}

async function live(service: TestService): Promise<LiveService> {
  const baseUrl = (await service.runtime.start()).replace('localhost', '127.0.0.1')
  return {
    ...service,
    baseUrl,
    http: (method, path, options = {}) => {
      const headers: Record<string, string> = { ...options.headers }
      const key = options.key === undefined ? service.key : options.key
      if (key !== null) headers.authorization = `Token ${key}`
      let body: Uint8Array | string | undefined
      if (options.json !== undefined) {
        headers['content-type'] = 'application/json'
        body = JSON.stringify(options.json)
      } else if (options.body !== undefined) body = options.body
      return fetch(baseUrl + path, { method, headers, body })
    },
  }
}

async function okJson(response: Response): Promise<{ data: Record<string, unknown> }> {
  const text = await response.text()
  expect(response.status, text).toBeLessThan(300)
  return JSON.parse(text) as { data: Record<string, unknown> }
}

/**
 * A project with some of everything: two agents (one with webhook credentials, a sealed secret),
 * a phone number assigned to one, TTS jobs whose audio is made (media), one with a webhook
 * delivered to `receiver` (a delivery and its attempt).
 */
export async function seedProject(service: LiveService, receiver: WebhookReceiver, tag = 'A'): Promise<void> {
  const first = await okJson(
    await service.http('POST', '/v1/voice-agents', {
      json: {
        agentName: `Front desk ${tag}`,
        webhookUrl: `${receiver.url}/agent`,
        webhookAuth: { authKey: 'Bearer', authSecret: `agent-secret-${tag}-0001` },
      },
    }),
  )
  await okJson(await service.http('POST', '/v1/voice-agents', { json: { agentName: `Second ${tag}`, lang: 'ar' } }))
  const number = await okJson(
    await service.http('POST', '/v1/voice-agents/phone-number', {
      json: {
        type: 'TELEPHONY',
        phoneNumber: '+14155550100',
        label: `Main ${tag}`,
        providerAccountSid: 'AC-1',
        providerAuthToken: `token-${tag}-0001`,
      },
    }),
  )
  await okJson(
    await service.http('POST', '/v1/voice-agents/assign-number', {
      json: { voiceAgentId: first.data.id, phoneNumber: number.data.number },
    }),
  )
  const dictionary = await okJson(
    await service.http('POST', '/v1/voice-agents/voice-dictionaries', {
      json: {
        name: `Names ${tag}`,
        words: [
          { word: 'Nguyen', pronunciation: 'win' },
          { word: 'سعد', pronunciation: 'سَعْد' },
        ],
      },
    }),
  )
  await okJson(
    await service.http('POST', '/v1/voice-agents/voice-dictionaries/toggle-activation', {
      json: { dictionaryId: dictionary.data.id, voiceAgentId: first.data.id, isActive: true },
    }),
  )
  const jobIds: string[] = []
  for (const text of [`Hello from ${tag}`, `Second job ${tag}`]) {
    const job = await okJson(
      await service.http('POST', '/v1/jobs/text-to-speech', {
        json: {
          voiceId: AVA,
          text,
          webhookUrl: `${receiver.url}/jobs`,
          webhookAuth: { authKey: 'Bearer', authSecret: `job-secret-${tag}` },
        },
      }),
    )
    jobIds.push(job.data.id as string)
  }
  for (const id of jobIds) await waitForJobEnd(service, id)
  await receiver.waitForRequests(jobIds.length)
  // The attempts are journaled once answered: wait until the deliveries say DELIVERED.
  for (let tries = 0; tries < 200; tries += 1) {
    const list = await okJson(await service.http('GET', '/v1/webhooks/deliveries'))
    const deliveries = (list.data.deliveries ?? list.data.records ?? []) as { status: string }[]
    if (deliveries.length >= jobIds.length && deliveries.every((delivery) => delivery.status === 'DELIVERED')) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Ids of every record a list answer holds (agents, numbers, jobs, deliveries). */
function idsIn(body: string): string[] {
  const data = (JSON.parse(body) as { data: unknown }).data
  const found: string[] = []
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit)
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>
      if (typeof record.id === 'string') found.push(record.id)
      else Object.values(record).forEach(visit)
    }
  }
  visit(data)
  return found
}

/**
 * Every GET of /v1 on the project's data, by what was asked: each list, each item of each list,
 * each job's media through its URL, the statistics. Bytes as answered, to compare whole.
 */
export async function everyGet(service: LiveService): Promise<Map<string, string>> {
  const answers = new Map<string, string>()
  const get = async (path: string, init?: { method: string; json: unknown }) => {
    const response = init ? await service.http(init.method, path, { json: init.json }) : await service.http('GET', path)
    const bytes = Buffer.from(await response.arrayBuffer())
    const text = path.startsWith('/media/')
      ? `${response.status} ${response.headers.get('content-type')} sha-bytes:${bytes.toString('base64')}`
      : `${response.status} ${bytes.toString('utf8')}`
    answers.set(init ? `${init.method} ${path} ${JSON.stringify(init.json)}` : `GET ${path}`, text)
    return bytes.toString('utf8')
  }
  const project = JSON.parse(await get('/v1/projects/by-api-key')) as { data: { id: string } }
  const agents = await get('/v1/voice-agents?take=100')
  for (const id of idsIn(agents)) await get(`/v1/voice-agents/${id}`)
  const numbers = await get('/v1/voice-agents/phone-number/list?take=100')
  for (const id of idsIn(numbers)) await get(`/v1/voice-agents/phone-number?pid=${id}`)
  const dictionaries = await get('/v1/voice-agents/voice-dictionaries/list?take=100')
  for (const id of idsIn(dictionaries)) await get(`/v1/voice-agents/voice-dictionaries/${id}`)
  const jobs = await get(`/v1/jobs/all?projectId=${project.data.id}`, { method: 'POST', json: {} })
  for (const id of idsIn(jobs)) {
    const job = await get(`/v1/jobs?jobId=${id}`)
    for (const url of new Set(job.match(/https?:\/\/[^"]+\/media\/[A-Za-z0-9_.-]+/g) ?? [])) await get(new URL(url).pathname)
  }
  const deliveries = await get('/v1/webhooks/deliveries')
  for (const id of idsIn(deliveries)) await get(`/v1/webhooks/deliveries/${id}`)
  for (const period of ['day', 'all']) await get(`/v1/projects/statistics/numbers?period=${period}`)
  // The statistics name the moment they were asked (their period ends now): that, and only that, is set aside.
  for (const [request, answer] of answers) {
    if (request.includes('/statistics/')) answers.set(request, answer.replace(/"(from|to)":"[^"]+"/g, '"$1":"<now>"'))
  }
  return answers
}

/** The archive of the project, as GET /_voicedesk/state answers it. */
export async function exportState(service: LiveService, passphrase?: string): Promise<Uint8Array> {
  const response = await service.http('GET', '/_voicedesk/state', { headers: passphrase ? { 'x-voicedesk-passphrase': passphrase } : {} })
  expect(response.status, response.status === 200 ? '' : await response.clone().text()).toBe(200)
  expect(response.headers.get('content-type')).toBe('application/gzip')
  return new Uint8Array(await response.arrayBuffer())
}

export function importState(service: LiveService, archive: Uint8Array, passphrase?: string): Promise<Response> {
  return service.http('PUT', '/_voicedesk/state', {
    body: archive,
    headers: { 'content-type': 'application/gzip', ...(passphrase ? { 'x-voicedesk-passphrase': passphrase } : {}) },
  })
}
