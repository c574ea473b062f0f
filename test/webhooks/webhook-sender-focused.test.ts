import { randomBytes } from 'node:crypto'
import { Agent, MockAgent } from 'undici'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SecretBox } from '../../src/store/secret-box'
import type { AttemptOutcome, DeliveryRecord } from '../../src/store/records'
import { WebhookSender, type WebhookSenderOptions } from '../../src/webhooks/webhook-sender'
import { deliveryFixture, InMemoryDeliveries } from '../helpers/in-memory-leased-work'
import { startWebhookReceiver } from '../helpers/webhook-receiver'

/*
 * The webhook sender with an injected clock and random, over an in-memory double of the
 * deliveries repository (test/helpers/in-memory-leased-work.ts; the store itself is covered by
 * the store contract suite). The receiver is an undici MockAgent passed as the dispatcher: a
 * double of the receiver, answering in-process. Only the shutdown test needs an answer that never
 * comes, and uses a real loopback receiver for it.
 */

const T0 = Date.parse('2026-03-01T12:00:00.000Z')
const ORIGIN = 'http://receiver.test'
/** Two waits, so three tries per round; random 0.5 takes a tenth off each wait (see retry-schedule.ts). */
const RETRY_DELAYS_MS = [1_000, 5_000]

interface Received {
  headers: Record<string, string>
  body: string
}

let clock = T0
let mockAgent: MockAgent
let received: Received[]
const senders: WebhookSender[] = []

/** The MockAgent answers every POST to ORIGIN/hook with what `answer` says. */
function receiverAnswers(answer: (index: number) => { statusCode: number; data?: string; headers?: Record<string, string> }): void {
  mockAgent
    .get(ORIGIN)
    .intercept({ path: '/hook', method: 'POST' })
    .reply((request) => {
      received.push({ headers: request.headers as Record<string, string>, body: request.body as string })
      const { statusCode, data, headers } = answer(received.length - 1)
      return { statusCode, data: data ?? '', responseOptions: { headers } }
    })
    .persist()
}

function senderOver(deliveries: InMemoryDeliveries, options: Partial<WebhookSenderOptions> = {}): WebhookSender {
  const sender = new WebhookSender({
    deliveries: deliveries.deliveries,
    secrets: new SecretBox(randomBytes(32)),
    now: () => clock,
    random: () => 0.5,
    retryDelaysMs: RETRY_DELAYS_MS,
    dispatcher: mockAgent,
    ...options,
  })
  senders.push(sender)
  return sender
}

function due(id: string, overrides: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return deliveryFixture({
    id,
    url: `${ORIGIN}/hook`,
    payload: JSON.stringify({ event: 'job.completed', id }),
    nextAttemptAt: clock,
    ...overrides,
  })
}

/** The outcomes journaled for `id`, in order. */
function outcomesOf(deliveries: InMemoryDeliveries, id: string): AttemptOutcome[] {
  return deliveries.recordCalls.flat().flatMap((entry) => (entry.attempt.deliveryId === id ? [entry.outcome] : []))
}

