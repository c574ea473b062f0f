import { afterEach, describe, expect, it } from 'vitest'
import { invokeOperation } from '../../../src/service/operator/invoke-operation'
import { callEnded, ended, closeCallsAndServers, setUpCall, type CallSetup } from '../../helpers/web-sdk-call'
import { TestSoftphone } from '../../helpers/sip-softphone'

/*
 * POST /v1/voice-agents/call over a real SIP line on loopback: the agent rings a softphone that
 * registered with its SIP user's password (test/helpers/sip-softphone), greets it over RTP, and
 * the call ends as the phone hangs up; busy, declined, unanswered and unreachable phones end
 * the conversation FAILED with the reason; refusals come in the contract's envelope.
 */

afterEach(closeCallsAndServers)

const AGENT = { greetingMessage: 'Hello, this is Olive Grove calling about your table.', pokeMessages: [], interrupt: false, tools: {} }

interface Line extends CallSetup {
  port: number
  /** A SIP user whose softphone registered, ready to be called. */
  phone(name: string): Promise<TestSoftphone>
  call(toNumber: string, extra?: Record<string, unknown>): ReturnType<CallSetup['service']['call']>
}

async function line(config: Record<string, unknown> = {}): Promise<Line> {
  const setup = await setUpCall(AGENT, { sip: { port: 0, ringTimeoutMs: 1_500 }, ...config })
  const status = setup.service.runtime.sipLine()
  if (status.state !== 'listening') throw new Error(`The SIP line is ${status.state}`)
  const handlers = setup.service.runtime.operatorHandlers('desktop')
  return {
    ...setup,
    port: status.port,
    phone: async (name) => {
      const added = await invokeOperation(handlers, 'sipUsers.add', { name })
      if (!added.ok) throw new Error(added.error.message)
      const phone = await TestSoftphone.open(status.port)
      const { final } = await phone.register(name, (added.data as { password: string }).password, 300)
      expect(final.status).toBe(200)
      return phone
    },
    call: (toNumber, extra = {}) =>
      setup.service.call('POST', '/v1/voice-agents/call', {
        body: { toNumber, voiceAgentId: setup.agentId, params: { customerName: 'Sara' }, ...extra },
      }),
  }
}

async function jobState(setup: CallSetup, id: string): Promise<Record<string, unknown>> {
  const job = await setup.service.runtime.store.jobs.findById(id)
  return job?.jobResponse ?? {}
}

/** µ-law bytes that are not silence (0xFF and 0x7F are zero). */
function voiced(payloads: Buffer[]): number {
  let count = 0
  for (const payload of payloads) for (const byte of payload) if (byte !== 0xff && byte !== 0x7f) count += 1
  return count
}

