/**
 * "Retry" a FAILED job (the operator UI's `jobs.retry`), over a real runtime: the job runner,
 * the TTS and AI engines and the webhook sender to a loopback receiver.
 */
import { describe, expect, it } from 'vitest'
import { retryJob } from '../../src/service/ops/jobs'
import { listDeliveries } from '../../src/service/ops/webhooks'
import { jobWebhookOutbox } from '../../src/webhooks/outbox'
import { ServiceError } from '../../src/service/ops/service-error'
import { seedJob } from '../helpers/seed-jobs'
import { startTestService, type TestService } from '../helpers/test-service'
import { startWebhookReceiver } from '../helpers/webhook-receiver'

const AVA = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'

async function waitUntilDone(service: TestService, id: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const record = (await service.runtime.store.jobs.findInProject(id, service.runtime.appCaller.projectId))!
    if (record.status !== 'PENDING') return record
    if (Date.now() > deadline) throw new Error(`job ${id} still PENDING after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

async function refusal(run: () => Promise<unknown>): Promise<ServiceError> {
  try {
    await run()
  } catch (error) {
    if (error instanceof ServiceError) return error
    throw error
  }
  throw new Error('not refused')
}

describe('retrying a FAILED job', () => {
  it('queues a copy of a TTS job with its text, voice, title and webhook; the failed job and its deliveries stay as they were', async () => {
    const service = await startTestService()
    const { runtime } = service
    const receiver = await startWebhookReceiver()
    const failed = await seedJob(runtime, {
      type: 'TTS',
      status: 'FAILED',
      title: 'Order shipped',
      text: 'Your order has shipped.',
      voiceId: AVA,
      errorCode: 'TTS_ENGINE_FAILED',
      errorMessage: 'The engine stopped',
      webhookUrl: `${receiver.url}/hook`,
      webhookAuthKey: 'Bearer',
      webhookAuthSecret: runtime.context.secrets.encrypt('a-long-enough-secret'),
    })
    // The webhook the job's end would have stored, as the runner's outbox stores it.
    const outbox = jobWebhookOutbox({ baseUrl: runtime.context.baseUrl, now: runtime.context.now })
    await runtime.store.transaction((tx) => outbox(tx, failed))
    runtime.context.webhookQueued()
    await receiver.waitForRequests(1)
    const deliveriesOfFailed = () => listDeliveries(runtime.context, runtime.appCaller, { jobId: failed.id, take: 20, skip: 1 })
    while ((await deliveriesOfFailed()).deliveries[0]?.status !== 'DELIVERED') await new Promise((resolve) => setTimeout(resolve, 25))
    const deliveriesBefore = await deliveriesOfFailed()

    const copy = await retryJob(runtime.context, runtime.appCaller, failed.id)
    expect(copy.id).not.toBe(failed.id)
    expect(copy).toMatchObject({
      type: 'TTS',
      status: 'PENDING',
      title: 'Order shipped',
      webhookUrl: `${receiver.url}/hook`,
      jobResponse: { text: 'Your order has shipped.' },
    })
    expect(copy.error).toBeUndefined()
    const done = await waitUntilDone(service, copy.id)
    expect(done).toMatchObject({ status: 'COMPLETED', voiceId: AVA, text: 'Your order has shipped.', webhookAuthKey: 'Bearer' })

    const [, second] = await receiver.waitForRequests(2)
    expect(JSON.parse(second!.body)).toMatchObject({ event: 'job.completed', data: { id: copy.id } })
    expect(second!.headers.authorization).toBe('Bearer a-long-enough-secret')

    expect(await runtime.store.jobs.findInProject(failed.id, runtime.appCaller.projectId)).toEqual(failed)
    const deliveriesAfter = await deliveriesOfFailed()
    expect(deliveriesAfter.deliveries.map(({ id, status, attempts }) => ({ id, status, attempts }))).toEqual(
      deliveriesBefore.deliveries.map(({ id, status, attempts }) => ({ id, status, attempts })),
    )
  })

  it('queues a copy of an AI-content job with its parts and source job', async () => {
    const service = await startTestService()
    const { runtime } = service
    const source = await seedJob(runtime, {
      type: 'TRANSCRIPTION',
      title: 'Call',
      text: 'The customer asked about a refund for the blue kettle. We agreed to send a new one.',
    })
    const failed = await seedJob(runtime, {
      type: 'AI_CONTENT',
      status: 'FAILED',
      title: 'AI content: Call',
      text: null,
      aiParts: ['summary', 'keywords'],
      relevantJobId: source.id,
      errorCode: 'AI_ENGINE_FAILED',
      errorMessage: 'Timed out',
    })
    const copy = await retryJob(runtime.context, runtime.appCaller, failed.id)
    expect(copy).toMatchObject({ type: 'AI_CONTENT', status: 'PENDING', title: 'AI content: Call', relevantJobId: source.id })
    const done = await waitUntilDone(service, copy.id)
    expect(done.status).toBe('COMPLETED')
    expect(done.aiParts).toEqual(['summary', 'keywords'])
    expect(Object.keys(done.jobResponse ?? {})).toEqual(expect.arrayContaining(['summary', 'keywords']))
  })

  it('refuses a job that is not FAILED, a type it does not run, and a job of another project', async () => {
    const service = await startTestService()
    const { runtime } = service
    const completed = await seedJob(runtime, { type: 'TTS', status: 'COMPLETED', text: 'Hi', voiceId: AVA })
    const pending = await seedJob(runtime, { type: 'TTS', status: 'PENDING', text: 'Hi', voiceId: AVA, runAfter: Date.now() + 3_600_000 })
    const call = await seedJob(runtime, { type: 'CONVERSATION', status: 'FAILED', errorCode: 'CALL_INTERRUPTED' })
    const count = async () =>
      (await runtime.store.jobs.list(runtime.appCaller.projectId, { sort: 'createdAt', direction: 'desc', limit: 0, offset: 0 })).total

    const before = await count()
    for (const job of [completed, pending, call]) {
      const error = await refusal(() => retryJob(runtime.context, runtime.appCaller, job.id))
      expect(error.code).toBe('CONFLICT')
      expect(error.details.map((detail) => detail.path)).toEqual(['jobId'])
    }
    const failed = await seedJob(runtime, { type: 'TTS', status: 'FAILED', text: 'Hi', voiceId: AVA, errorCode: 'INTERNAL' })
    const other = await service.otherProject()
    const stranger = { ...runtime.appCaller, projectId: other.projectId }
    expect((await refusal(() => retryJob(runtime.context, stranger, failed.id))).code).toBe('NOT_FOUND')
    expect(await count()).toBe(before + 1)
  })
})
