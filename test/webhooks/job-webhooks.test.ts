/**
 * Job webhooks end to end: a real runtime on a real SQLite file sends to real HTTP receivers
 * on 127.0.0.1. Retry waits are shortened through the runtime's `webhooks.retryDelaysMs`
 * (the schedule itself is checked in retry-schedule.test.ts), so nothing sleeps for long.
 */
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DeliveryDetailEnvelopeSchema, DeliveryListEnvelopeSchema, type WebhookDeliveryDetail } from '../../src/shared/api/webhooks'
import { webhookSigningSettings } from '../../src/service/settings/webhook-settings'
import { seedJob } from '../helpers/seed-jobs'
import type { RuntimeConfig } from '../../src/service/runtime'
import { sharedSpeechEngine } from '../helpers/shared-speech-engine'
import { startTestService, type TestService } from '../helpers/test-service'
import { startWebhookReceiver } from '../helpers/webhook-receiver'

/** A test service speaking with the file's one warm engine: what is tested here is what happens after a job ends. */
async function startService(config: Partial<RuntimeConfig> = {}): Promise<TestService> {
  return startTestService({ speechEngine: await sharedSpeechEngine(), ...config })
}

const VOICE = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'
const FAST_RETRIES = { retryDelaysMs: [40, 40, 40], random: () => 0 }

