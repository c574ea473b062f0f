import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createBrowserBridge, type WebSocketLike } from '../../src/renderer/src/api/browser-bridge'
import type { RuntimeConfig } from '../../src/service/runtime'
import type { IpcStreamClose, TestCallServerFrame } from '../../src/shared/ipc/streams'
import { SdkCallClient } from '../helpers/sdk-call-client'
import { startTestService, type TestService } from '../helpers/test-service'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'

/*
 * The cap on concurrent calls (`serve --max-calls`, RuntimeConfig.calls.maxConcurrent), end to
 * end: a real service on 127.0.0.1 with a real database, real WebSocket clients speaking the web
 * SDK's frames, the operator's test call through the renderer's own browser bridge, and the
 * agent's webhook on a loopback receiver.
 */

const clients: SdkCallClient[] = []
afterEach(() => {
  for (const client of clients.splice(0)) client.close()
})

interface Setup {
  service: TestService
  baseUrl: string
  agentId: string
  receiver: WebhookReceiver
}

async function setUp(maxConcurrent: number, config: Partial<RuntimeConfig> = {}): Promise<Setup> {
  const receiver = await startWebhookReceiver()
  const service = await startTestService({ port: 0, calls: { maxConcurrent }, ...config })
  const baseUrl = (await service.runtime.start()).replace('localhost', '127.0.0.1')
  const created = await service.call('POST', '/v1/voice-agents', {
    body: {
      agentName: 'Front desk',
      lang: 'en',
      greetingMessage: 'Hello, front desk.',
      webhookUrl: `${receiver.url}/calls`,
      silenceThreshold: 60,
    },
  })
  expect(created.statusCode, created.body).toBe(200)
  return { service, baseUrl, agentId: created.json<{ data: { id: string } }>().data.id, receiver }
}

async function conversationInit(setup: Setup): Promise<string> {
  const init = await setup.service.call('POST', '/v1/voice-agents/conversation-init', {
    body: { voiceAgentId: setup.agentId, params: {}, voiceEnablement: true, tools: [] },
  })
  expect(init.statusCode, init.body).toBe(200)
  return init.json<{ data: { jobId: string } }>().data.jobId
}

/** Opens a call's socket; answers the client once the service said whether it took the call (CALL_STARTED or a refusal). */
async function dial(setup: Setup, jobId: string): Promise<SdkCallClient> {
  const client = await SdkCallClient.connect(setup.baseUrl, jobId, setup.service.key)
  clients.push(client)
  await client.nth('info', 1, 15_000)
  return client
}

const firstInfo = (client: SdkCallClient) => client.framesOf('info')[0]?.code

async function conversation(setup: Setup, jobId: string) {
  const response = await setup.service.call('GET', `/v1/voice-agents/conversation/${jobId}?jobId=${jobId}`)
  expect(response.statusCode, response.body).toBe(200)
  return response.json<{ data: { status: string; error: { code: string; message: string } | null } }>().data
}

