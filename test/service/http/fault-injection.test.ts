/**
 * Fault injection over a real service on 127.0.0.1 (SQLite only: the rules are held in memory,
 * and the jobs they fail are stored as every job is), seen by a real client (fetch): added latency measured, error answers in the
 * envelope at a rate (a seeded random, so the counts are the same on every run), dropped
 * connections, jobs forced FAILED (GET /v1/jobs and their webhook on a loopback receiver),
 * webhook attempts failed then sent once the rule is gone, expiry by the runtime's clock, hit
 * counters, projects kept apart, and the validation of rules.
 */
import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { VOICES } from '../../../src/shared/voices'
import { MAX_FAULT_RULES_PER_PROJECT } from '../../../src/shared/api/faults'
import { invokeOperation } from '../../../src/service/operator/invoke-operation'
import type { IpcEvent, IpcOutput } from '../../../src/shared/ipc/operations'
import type { RuntimeConfig } from '../../../src/service/runtime'
import { DeliveryDetailEnvelopeSchema, DeliveryListEnvelopeSchema, type WebhookDeliveryDetail } from '../../../src/shared/api/webhooks'
import { join } from 'node:path'
import { makeTempDir } from '../../helpers/temp-dir'
import { startTestService, waitForJobEnd, type TestService } from '../../helpers/test-service'
import { startWebhookReceiver } from '../../helpers/webhook-receiver'
import { seededRandom } from '../../helpers/seeded-random'

const AVA = VOICES.find((voice) => voice.name === 'Ava')!.id

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read as plain JSON, each checked by the test
type Json = any

interface Listening {
  service: TestService
  baseUrl: string
  request: (method: string, path: string, body?: unknown, key?: string) => Promise<{ status: number; json: Json; ms: number }>
}

async function listening(config: Partial<RuntimeConfig> = {}): Promise<Listening> {
  const service = await startTestService({ port: 0, journal: { enabled: false }, ...config })
  await service.runtime.start()
  const baseUrl = service.runtime.context.baseUrl()
  const request = async (method: string, path: string, body?: unknown, key = service.key) => {
    const started = performance.now()
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Token ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, json: text === '' ? {} : JSON.parse(text), ms: performance.now() - started }
  }
  return { service, baseUrl, request }
}

async function addFault(target: Listening, rule: unknown, key?: string) {
  const answer = await target.request('POST', '/_voicedesk/faults', rule, key)
  expect(answer.status, JSON.stringify(answer.json)).toBe(201)
  return answer.json.data as { id: string; hits: number; expiresAt: string | null; [field: string]: unknown }
}

async function createAgent(target: Listening): Promise<string> {
  const answer = await target.request('POST', '/v1/voice-agents', {
    agentName: 'Fault target',
    greetingMessage: 'Hello',
    preamble: 'Be brief.',
  })
  expect(answer.status, JSON.stringify(answer.json)).toBe(200)
  return answer.json.data.id as string
}

async function deliveryOf(service: TestService, jobId: string): Promise<WebhookDeliveryDetail | undefined> {
  const list = DeliveryListEnvelopeSchema.parse((await service.call('GET', `/v1/webhooks/deliveries?jobId=${jobId}`)).json()).data
  const [delivery] = list.deliveries
  if (!delivery) return undefined
  return DeliveryDetailEnvelopeSchema.parse((await service.call('GET', `/v1/webhooks/deliveries/${delivery.id}`)).json()).data
}