describe('the webhook sender (injected clock, in-memory outbox, MockAgent receiver)', () => {
  beforeEach(() => {
    clock = T0
    received = []
    mockAgent = new MockAgent()
    mockAgent.disableNetConnect()
  })

  afterEach(async () => {
    await Promise.all(senders.splice(0).map((sender) => sender.stop(0)))
    await mockAgent.close()
  })

  it('tries again on the retry schedule (its own round count, jitter from the injected random), then ends EXHAUSTED', async () => {
    receiverAnswers(() => ({ statusCode: 500, data: 'down' }))
    const deliveries = new InMemoryDeliveries()
    // Four attempts of an earlier round (sent again by the operator): this round starts from its first try.
    deliveries.rows.set('d1', due('d1', { attempts: 4, roundAttempts: 0 }))
    const onAttempt = vi.fn()
    const sender = senderOver(deliveries, { onAttempt })
    await sender.start()
    await vi.waitFor(() => expect(deliveries.journal).toHaveLength(1))
    expect(deliveries.journal[0]).toMatchObject({
      deliveryId: 'd1',
      attempt: 5,
      statusCode: 500,
      error: 'The receiver answered 500',
      responseExcerpt: 'down',
    })
    expect(outcomesOf(deliveries, 'd1')).toEqual([{ status: 'PENDING', nextAttemptAt: T0 + 900 }])
    expect(deliveries.get('d1')).toMatchObject({
      status: 'PENDING',
      nextAttemptAt: T0 + 900,
      leaseOwner: null,
      roundAttempts: 1,
      attempts: 5,
    })

    // Not due a millisecond early.
    clock = T0 + 899
    sender.wake()
    await vi.waitFor(() => expect(deliveries.claims.some((claim) => claim.now === T0 + 899)).toBe(true))
    clock = T0 + 900
    sender.wake()
    await vi.waitFor(() => expect(deliveries.journal).toHaveLength(2))
    expect(outcomesOf(deliveries, 'd1')[1]).toEqual({ status: 'PENDING', nextAttemptAt: T0 + 900 + 4_500 })

    clock = T0 + 900 + 4_499
    sender.wake()
    await vi.waitFor(() => expect(deliveries.claims.some((claim) => claim.now === T0 + 900 + 4_499)).toBe(true))
    clock = T0 + 900 + 4_500
    sender.wake()
    await vi.waitFor(() => expect(deliveries.journal).toHaveLength(3))
    expect(outcomesOf(deliveries, 'd1')[2]).toEqual({ status: 'EXHAUSTED' })
    expect(deliveries.get('d1')).toMatchObject({
      status: 'EXHAUSTED',
      nextAttemptAt: null,
      roundAttempts: 3,
      attempts: 7,
      lastStatusCode: 500,
    })

    // Claimed only when due: at T0, T0 + 900 and T0 + 5400.
    expect(deliveries.claims.filter((claim) => claim.ids.includes('d1')).map((claim) => claim.now - T0)).toEqual([0, 900, 5_400])
    expect(received).toHaveLength(3)
    expect(onAttempt).toHaveBeenCalledTimes(3)
  })

  it('delivers on a 2xx answer, with the delivery id and payload as sent', async () => {
    receiverAnswers(() => ({ statusCode: 204 }))
    const deliveries = new InMemoryDeliveries()
    deliveries.rows.set('d1', due('d1'))
    const sender = senderOver(deliveries)
    await sender.start()
    await vi.waitFor(() => expect(deliveries.get('d1').status).toBe('DELIVERED'))
    expect(deliveries.journal).toEqual([
      expect.objectContaining({ deliveryId: 'd1', attempt: 1, statusCode: 204, error: null, responseExcerpt: null }),
    ])
    expect(outcomesOf(deliveries, 'd1')).toEqual([{ status: 'DELIVERED' }])
    expect(deliveries.get('d1')).toMatchObject({ nextAttemptAt: null, leaseOwner: null, deliveredAt: new Date(T0).toISOString() })
    expect(received).toHaveLength(1)
    expect(received[0]!.headers['webhook-id']).toBe('d1')
    expect(received[0]!.body).toBe(due('d1').payload)
  })

  it('takes a 3xx for a failed attempt that names the redirect, and does not follow it', async () => {
    receiverAnswers(() => ({ statusCode: 302, headers: { location: 'https://elsewhere.example/new-hook' } }))
    const deliveries = new InMemoryDeliveries()
    deliveries.rows.set('d1', due('d1'))
    const sender = senderOver(deliveries)
    await sender.start()
    await vi.waitFor(() => expect(deliveries.journal).toHaveLength(1))
    expect(deliveries.journal[0]).toMatchObject({
      statusCode: 302,
      error: 'Redirects are not followed (302 to https://elsewhere.example/new-hook)',
    })
    expect(outcomesOf(deliveries, 'd1')).toEqual([{ status: 'PENDING', nextAttemptAt: T0 + 900 }])
    expect(deliveries.get('d1')).toMatchObject({
      status: 'PENDING',
      lastStatusCode: 302,
      lastError: expect.stringContaining('Redirects are not followed'),
    })
    expect(received).toHaveLength(1)
  })

  it('ends EXHAUSTED without sending, through giveUp, a delivery claimed more times than a round has tries', async () => {
    receiverAnswers(() => ({ statusCode: 200 }))
    const deliveries = new InMemoryDeliveries()
    // Both were leased by a sender that died mid-attempt; their leases ran out.
    const dead = { leaseOwner: 'gone-host:1:x', leaseExpiresAt: T0 - 1, nextAttemptAt: T0 - 1 }
    deliveries.rows.set('out-of-tries', due('out-of-tries', { ...dead, attempts: 3, roundAttempts: 3 }))
    deliveries.rows.set('last-try', due('last-try', { ...dead, attempts: 2, roundAttempts: 2 }))
    const onAttempt = vi.fn()
    const sender = senderOver(deliveries, { onAttempt })
    await sender.start()
    await vi.waitFor(() => expect(deliveries.get('out-of-tries').status).toBe('EXHAUSTED'))
    await vi.waitFor(() => expect(deliveries.get('last-try').status).toBe('DELIVERED'))
    // The claim that found it out of tries made no attempt, and is not counted.
    expect(deliveries.get('out-of-tries')).toMatchObject({ attempts: 3, roundAttempts: 3, nextAttemptAt: null, leaseOwner: null })
    expect(deliveries.get('out-of-tries').lastError).toMatch(/during each of the last 3 tries/)
    expect(deliveries.journal.map((attempt) => attempt.deliveryId)).toEqual(['last-try'])
    expect(received.map((request) => request.headers['webhook-id'])).toEqual(['last-try'])
    expect(onAttempt).toHaveBeenCalledTimes(1)
  })

  it('journals a burst of answers in one recordAttempts call', async () => {
    receiverAnswers(() => ({ statusCode: 200, data: 'ok' }))
    const deliveries = new InMemoryDeliveries()
    const ids = ['d1', 'd2', 'd3', 'd4', 'd5']
    for (const id of ids) deliveries.rows.set(id, due(id))
    const sender = senderOver(deliveries)
    await sender.start()
    await vi.waitFor(() => expect(ids.every((id) => deliveries.get(id).status === 'DELIVERED')).toBe(true))
    expect(deliveries.claims[0]!.ids).toEqual(ids)
    expect(deliveries.recordCalls).toHaveLength(1)
    expect(deliveries.recordCalls[0]!.map((entry) => entry.attempt.deliveryId).sort()).toEqual(ids)
  })

  it('still sends when onAttemptStarted throws, and reports the fault', async () => {
    receiverAnswers(() => ({ statusCode: 200 }))
    const deliveries = new InMemoryDeliveries()
    deliveries.rows.set('d1', due('d1'))
    const fault = new Error('the latency probe broke')
    const onError = vi.fn()
    const sender = senderOver(deliveries, {
      onError,
      onAttemptStarted: () => {
        throw fault
      },
    })
    await sender.start()
    await vi.waitFor(() => expect(deliveries.get('d1').status).toBe('DELIVERED'))
    expect(onError).toHaveBeenCalledWith(fault, expect.objectContaining({ id: 'd1' }))
    expect(received).toHaveLength(1)
  })

  it('gives an attempt cut off by shutdown back uncounted (real loopback receiver that never answers)', async () => {
    const receiver = await startWebhookReceiver()
    receiver.answer(() => 'hang')
    const dispatcher = new Agent()
    try {
      const deliveries = new InMemoryDeliveries()
      deliveries.rows.set('d1', due('d1', { url: `${receiver.url}/hook`, attempts: 2, roundAttempts: 1 }))
      const onAttempt = vi.fn()
      const sender = senderOver(deliveries, { dispatcher, onAttempt })
      await sender.start()
      await receiver.waitForRequests(1)
      expect(deliveries.get('d1')).toMatchObject({ attempts: 3, roundAttempts: 2, leaseOwner: expect.any(String) })
      clock = T0 + 1_234
      await sender.stop(50)
      expect(deliveries.get('d1')).toMatchObject({
        status: 'PENDING',
        attempts: 2,
        roundAttempts: 1,
        leaseOwner: null,
        nextAttemptAt: T0 + 1_234,
      })
      expect(deliveries.journal).toEqual([])
      expect(onAttempt).not.toHaveBeenCalled()
    } finally {
      await dispatcher.destroy()
    }
  })
})