describe('POST /v1/voice-agents/call', () => {
  it('rings a registered softphone, greets it over RTP, and ends COMPLETED with call.ended when the phone hangs up', async () => {
    const setup = await line()
    const phone = await setup.phone('+15551230010')
    const response = await setup.call('15551230010', {
      fromNumber: '+15550009999',
      webhookUrl: `${setup.receiver.url}/this-call`,
      webhookAuth: { authKey: 'Token', authSecret: 'this-call-secret' },
    })
    expect(response.statusCode, response.body).toBe(200)
    const job = response.json<{ data: { id: string; type: string } }>().data
    expect(job.type).toBe('CONVERSATION')
    const invite = await phone.next((message) => message.method === 'INVITE')
    expect(invite.headers.from?.uri).toMatch(/^sip:\+15550009999@127\.0\.0\.1:/)
    // The greeting arrives as G.711 µ-law, 20 ms packets.
    const until = Date.now() + 10_000
    while (voiced(phone.rtp.packets.map((packet) => packet.payload)) < 4_000 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100))
    expect(phone.rtp.packets.length).toBeGreaterThan(25)
    expect(phone.rtp.packets.every((packet) => packet.payloadType === 0 && packet.payload.length === 160)).toBe(true)
    expect(voiced(phone.rtp.packets.map((packet) => packet.payload))).toBeGreaterThan(4_000)

    expect((await phone.hangUp()).status).toBe(200)
    const { call } = await ended(setup, job.id, Date.now(), 10_000)
    expect(call.status).toBe('COMPLETED')
    expect(call.callParams).toMatchObject({ customerName: 'Sara', userNumber: '+15551230010', machineNumber: '+15550009999' })
    expect(await jobState(setup, job.id)).toMatchObject({
      channel: 'SIP',
      direction: 'outbound',
      fromNumber: '+15550009999',
      toNumber: '+15551230010',
      endReason: 'caller-hangup',
    })
    expect(await callEnded(setup, job.id)).toMatchObject({ eventType: 'call.ended', data: { status: 'COMPLETED' } })
    // This call's own webhook, not the agent's, heard its events.
    const ours = setup.receiver.requests.filter((request) => (JSON.parse(request.body) as { callId?: string }).callId === job.id)
    expect(ours.length).toBeGreaterThanOrEqual(2)
    for (const request of ours) {
      expect(request.url).toBe('/this-call')
      expect(request.headers.authorization).toBe('Token this-call-secret')
    }
  })

  it('ends FAILED with the reason: busy, declined, no answer (a CANCEL), unreachable', async () => {
    const setup = await line()
    const cases = [
      { name: 'busy', mode: 'busy', code: 'CALL_BUSY' },
      { name: 'declines', mode: 'decline', code: 'CALL_REJECTED' },
      { name: 'rings', mode: 'ring', code: 'CALL_NO_ANSWER' },
      { name: 'gone', mode: 'silent', code: 'CALL_UNREACHABLE' },
    ] as const
    const phones = await Promise.all(cases.map((entry) => setup.phone(entry.name)))
    cases.forEach((entry, index) => (phones[index]!.mode = entry.mode))
    const started = Date.now()
    const jobs = await Promise.all(
      cases.map(async (entry) => {
        const response = await setup.call(`sip:${entry.name}@127.0.0.1:${phones[cases.indexOf(entry)]!.port}`)
        expect(response.statusCode, response.body).toBe(200)
        return response.json<{ data: { id: string } }>().data.id
      }),
    )
    for (const [index, id] of jobs.entries()) {
      const { call } = await ended(setup, id, started, 10_000)
      expect(call.status).toBe('FAILED')
      expect(call.error?.code ?? (call as unknown as { jobError?: { code: string } }).jobError?.code).toBe(cases[index]!.code)
      expect(await callEnded(setup, id)).toMatchObject({ data: { status: 'FAILED' } })
    }
    // The ringing phone heard a CANCEL after the ring timeout.
    expect(phones[2]!.cancelled).toBe(1)
  })

  it('calls several softphones at once', async () => {
    const setup = await line()
    const names = ['+15551230021', '+15551230022', '+15551230023', '+15551230024']
    const phones = await Promise.all(names.map((name) => setup.phone(name)))
    const responses = await Promise.all(names.map((name) => setup.call(name)))
    for (const response of responses) expect(response.statusCode, response.body).toBe(200)
    const until = Date.now() + 15_000
    while (phones.some((phone) => voiced(phone.rtp.packets.map((packet) => packet.payload)) < 2_000) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100))
    for (const phone of phones) expect(voiced(phone.rtp.packets.map((packet) => packet.payload))).toBeGreaterThan(2_000)
    await Promise.all(phones.map((phone) => phone.hangUp()))
    for (const response of responses) {
      const { call } = await ended(setup, response.json<{ data: { id: string } }>().data.id, Date.now(), 10_000)
      expect(call.status).toBe('COMPLETED')
    }
  })

  it('refuses in the envelope: a bad body, an unknown or unregistered user, a sip: URI off the allow-list, the call cap, the line off', async () => {
    const setup = await line({ calls: { maxConcurrent: 1 } })
    const bad = await setup.call('not a number')
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } })
    const inline = await setup.call('+15551230030', { agentDetails: { agentName: 'x' } })
    expect(inline.statusCode).toBe(400)
    expect((await setup.call('+15551230030')).json()).toMatchObject({ error: { code: 'NOT_FOUND' } })
    const handlers = setup.service.runtime.operatorHandlers('desktop')
    await invokeOperation(handlers, 'sipUsers.add', { name: '+15551230030' })
    const unregistered = await setup.call('+15551230030')
    expect(unregistered.statusCode, unregistered.body).toBe(409)
    expect(unregistered.json()).toMatchObject({
      success: false,
      message: expect.stringMatching(/not registered/),
      error: { code: 'CONFLICT' },
    })
    const far = await setup.call('sip:someone@192.0.2.10:5060')
    expect(far.statusCode).toBe(403)
    expect(far.json()).toMatchObject({ message: expect.stringMatching(/--sip-allow-outbound/), error: { code: 'FORBIDDEN' } })

    // One place for calls: the first call takes it, the second is refused (and its conversation FAILED TOO_MANY_CALLS).
    const phone = await setup.phone('+15551230031')
    expect((await setup.call('+15551230031')).statusCode).toBe(200)
    await phone.next((message) => message.method === 'INVITE')
    const over = await setup.call('+15551230031')
    expect(over.statusCode).toBe(503)
    expect(over.json()).toMatchObject({ message: expect.stringMatching(/concurrent calls/), error: { code: 'UNAVAILABLE' } })

    const off = await setUpCall(AGENT, {})
    const offCall = await off.service.call('POST', '/v1/voice-agents/call', {
      body: { toNumber: '+15551230030', voiceAgentId: off.agentId },
    })
    expect(offCall.statusCode).toBe(409)
    expect(offCall.json()).toMatchObject({ message: expect.stringMatching(/SIP line is off/), error: { code: 'CONFLICT' } })
  })
})