async function waitFor<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('fault injection', () => {
  it('adds latency to matching requests only, fixed or drawn from a range', async () => {
    const target = await listening()
    const agentId = await createAgent(target)
    const baseline = await target.request('GET', `/v1/voice-agents/${agentId}`)
    expect(baseline.status).toBe(200)

    const latency = await addFault(target, { match: { method: 'get', path: '/v1/voice-agents/*' }, delayMs: 400 })
    const slowed = await target.request('GET', `/v1/voice-agents/${agentId}`)
    expect(slowed.status).toBe(200)
    expect(slowed.json.data.id).toBe(agentId)
    expect(slowed.ms).toBeGreaterThanOrEqual(395)
    // Another path, another method: not matched, so the rule's hits stay at one (a count, not a time bound a busy machine breaks).
    expect((await target.request('GET', '/v1/voice-agents?take=1')).status).toBe(200)
    expect((await target.request('PATCH', `/v1/voice-agents/${agentId}`, { greetingMessage: 'Hi' })).status).toBe(200)
    expect((await target.request('GET', '/_voicedesk/faults')).json.data.faults).toEqual([
      expect.objectContaining({ id: latency.id, hits: 1 }),
    ])
    await target.request('DELETE', '/_voicedesk/faults')

    await addFault(target, { match: { path: '/v1/voice-agents/**' }, delayMs: { min: 150, max: 250 } })
    const ranged = await target.request('GET', `/v1/voice-agents/${agentId}`)
    expect(ranged.ms).toBeGreaterThanOrEqual(145)
    expect(ranged.ms).toBeLessThan(1_000)
  })

  it('answers an error in the envelope at the rule’s rate, and counts its hits', async () => {
    const target = await listening({ faults: { random: seededRandom(42) } })
    const agentId = await createAgent(target)
    const rule = await addFault(target, { match: { path: '/v1/voice-agents/*' }, respond: { status: 503 }, rate: 0.5, note: 'half down' })
    expect(rule).toMatchObject({ rate: 0.5, hits: 0, expiresAt: null, note: 'half down', respond: { status: 503 } })
    expect(rule.id).toMatch(/^flt_[0-9a-f]{16}$/)

    const statuses: number[] = []
    for (let index = 0; index < 200; index++) {
      const answer = await target.request('GET', `/v1/voice-agents/${agentId}`)
      statuses.push(answer.status)
      if (answer.status === 503) {
        expect(answer.json).toEqual({
          success: false,
          message: `Injected fault ${rule.id}: Service Unavailable`,
          error: { code: 'UNAVAILABLE', details: [] },
        })
      } else {
        expect(answer.status).toBe(200)
      }
    }
    const failed = statuses.filter((status) => status === 503).length
    // 200 draws at 0.5: 100 expected, a standard deviation of about 7.
    expect(failed).toBeGreaterThanOrEqual(75)
    expect(failed).toBeLessThanOrEqual(125)
    const [listed] = (await target.request('GET', '/_voicedesk/faults')).json.data.faults
    expect(listed).toMatchObject({ id: rule.id, hits: failed })

    // A status the contract has no code for gets its name; a given code and message are kept.
    await target.request('DELETE', `/_voicedesk/faults/${rule.id}`)
    await addFault(target, { match: { method: 'POST', path: '/v1/jobs/**' }, respond: { status: 429 } })
    const limited = await target.request('POST', '/v1/jobs/text-to-speech', { voiceId: AVA, text: 'Hi' })
    expect(limited.status).toBe(429)
    expect(limited.json.error.code).toBe('TOO_MANY_REQUESTS')
    await target.request('DELETE', '/_voicedesk/faults')
    await addFault(target, {
      match: { path: '/v1/voice-agents' },
      respond: { status: 500, code: 'UPSTREAM_DOWN', message: 'The model host is down' },
    })
    const custom = await target.request('GET', '/v1/voice-agents')
    expect(custom).toMatchObject({
      status: 500,
      json: { success: false, message: 'The model host is down', error: { code: 'UPSTREAM_DOWN', details: [] } },
    })
  })

  it('journals a faulted answer with the status it sent', async () => {
    const target = await listening({ journal: { file: join(makeTempDir('voicedesk-faults-journal'), 'journal.db') } })
    const rule = await addFault(target, { match: { path: '/v1/voices' }, respond: { status: 502 } })
    expect((await target.request('GET', '/v1/voices')).status).toBe(502)
    const entry = await waitFor('the journal entry', async () => {
      const { json } = await target.request('GET', '/_voicedesk/requests?path=/v1/voices')
      return (json.data.requests as { status: number; path: string }[])[0]
    })
    expect(entry).toMatchObject({ path: '/v1/voices', status: 502 })
    const detail = await target.request('GET', `/_voicedesk/requests/${(entry as unknown as { id: number }).id}`)
    expect(JSON.parse(detail.json.data.responseBody.text as string)).toMatchObject({
      success: false,
      error: { code: 'BAD_GATEWAY' },
      message: `Injected fault ${rule.id}: Bad Gateway`,
    })
  })

  it('drops the connection without an answer', async () => {
    const target = await listening()
    const agentId = await createAgent(target)
    await addFault(target, { match: { path: `/v1/voice-agents/${agentId}` }, dropConnection: true })
    const failure = await fetch(`${target.baseUrl}/v1/voice-agents/${agentId}`, {
      headers: { authorization: `Token ${target.service.key}` },
    }).then(
      () => undefined,
      (error: unknown) => error as Error & { cause?: { code?: string } },
    )
    expect(failure, 'the request must fail at the socket').toBeDefined()
    expect(failure!.message).toBe('fetch failed')
    expect(['UND_ERR_SOCKET', 'ECONNRESET']).toContain(failure!.cause?.code)
    // Other requests on the service go on.
    expect((await target.request('GET', '/v1/voice-agents')).status).toBe(200)
  })

  it('refuses or cuts the call socket /stream after its key check', async () => {
    const target = await listening()
    const session = (jobId: string, key = target.service.key) =>
      new Promise<{ frames: unknown[]; code: number }>((resolve, reject) => {
        const socket = new WebSocket(`${target.baseUrl.replace('http', 'ws')}/stream/${jobId}?api_key=${key}`)
        const frames: unknown[] = []
        socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString('utf8'))))
        socket.on('close', (code) => resolve({ frames, code }))
        socket.on('error', reject)
      })
    const refused = await addFault(target, { match: { path: '/stream/refused-*' }, respond: { status: 503, message: 'Calls are down' } })
    await addFault(target, { match: { path: '/stream/cut-*' }, dropConnection: true })
    expect(await session('refused-1')).toEqual({ frames: [{ event: 'info', code: 'UNAVAILABLE', message: 'Calls are down' }], code: 1000 })
    expect((await session('cut-1')).code).toBe(1006)
    // Another project's key goes past the rule (to the call's own refusal: no such conversation).
    const other = await target.service.otherProject()
    const theirs = await session('refused-2', other.key)
    expect(theirs.frames).not.toContainEqual(expect.objectContaining({ message: 'Calls are down' }))
    expect((await target.request('GET', '/_voicedesk/faults')).json.data.faults[0]).toMatchObject({ id: refused.id, hits: 1 })
  })

  it('matches requests by agent id, and never touches /_voicedesk, /healthz or another project', async () => {
    const target = await listening()
    const agentId = await createAgent(target)
    const otherAgent = await createAgent(target)
    await addFault(target, { match: { agentId }, respond: { status: 502 } })
    expect((await target.request('GET', `/v1/voice-agents/${agentId}`)).status).toBe(502)
    expect((await target.request('GET', `/v1/voice-agents/${otherAgent}`)).status).toBe(200)

    await addFault(target, { match: { path: '/**' }, respond: { status: 500 } })
    expect((await target.request('GET', '/v1/voice-agents')).status).toBe(500)
    expect((await target.request('GET', '/_voicedesk/faults')).status).toBe(200)
    expect((await fetch(`${target.baseUrl}/healthz`)).status).toBe(200)

    const other = await target.service.otherProject()
    expect((await target.request('GET', '/v1/voice-agents', undefined, other.key)).status).toBe(200)
    expect((await target.request('GET', '/_voicedesk/faults', undefined, other.key)).json.data.faults).toEqual([])
    // Its rules are its own: it cannot remove ours.
    const ours = (await target.request('GET', '/_voicedesk/faults')).json.data.faults as { id: string }[]
    expect((await target.request('DELETE', `/_voicedesk/faults/${ours[0]!.id}`, undefined, other.key)).status).toBe(404)
    expect((await target.request('DELETE', '/_voicedesk/faults', undefined, other.key)).json.data).toEqual({ removed: 0 })
    expect((await target.request('GET', '/_voicedesk/faults')).json.data.faults).toHaveLength(2)
  })

  it('removes a rule by id (404 for an unknown one) and clears them all', async () => {
    const target = await listening()
    const first = await addFault(target, { match: { path: '/v1/voices' }, respond: { status: 500 } })
    await addFault(target, { match: { path: '/v1/voices' }, delayMs: 10 })
    const removed = await target.request('DELETE', `/_voicedesk/faults/${first.id}`)
    expect(removed).toMatchObject({ status: 200, json: { success: true, data: { id: first.id, respond: { status: 500 } } } })
    const again = await target.request('DELETE', `/_voicedesk/faults/${first.id}`)
    expect(again).toMatchObject({ status: 404, json: { success: false, error: { code: 'NOT_FOUND' } } })
    expect((await target.request('DELETE', '/_voicedesk/faults')).json.data).toEqual({ removed: 1 })
    expect((await target.request('GET', '/_voicedesk/faults')).json.data.faults).toEqual([])
    expect((await target.request('GET', '/_voicedesk/faults', undefined, 'vd_wrong_key_0000000000000000000000')).status).toBe(401)
  })

  it('holds at most 200 rules per project: 250 added at once leave 200, the rest refused 409 in the envelope', async () => {
    const target = await listening()
    const answers = await Promise.all(
      Array.from({ length: 250 }, (_, index) =>
        target.request('POST', '/_voicedesk/faults', { match: { path: `/v1/voice-agents/agent-${index}` }, delayMs: 1 }),
      ),
    )
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX_FAULT_RULES_PER_PROJECT)
    const refused = answers.filter((answer) => answer.status !== 201)
    expect(refused).toHaveLength(50)
    for (const answer of refused) {
      expect(answer.status).toBe(409)
      expect(answer.json).toEqual({
        success: false,
        message: expect.stringMatching(/^This project has 200 fault rules, the most it may have: remove some/),
        error: { code: 'CONFLICT', details: [] },
      })
    }
    expect((await target.request('GET', '/_voicedesk/faults')).json.data.faults).toHaveLength(MAX_FAULT_RULES_PER_PROJECT)
    // The rules kept still apply, another project has its own room, and the UI's way in is refused alike.
    expect((await target.request('GET', '/v1/voice-agents/agent-0')).status).not.toBe(409)
    await addFault(target, { delayMs: 1 }, (await target.service.otherProject()).key)
    const viaIpc = await invokeOperation(target.service.runtime.operatorHandlers('desktop'), 'faults.add', { delayMs: 1 }, (error) => {
      throw error
    })
    expect(viaIpc.ok ? undefined : viaIpc.error).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('200 fault rules') })
  })

  it('is managed over IPC too, in the default project, and tells the UI how many rules are active', async () => {
    const target = await listening()
    const handlers = target.service.runtime.operatorHandlers('desktop')
    const events: IpcEvent[] = []
    target.service.runtime.events.subscribe((event) => events.push(event))
    const fail = (error: unknown) => {
      throw error
    }
    const added = await invokeOperation(handlers, 'faults.add', { match: { path: '/v1/voices' }, respond: { status: 503 } }, fail)
    if (!added.ok) throw new Error(JSON.stringify(added.error))
    expect(events.at(-1)).toEqual({ type: 'faults.changed', active: 1 })
    // The key of the default project meets the rule the UI added.
    expect((await target.request('GET', '/v1/voices')).status).toBe(503)
    // Another project's rules change nothing the UI shows.
    const other = await target.service.otherProject()
    await addFault(target, { delayMs: 1 }, other.key)
    expect(events.filter((event) => event.type === 'faults.changed')).toHaveLength(1)

    const refused = await invokeOperation(handlers, 'faults.add', { match: { path: 'voices' }, respond: { status: 200 } }, fail)
    expect(refused.ok).toBe(false)
    if (refused.ok) return
    expect(refused.error.code).toBe('VALIDATION_ERROR')
    expect(refused.error.details.map((detail) => detail.path).sort()).toEqual(['match.path', 'respond.status'])
    const unknown = await invokeOperation(handlers, 'faults.remove', { id: 'flt_0000' }, fail)
    expect(unknown.ok ? undefined : unknown.error.code).toBe('NOT_FOUND')

    const listed = await invokeOperation(handlers, 'faults.list', {}, fail)
    expect(listed.ok && (listed.data as IpcOutput<'faults.list'>).faults.map((fault) => fault.id)).toEqual([
      (added.data as IpcOutput<'faults.add'>).id,
    ])
    const cleared = await invokeOperation(handlers, 'faults.clear', {}, fail)
    expect(cleared.ok && cleared.data).toEqual({ removed: 1 })
    expect(events.at(-1)).toEqual({ type: 'faults.changed', active: 0 })
  })

  it('expires a rule by the runtime’s clock', async () => {
    let clock = Date.parse('2026-11-24T10:00:00.000Z')
    const target = await listening({ now: () => new Date(clock) })
    const rule = await addFault(target, { match: { path: '/v1/voices' }, respond: { status: 503 }, expiresInSeconds: 60 })
    expect(rule.expiresAt).toBe('2026-11-24T10:01:00.000Z')
    const fixed = await addFault(target, {
      match: { path: '/v1/voice-agents' },
      respond: { status: 503 },
      expiresAt: '2026-11-24T12:00:00+02:00',
    })
    expect(fixed.expiresAt).toBe('2026-11-24T10:00:00.000Z') // already past: never applies
    expect((await target.request('GET', '/v1/voice-agents')).status).toBe(200)
    expect((await target.request('GET', '/v1/voices')).status).toBe(503)
    clock += 59_000
    expect((await target.request('GET', '/v1/voices')).status).toBe(503)
    clock += 1_000
    expect((await target.request('GET', '/v1/voices')).status).toBe(200)
    expect((await target.request('GET', '/_voicedesk/faults')).json.data.faults).toEqual([])
  })

  it('refuses bad rules with a 400 that names each field', async () => {
    const target = await listening()
    const cases: [unknown, string][] = [
      [{ match: { path: '/v1/voices' } }, 'body'],
      [{ match: { path: 'v1/voices' }, delayMs: 5 }, 'body.match.path'],
      [{ delayMs: 60_001 }, 'body.delayMs'],
      [{ delayMs: { min: 300, max: 100 } }, 'body.delayMs.max'],
      [{ respond: { status: 302 } }, 'body.respond.status'],
      [{ respond: { status: 500, code: 'not-a-code' } }, 'body.respond.code'],
      [{ respond: { status: 500 }, dropConnection: true }, 'body.dropConnection'],
      [{ failJob: { code: 'MADE_UP', message: 'x' } }, 'body.failJob.code'],
      [{ match: { path: '/v1/jobs/*' }, failJob: { code: 'TTS_FAILED', message: 'x' } }, 'body.match.path'],
      [{ match: { jobType: 'TTS' }, delayMs: 5 }, 'body.match.jobType'],
      [{ delayMs: 5, rate: 1.5 }, 'body.rate'],
      [{ delayMs: 5, expiresAt: '2026-11-24T10:00:00Z', expiresInSeconds: 5 }, 'body.expiresInSeconds'],
      [{ delayMs: 5, colour: 'red' }, 'body.colour'],
    ]
    for (const [rule, path] of cases) {
      const answer = await target.request('POST', '/_voicedesk/faults', rule)
      expect(answer.status, JSON.stringify(rule)).toBe(400)
      expect(answer.json.error.code).toBe('VALIDATION_ERROR')
      expect(
        (answer.json.error.details as { path: string }[]).map((detail) => detail.path),
        JSON.stringify(rule),
      ).toContain(path)
    }
    expect((await target.request('GET', '/_voicedesk/faults')).json.data.faults).toEqual([])
  })

  it('forces matching jobs FAILED with the rule’s code, webhook and all; a retry runs once the rule is gone', async () => {
    const target = await listening()
    const receiver = await startWebhookReceiver()
    const rule = await addFault(target, {
      match: { jobType: 'TTS' },
      failJob: { code: 'TTS_ENGINE_FAILED', message: 'Injected: the engine is down' },
    })
    const created = await target.request('POST', '/v1/jobs/text-to-speech', {
      voiceId: AVA,
      text: 'Your order has shipped.',
      webhookUrl: receiver.url,
    })
    expect(created.status).toBe(200)
    const job = await waitForJobEnd(target.service, created.json.data.id as string)
    expect(job).toMatchObject({ status: 'FAILED', error: { code: 'TTS_ENGINE_FAILED', message: 'Injected: the engine is down' } })
    const [webhook] = await receiver.waitForRequests(1)
    expect(JSON.parse(webhook!.body)).toMatchObject({
      event: 'job.failed',
      data: { id: job.id, status: 'FAILED', error: { code: 'TTS_ENGINE_FAILED' } },
    })
    expect((await target.request('GET', '/_voicedesk/faults')).json.data.faults[0]).toMatchObject({ id: rule.id, hits: 1 })

    // Another project's jobs run as usual.
    const other = await target.service.otherProject()
    const theirs = await target.request('POST', '/v1/jobs/text-to-speech', { voiceId: AVA, text: 'Hello there.' }, other.key)
    const theirJob = await waitFor('their job', async () => {
      const read = await target.request('GET', `/v1/jobs?jobId=${theirs.json.data.id}`, undefined, other.key)
      return read.json.data.status === 'PENDING' ? undefined : read.json.data
    })
    expect(theirJob.status).toBe('COMPLETED')

    await target.request('DELETE', `/_voicedesk/faults/${rule.id}`)
    const retried = await target.service.runtime.operatorHandlers('desktop')['jobs.retry']({ jobId: job.id })
    const rerun = await waitForJobEnd(target.service, retried.id)
    expect(rerun.status).toBe('COMPLETED')
  })

  it('fails matching webhook attempts without sending them, then delivers once the rule is removed', async () => {
    const target = await listening({ webhooks: { retryDelaysMs: [300, 300, 300, 300], random: () => 0 } })
    const receiver = await startWebhookReceiver()
    const agentId = await createAgent(target)
    const rule = await addFault(target, { match: { jobType: 'TTS' }, failWebhook: true })
    const recorded = await addFault(target, { match: { agentId }, failWebhook: { status: 503 } })
    const created = await target.request('POST', '/v1/jobs/text-to-speech', {
      voiceId: AVA,
      text: 'Your order has shipped.',
      webhookUrl: receiver.url,
    })
    const jobId = created.json.data.id as string
    expect((await waitForJobEnd(target.service, jobId)).status).toBe('COMPLETED')
    const failedOnce = await waitFor('a failed attempt', async () => {
      const delivery = await deliveryOf(target.service, jobId)
      return delivery && delivery.attemptLog.length >= 1 ? delivery : undefined
    })
    expect(failedOnce.status).toBe('PENDING')
    expect(failedOnce.attemptLog[0]).toMatchObject({ attempt: 1, statusCode: null, error: `Failed by fault ${rule.id}; nothing was sent` })
    expect(receiver.requests).toHaveLength(0)

    await target.request('DELETE', `/_voicedesk/faults/${rule.id}`)
    const delivered = await waitFor('delivery', async () => {
      const delivery = await deliveryOf(target.service, jobId)
      return delivery?.status === 'DELIVERED' ? delivery : undefined
    })
    expect(receiver.requests).toHaveLength(1)
    expect(delivered.attemptLog.at(-1)).toMatchObject({ statusCode: 204, error: null })
    // The rule naming an agent did not match: this job has none.
    expect((await target.request('GET', '/_voicedesk/faults')).json.data.faults).toMatchObject([{ id: recorded.id, hits: 0 }])
  })

  it('records a failed webhook attempt as the status a rule gives', async () => {
    const target = await listening({ webhooks: { retryDelaysMs: [5_000], random: () => 0 } })
    const receiver = await startWebhookReceiver()
    const rule = await addFault(target, { failWebhook: { status: 503 } })
    const created = await target.request('POST', '/v1/jobs/text-to-speech', { voiceId: AVA, text: 'Hello.', webhookUrl: receiver.url })
    const jobId = created.json.data.id as string
    const delivery = await waitFor('a failed attempt', async () => {
      const read = await deliveryOf(target.service, jobId)
      return read && read.attemptLog.length >= 1 ? read : undefined
    })
    expect(delivery.attemptLog[0]).toMatchObject({
      statusCode: 503,
      error: `Failed by fault ${rule.id} (recorded as a 503 answer); nothing was sent`,
    })
    expect(receiver.requests).toHaveLength(0)
  })
})
