import { describe, expect, it } from 'vitest'
import { ConversationEnvelopeSchema } from '../../src/shared/api/conversations'
import { SdkCallClient } from '../helpers/sdk-call-client'
import { startTestService } from '../helpers/test-service'
import { startWebhookReceiver } from '../helpers/webhook-receiver'

/*
 * A call whose service dies mid-call is not left IN_PROGRESS: once its lease runs out, another
 * service on the same data (a second instance, or the next start) ends it FAILED with
 * CALL_INTERRUPTED, keeping the transcript saved so far, and tells the agent's webhook.
 * The dying service is simulated by closing its database under it: it can no longer renew the
 * call's lease or write its end, as after a SIGKILL.
 */
describe('a call whose service died', () => {
  it('ends FAILED with CALL_INTERRUPTED once its lease ran out, keeping its transcript', async () => {
    const receiver = await startWebhookReceiver()
    // A short lease, so it runs out soon after the service dies; not 1 s: in a full run's load the
    // live service once renewed it late, lost its own call (CALL_LOST) and never played the greeting.
    const calls = { leaseMs: 5_000 }
    const first = await startTestService({ port: 0, calls })
    const base = (await first.runtime.start()).replace('localhost', '127.0.0.1')
    const agent = await first.call('POST', '/v1/voice-agents', {
      body: { agentName: 'Front desk', greetingMessage: 'Hello, front desk.', webhookUrl: `${receiver.url}/calls` },
    })
    const agentId = agent.json<{ data: { id: string } }>().data.id
    const init = await first.call('POST', '/v1/voice-agents/conversation-init', { body: { voiceAgentId: agentId } })
    const { jobId } = init.json<{ data: { jobId: string } }>().data
    const client = await SdkCallClient.connect(base, jobId, first.key)
    await client.nth('mark', 1, 15_000)
    client.send({ event: 'text', content: 'I would like to book a room' })
    await client.nth('transcription', 1)
    const saved = async () =>
      ConversationEnvelopeSchema.parse((await first.call('GET', `/v1/voice-agents/conversation/${jobId}`)).json()).data
    await expect.poll(async () => (await saved()).transcript.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2)

    // The first service "dies": its database is gone from under it.
    await first.runtime.store.close()
    const second = await startTestService({ dataDir: first.dataDir, calls })
    const read = async () =>
      ConversationEnvelopeSchema.parse((await second.call('GET', `/v1/voice-agents/conversation/${jobId}`)).json()).data
    // The 5 s lease runs out, then a sweep ends the call: patience for a full run's load.
    await expect.poll(async () => (await read()).status, { timeout: 45_000, interval: 200 }).toBe('FAILED')
    const call = await read()
    expect(call.error).toMatchObject({ code: 'CALL_INTERRUPTED' })
    expect(call.transcript.map((turn) => turn.content)).toContain('I would like to book a room')
    const requests = await receiver.waitForRequests(1, 10_000)
    await expect
      .poll(() => requests.map((request) => (JSON.parse(request.body) as { eventType: string }).eventType), { timeout: 10_000 })
      .toContain('call.ended')
    client.close()
  }, 120_000)
})