async function createTtsJob(service: TestService, fields: Record<string, unknown>): Promise<string> {
  const response = await service.call('POST', '/v1/jobs/text-to-speech', {
    body: { voiceId: VOICE, text: 'Your order has shipped.', ...fields },
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data.id as string
}

async function deliveriesOf(service: TestService, query = '') {
  const response = await service.call('GET', `/v1/webhooks/deliveries${query}`)
  expect(response.statusCode, response.body).toBe(200)
  return DeliveryListEnvelopeSchema.parse(response.json()).data
}

async function deliveryDetail(service: TestService, id: string): Promise<WebhookDeliveryDetail> {
  const response = await service.call('GET', `/v1/webhooks/deliveries/${id}`)
  expect(response.statusCode, response.body).toBe(200)
  return DeliveryDetailEnvelopeSchema.parse(response.json()).data
}

/** Polls until the job's delivery reaches `status` (the sender works in the background). */
async function waitForDelivery(service: TestService, jobId: string, status: string, timeoutMs = 10_000): Promise<WebhookDeliveryDetail> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const [delivery] = (await deliveriesOf(service, `?jobId=${jobId}`)).deliveries
    if (delivery && delivery.status === status && !delivery.sending) return deliveryDetail(service, delivery.id)
    if (Date.now() > deadline) throw new Error(`delivery of ${jobId} did not become ${status}: ${JSON.stringify(delivery)}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

async function waitForJob(service: TestService, jobId: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const job = (await service.call('GET', `/v1/jobs?jobId=${jobId}`)).json().data
    if (job.status !== 'PENDING') return job
    if (Date.now() > deadline) throw new Error(`job ${jobId} still PENDING`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe('job webhooks', () => {
  it('posts the ended job with the exact headers and body the contract names', async () => {
    const service = await startService()
    const receiver = await startWebhookReceiver()
    const before = Math.floor(Date.now() / 1000)
    const jobId = await createTtsJob(service, {
      webhookUrl: `${receiver.url}/hooks/tts?team=7`,
      webhookAuth: { authKey: 'Bearer', authSecret: 'receiver-secret-0123456789' },
    })
    const [request] = await receiver.waitForRequests(1)
    expect(request!.method).toBe('POST')
    expect(request!.url).toBe('/hooks/tts?team=7')
    expect(request!.headers['content-type']).toBe('application/json')
    expect(request!.headers.authorization).toBe('Bearer receiver-secret-0123456789')
    expect(request!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/)
    const sentAt = Number(request!.headers['webhook-timestamp'])
    expect(Number.isInteger(sentAt)).toBe(true)
    expect(sentAt).toBeGreaterThanOrEqual(before)
    expect(sentAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000))
    // No signing secret is set, so nothing claims to be signed.
    expect(request!.headers['webhook-signature']).toBeUndefined()

    const body = JSON.parse(request!.body)
    expect(Object.keys(body).sort()).toEqual(['data', 'event'])
    expect(body.event).toBe('job.completed')
    const shown = (await service.call('GET', `/v1/jobs?jobId=${jobId}`)).json().data
    expect(body.data).toEqual(shown)
    expect(body.data.jobResponse.ttsMediaFile).toMatch(/\/media\/.+\.wav$/)

    const delivery = await waitForDelivery(service, jobId, 'DELIVERED')
    expect(delivery).toMatchObject({
      id: request!.headers['webhook-id'],
      event: 'job.completed',
      jobId,
      attempts: 1,
      lastStatusCode: 204,
      hasAuthorization: true,
    })
    expect(delivery.payload).toEqual(body)
    expect(delivery.attemptLog).toHaveLength(1)
    expect(delivery.attemptLog[0]).toMatchObject({ attempt: 1, statusCode: 204, error: null })
    // The secret is sent, never shown.
    expect(JSON.stringify(delivery)).not.toContain('receiver-secret')
    expect(JSON.stringify(await deliveriesOf(service))).not.toContain('receiver-secret')
  })

  it('signs with the operator’s secret as Standard Webhooks describe', async () => {
    const service = await startService()
    const secret = await webhookSigningSettings(service.runtime.store, service.runtime.context.secrets).setSigningSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
    const receiver = await startWebhookReceiver()
    await createTtsJob(service, { webhookUrl: receiver.url })
    const [request] = await receiver.waitForRequests(1)
    // Computed here from the spec, not with the code under test.
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
    const signed = `${String(request!.headers['webhook-id'])}.${String(request!.headers['webhook-timestamp'])}.${request!.body}`
    expect(request!.headers['webhook-signature']).toBe(`v1,${createHmac('sha256', key).update(signed).digest('base64')}`)
  })

  it('tells of a failed job as job.failed, with its error', async () => {
    const service = await startService()
    const receiver = await startWebhookReceiver()
    // No speech server is set, so a queued transcription fails at once: a real failure path.
    const job = await seedJob(service.runtime, {
      type: 'TRANSCRIPTION',
      status: 'PENDING',
      attempts: 0,
      webhookUrl: receiver.url,
      jobResponse: null,
      mediaFile: `${'a'.repeat(32)}.mp3`,
    })
    service.runtime.runner.wake()
    const [request] = await receiver.waitForRequests(1)
    const body = JSON.parse(request!.body)
    expect(body.event).toBe('job.failed')
    expect(body.data).toMatchObject({ id: job.id, status: 'FAILED', error: { code: 'STT_ENGINE_NOT_CONFIGURED' } })
  })

  it('retries after 500s with the same webhook-id, and stops at the first 2xx', async () => {
    const service = await startService({ webhooks: FAST_RETRIES })
    const receiver = await startWebhookReceiver()
    receiver.answer((index) =>
      index < 2 ? { status: 500, body: `{"error":"down for maintenance ${index}"}` } : { status: 200, body: 'ok' },
    )
    const jobId = await createTtsJob(service, { webhookUrl: receiver.url })
    const requests = await receiver.waitForRequests(3)
    const delivery = await waitForDelivery(service, jobId, 'DELIVERED')
    await new Promise((resolve) => setTimeout(resolve, 200)) // room for a wrong extra try
    expect(receiver.requests).toHaveLength(3)
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1)
    expect(new Set(requests.map((request) => request.body)).size).toBe(1)
    expect(delivery.attemptLog.map((attempt) => [attempt.attempt, attempt.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ])
    expect(delivery.attemptLog[0]).toMatchObject({
      error: 'The receiver answered 500',
      responseExcerpt: '{"error":"down for maintenance 0"}',
    })
    expect(delivery.attemptLog[2]).toMatchObject({ error: null, responseExcerpt: 'ok' })
    expect(delivery).toMatchObject({ status: 'DELIVERED', attempts: 3, nextAttemptAt: null })
    expect(delivery.deliveredAt).not.toBeNull()
  })

  it('retries after a refused connection until the receiver is up', async () => {
    const receiver = await startWebhookReceiver()
    const url = receiver.url
    await receiver.close() // nothing listens on this port now
    const service = await startService({ webhooks: { retryDelaysMs: [100, 100, 100, 100, 100], random: () => 0 } })
    const jobId = await createTtsJob(service, { webhookUrl: `${url}/late` })
    const deadline = Date.now() + 10_000
    while ((await deliveriesOf(service)).deliveries[0]?.attempts !== 2) {
      if (Date.now() > deadline) throw new Error('no second attempt')
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    // The receiver comes up on the same port before the next try.
    const { createServer } = await import('node:http')
    const bodies: string[] = []
    const server = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        bodies.push(body)
        response.writeHead(200).end()
      })
    })
    await new Promise<void>((resolve) => server.listen(Number(new URL(url).port), '127.0.0.1', resolve))
    try {
      const delivery = await waitForDelivery(service, jobId, 'DELIVERED')
      expect(delivery.attemptLog[0]).toMatchObject({ statusCode: null, error: 'Connection refused (ECONNREFUSED)', responseExcerpt: null })
      expect(delivery.attemptLog.at(-1)).toMatchObject({ statusCode: 200 })
      expect(bodies).toHaveLength(1)
      expect(JSON.parse(bodies[0]!).data.id).toBe(jobId)
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('gives up on an attempt after the timeout, and tries again', async () => {
    const service = await startService({ webhooks: { ...FAST_RETRIES, timeoutMs: 300 } })
    const receiver = await startWebhookReceiver()
    receiver.answer((index) => (index === 0 ? 'hang' : { status: 202 }))
    const jobId = await createTtsJob(service, { webhookUrl: receiver.url })
    const delivery = await waitForDelivery(service, jobId, 'DELIVERED')
    expect(delivery.attemptLog[0]).toMatchObject({ statusCode: null, error: 'No answer within 0.3 s' })
    expect(delivery.attemptLog[0]!.latencyMs).toBeGreaterThanOrEqual(290)
    expect(delivery.attemptLog[1]).toMatchObject({ statusCode: 202 })
  })

  it('does not follow redirects', async () => {
    const service = await startService({ webhooks: { retryDelaysMs: [] } })
    const target = await startWebhookReceiver()
    const receiver = await startWebhookReceiver()
    receiver.answer(() => ({ status: 307, headers: { location: `${target.url}/elsewhere` } }))
    const jobId = await createTtsJob(service, { webhookUrl: receiver.url })
    const delivery = await waitForDelivery(service, jobId, 'EXHAUSTED')
    expect(delivery.attemptLog).toEqual([
      expect.objectContaining({ statusCode: 307, error: `Redirects are not followed (307 to ${target.url}/elsewhere)` }),
    ])
    expect(target.requests).toHaveLength(0)
  })

  it('marks a delivery exhausted after the last try, and sends it again on request', async () => {
    const service = await startService({ webhooks: FAST_RETRIES })
    const receiver = await startWebhookReceiver()
    receiver.answer((index) => (index < 4 ? { status: 503, body: 'x'.repeat(5_000) } : { status: 200 }))
    const jobId = await createTtsJob(service, { webhookUrl: receiver.url })
    const exhausted = await waitForDelivery(service, jobId, 'EXHAUSTED')
    // The schedule has three waits: four tries in all, then nothing more.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(receiver.requests).toHaveLength(4)
    expect(exhausted).toMatchObject({ attempts: 4, roundAttempts: 4, nextAttemptAt: null, lastStatusCode: 503 })
    // The journal keeps the first KiB of an answer.
    expect(exhausted.attemptLog[0]!.responseExcerpt).toBe('x'.repeat(1024))
    expect((await deliveriesOf(service, '?status=EXHAUSTED')).filtered).toBe(1)

    const again = await service.call('POST', `/v1/webhooks/deliveries/${exhausted.id}/redeliver`)
    expect(again.statusCode, again.body).toBe(202)
    expect(again.json().data).toMatchObject({ id: exhausted.id, status: 'PENDING', roundAttempts: 0 })
    const requests = await receiver.waitForRequests(5)
    expect(requests[4]!.headers['webhook-id']).toBe(exhausted.id)
    expect(requests[4]!.body).toBe(requests[0]!.body)
    const delivered = await waitForDelivery(service, jobId, 'DELIVERED')
    expect(delivered).toMatchObject({ attempts: 5, roundAttempts: 1 })
  })

  it('answers the journal’s errors in the envelope, and keeps projects apart', async () => {
    const service = await startService()
    const receiver = await startWebhookReceiver()
    receiver.answer(() => 'hang')
    const jobId = await createTtsJob(service, { webhookUrl: receiver.url })
    await receiver.waitForRequests(1)
    const { deliveries } = await deliveriesOf(service)
    expect(deliveries[0]).toMatchObject({ jobId, status: 'PENDING', sending: true, attempts: 1 })
    const id = deliveries[0]!.id

    // An attempt under way cannot be started again.
    const busy = await service.call('POST', `/v1/webhooks/deliveries/${id}/redeliver`)
    expect(busy.statusCode).toBe(409)
    expect(busy.json().error.code).toBe('CONFLICT')

    for (const [method, url, status, code] of [
      ['GET', '/v1/webhooks/deliveries/msg_00000000000000000000000000000000', 404, 'NOT_FOUND'],
      ['GET', '/v1/webhooks/deliveries/not-an-id', 400, 'VALIDATION_ERROR'],
      ['POST', '/v1/webhooks/deliveries/msg_00000000000000000000000000000000/redeliver', 404, 'NOT_FOUND'],
      ['GET', '/v1/webhooks/deliveries?status=LOST', 400, 'VALIDATION_ERROR'],
      ['GET', '/v1/webhooks/deliveries?take=0', 400, 'VALIDATION_ERROR'],
      ['GET', '/v1/webhooks/deliveries?skip=0', 400, 'VALIDATION_ERROR'],
    ] as const) {
      const response = await service.call(method, url)
      expect(response.statusCode, url).toBe(status)
      expect(response.json(), url).toMatchObject({ success: false, error: { code } })
    }
    for (const [method, url] of [
      ['GET', '/v1/webhooks/deliveries'],
      ['GET', `/v1/webhooks/deliveries/${id}`],
      ['POST', `/v1/webhooks/deliveries/${id}/redeliver`],
    ] as const) {
      expect((await service.call(method, url, { key: null })).statusCode, url).toBe(401)
    }

    const other = await service.otherProject()
    const theirs = await service.call('GET', '/v1/webhooks/deliveries', { key: other.key })
    expect(theirs.json().data).toEqual({ deliveries: [], total: 0, filtered: 0 })
    expect((await service.call('GET', `/v1/webhooks/deliveries/${id}`, { key: other.key })).statusCode).toBe(404)
    expect((await service.call('POST', `/v1/webhooks/deliveries/${id}/redeliver`, { key: other.key })).statusCode).toBe(404)
    receiver.releaseHanging()
    await waitForDelivery(service, jobId, 'DELIVERED')
  })

  it('lists deliveries newest first, by page, status and job', async () => {
    const service = await startService({ webhooks: { retryDelaysMs: [] } })
    const receiver = await startWebhookReceiver()
    receiver.answer((_index, request) => ({ status: request.url === '/fail' ? 500 : 200 }))
    const jobIds: string[] = []
    for (let index = 0; index < 5; index += 1) {
      jobIds.push(await createTtsJob(service, { webhookUrl: `${receiver.url}/${index % 2 === 0 ? 'ok' : 'fail'}` }))
      await waitForJob(service, jobIds.at(-1)!)
    }
    for (const [index, jobId] of jobIds.entries()) await waitForDelivery(service, jobId, index % 2 === 0 ? 'DELIVERED' : 'EXHAUSTED')
    const all = await deliveriesOf(service, '?take=2')
    expect(all).toMatchObject({ total: 5, filtered: 5 })
    expect(all.deliveries.map((delivery) => delivery.jobId)).toEqual([jobIds[4], jobIds[3]])
    expect((await deliveriesOf(service, '?take=2&skip=3')).deliveries.map((delivery) => delivery.jobId)).toEqual([jobIds[0]])
    const exhausted = await deliveriesOf(service, '?status=EXHAUSTED')
    expect(exhausted).toMatchObject({ total: 5, filtered: 2 })
    expect(exhausted.deliveries.map((delivery) => delivery.jobId)).toEqual([jobIds[3], jobIds[1]])
    expect((await deliveriesOf(service, `?jobId=${jobIds[2]!.toUpperCase()}`)).deliveries.map((delivery) => delivery.jobId)).toEqual([
      jobIds[2],
    ])
    // A job without a webhookUrl has no delivery.
    const quiet = await createTtsJob(service, {})
    await waitForJob(service, quiet)
    expect((await deliveriesOf(service, `?jobId=${quiet}`)).filtered).toBe(0)
  })

  it('gives an attempt cut off by shutdown back uncounted, and sends it on the next start', async () => {
    const receiver = await startWebhookReceiver()
    receiver.answer((index) => (index === 0 ? 'hang' : { status: 200 }))
    const first = await startService({ webhooks: { graceMs: 100 } })
    const jobId = await createTtsJob(first, { webhookUrl: receiver.url })
    await receiver.waitForRequests(1)
    await first.runtime.stop()

    const second = await startService({ dataDir: first.dataDir, webhooks: { graceMs: 100 } })
    const [, again] = await receiver.waitForRequests(2)
    expect(again!.headers['webhook-id']).toBe(receiver.requests[0]!.headers['webhook-id'])
    const delivery = await waitForDelivery(second, jobId, 'DELIVERED')
    expect(delivery).toMatchObject({ attempts: 1, attemptLog: [expect.objectContaining({ attempt: 1, statusCode: 200 })] })
  })

  it('keeps completing jobs while 200 receivers hold their answers', { timeout: 120_000 }, async () => {
    // Each receiver must hold its one request until released: under a full run's load the 200 jobs
    // took longer than the default 10 s attempt timeout, and the retries' waits outlasted the test.
    const service = await startService({ jobs: { concurrency: 2 }, webhooks: { timeoutMs: 180_000 } })
    const receivers = await Promise.all(Array.from({ length: 200 }, () => startWebhookReceiver()))
    for (const receiver of receivers) receiver.answer(() => 'hang')
    const jobIds: string[] = []
    for (const receiver of receivers) jobIds.push(await createTtsJob(service, { webhookUrl: receiver.url, text: 'Hi.' }))
    // Every job completes while every receiver still holds its answer: if sending blocked the
    // runner, this would wait forever.
    for (const jobId of jobIds) expect((await waitForJob(service, jobId)).status).toBe('COMPLETED')
    await Promise.all(receivers.map((receiver) => receiver.waitForRequests(1, 20_000)))
    expect((await deliveriesOf(service, '?status=PENDING')).filtered).toBe(200)
    for (const receiver of receivers) receiver.releaseHanging(200)
    // Patience for a busy machine: the promise is that nothing blocks, not a rate.
    const deadline = Date.now() + 45_000
    while ((await deliveriesOf(service, '?status=DELIVERED')).filtered < 200) {
      if (Date.now() > deadline) throw new Error('not every delivery arrived')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(receivers.every((receiver) => receiver.requests.length === 1)).toBe(true)
  })
})