/** Polls until `read` holds (the host frees a place once the call's end is written). */
async function eventually<T>(read: () => T | Promise<T>, holds: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const since = Date.now()
  for (;;) {
    const value = await read()
    if (holds(value)) return value
    if (Date.now() - since > timeoutMs) throw new Error(`Still not ${what} after ${timeoutMs} ms: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('the cap on concurrent calls', () => {
  it('with room for 2, refuses exactly one of 3 calls opened at once (info TOO_MANY_CALLS, close 1000, FAILED with its call.ended); a call after one ended is taken', async () => {
    const setup = await setUp(2)
    const jobIds = await Promise.all([0, 1, 2].map(() => conversationInit(setup)))
    const calls = await Promise.all(jobIds.map((jobId) => dial(setup, jobId)))

    const refused = calls.filter((client) => firstInfo(client) === 'TOO_MANY_CALLS')
    const taken = calls.filter((client) => firstInfo(client) === 'CALL_STARTED')
    expect(refused).toHaveLength(1)
    expect(taken).toHaveLength(2)
    const [loser] = refused
    expect(await loser!.closed).toEqual({ code: 1000, reason: '' })
    expect(loser!.framesOf('info')).toEqual([{ event: 'info', code: 'TOO_MANY_CALLS', message: expect.stringContaining('--max-calls 2') }])
    expect(loser!.framesOf('media')).toEqual([])

    const loserJob = jobIds[calls.indexOf(loser!)]!
    const record = await conversation(setup, loserJob)
    expect(record).toMatchObject({ status: 'FAILED', error: { code: 'TOO_MANY_CALLS', message: expect.stringContaining('--max-calls') } })
    // Its agent hears the end (and no start), in whatever order beside the taken calls' call.started and call.answered.
    const eventsOfLoser = () =>
      setup.receiver.requests
        .map((request) => JSON.parse(request.body) as { eventType: string; callId: string })
        .filter((event) => event.callId === loserJob)
    await eventually(eventsOfLoser, (events) => events.length > 0, "the refused call's call.ended")
    expect(eventsOfLoser()).toEqual([
      expect.objectContaining({
        eventType: 'call.ended',
        data: expect.objectContaining({ status: 'FAILED', endReason: 'error', error: expect.objectContaining({ code: 'TOO_MANY_CALLS' }) }),
      }),
    ])
    expect(setup.service.runtime.calls.callPlacesTaken).toBe(2)

    // Still full: the next is refused too. One hangs up: its place is free again.
    expect(firstInfo(await dial(setup, await conversationInit(setup)))).toBe('TOO_MANY_CALLS')
    await taken[0]!.hangUp()
    await eventually(
      () => setup.service.runtime.calls.callPlacesTaken,
      (places) => places === 1,
      'one place free',
    )
    const next = await dial(setup, await conversationInit(setup))
    expect(firstInfo(next)).toBe('CALL_STARTED')
    await next.nth('media', 1)
  })

  it('with room for 5, takes 5 of 12 sockets opened at once and refuses 7; no place is kept by a socket that died, however early', async () => {
    const setup = await setUp(5)
    const { calls } = setup.service.runtime
    const jobIds = await Promise.all(Array.from({ length: 12 }, () => conversationInit(setup)))
    const clientsNow = await Promise.all(jobIds.map((jobId) => dial(setup, jobId)))
    expect(clientsNow.filter((client) => firstInfo(client) === 'CALL_STARTED')).toHaveLength(5)
    expect(clientsNow.filter((client) => firstInfo(client) === 'TOO_MANY_CALLS')).toHaveLength(7)
    expect(calls.callPlacesTaken).toBe(5)
    const records = await Promise.all(jobIds.map((jobId) => conversation(setup, jobId)))
    expect(records.filter((record) => record.error?.code === 'TOO_MANY_CALLS')).toHaveLength(7)
    expect(records.filter((record) => record.status === 'IN_PROGRESS')).toHaveLength(5)

    // Every call hangs up, some by dropping the socket without a word: every place comes back.
    clientsNow.filter((_, index) => index % 2 === 1).forEach((client) => client.close())
    await Promise.all(clientsNow.filter((_, index) => index % 2 === 0).map((client) => client.hangUp()))
    await eventually(
      () => calls.callPlacesTaken,
      (places) => places === 0,
      'every place free',
    )
    expect(calls.activeCalls).toBe(0)

    // Sockets that die in the handshake or right after it, at once, beside calls that stay: the dead ones leave no place taken.
    const url = (jobId: string) => `${setup.baseUrl.replace(/^http/, 'ws')}/stream/${jobId}?api_key=${setup.service.key}`
    const dying = await Promise.all(Array.from({ length: 8 }, () => conversationInit(setup)))
    const sockets = dying.map((jobId, index) => {
      const socket = new WebSocket(url(jobId), { perMessageDeflate: true })
      socket.on('error', () => undefined)
      // Half go as soon as the upgrade is answered, half before it is.
      if (index % 2 === 0) socket.on('open', () => socket.terminate())
      else socket.on('upgrade', () => socket.terminate())
      return new Promise<void>((resolve) => socket.on('close', () => resolve()))
    })
    const staying = await Promise.all(Array.from({ length: 5 }, async () => dial(setup, await conversationInit(setup))))
    await Promise.all(sockets)
    await eventually(
      () => calls.callPlacesTaken,
      (places) => places === staying.filter((client) => firstInfo(client) === 'CALL_STARTED').length,
      'only the live calls holding places',
    )
    await Promise.all(staying.map((client) => client.hangUp()))
    await eventually(
      () => calls.callPlacesTaken,
      (places) => places === 0,
      'every place free',
    )
    const after = await Promise.all(Array.from({ length: 5 }, async () => dial(setup, await conversationInit(setup))))
    expect(after.map(firstInfo)).toEqual(Array(5).fill('CALL_STARTED'))
  })

  it("refuses the operator's test call over the cap (UNAVAILABLE, saying why) and ends its conversation TOO_MANY_CALLS", async () => {
    const setup = await setUp(1)
    const live = await dial(setup, await conversationInit(setup))
    expect(firstInfo(live)).toBe('CALL_STARTED')
    const bridge = createBrowserBridge({
      token: setup.service.runtime.uiToken,
      baseUrl: setup.baseUrl,
      createWebSocket: (target) => new WebSocket(target) as unknown as WebSocketLike,
    })
    const handle = bridge.openStream('calls.test', { agentId: setup.agentId })
    const frames: TestCallServerFrame[] = []
    handle.onFrame((frame) => frames.push(frame))
    const close = await new Promise<IpcStreamClose>((resolve) => handle.onClose(resolve))
    expect(frames.map((frame) => frame.type)).toEqual(['refused'])
    expect(close).toMatchObject({ kind: 'failed', error: { code: 'UNAVAILABLE', message: expect.stringContaining('--max-calls 1') } })
    const list = await setup.service.call('POST', `/v1/jobs/all?projectId=${setup.service.runtime.bootstrap.projectId}`, {
      body: { type: 'CONVERSATION' },
    })
    const jobs = list.json<{ data: { jobs: { id: string; status: string }[] } }>().data.jobs
    const failed = jobs.filter((job) => job.status === 'FAILED')
    expect(failed).toHaveLength(1)
    expect(await conversation(setup, failed[0]!.id)).toMatchObject({ error: { code: 'TOO_MANY_CALLS' } })
  })

  it('refuses a cap that is not a whole number from 1 to 10000 when the runtime is made', async () => {
    for (const bad of [0, -1, 2.5, Number.NaN, 10_001]) {
      await expect(startTestService({ calls: { maxConcurrent: bad } })).rejects.toThrow(
        /maxConcurrent must be a whole number from 1 to 10000/,
      )
    }
  })
})

describe("the call socket's compression", () => {
  it('declines permessage-deflate when the SDK offers it (docs/api.md, "No compression"): the call runs uncompressed', async () => {
    const setup = await setUp(2)
    const client = await dial(setup, await conversationInit(setup))
    expect(firstInfo(client)).toBe('CALL_STARTED')
    expect(client.extensions).toBe('')
    await client.nth('mark', 1, 15_000)
    expect(client.agentAudioSeconds).toBeGreaterThan(0.5)
  })
})
