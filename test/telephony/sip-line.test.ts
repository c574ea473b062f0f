import { afterEach, describe, expect, it } from 'vitest'
import { mulaw } from 'alawmulaw'
import { createResampler } from '../../src/engines/audio/speex-resampler'
import type { Conversation } from '../../src/shared/api/conversations'
import {
  callEnded,
  closeCallsAndServers,
  conversation,
  setSttEngine,
  setUpCall,
  startSpeechServerDouble,
  type CallSetup,
} from '../helpers/web-sdk-call'
import { spokenSamples } from '../helpers/spoken-audio'
import { callerRtpSocket, keyEventPacket, mulawWav, runSipp } from '../helpers/sipp'

/*
 * The SIP line end to end: a real service on 127.0.0.1 with its line on a free port, real SIP
 * callers (SIPp scenarios from test/fixtures/sip), the caller's RTP heard on a test-side socket
 * (µ-law decoded and measured), real webhooks to a loopback receiver.
 */

afterEach(closeCallsAndServers)

const ACCOUNT_AGENT = {
  agentName: 'Account Desk',
  greetingMessage: 'Account desk, hello.',
  preamble: "You take the caller's account number.",
  outcome: 'The account number',
  outcomeResponseShape: {
    type: 'object',
    properties: { accountNumber: { type: 'string', description: "The caller's account number" } },
    required: ['accountNumber'],
  },
  pokeMessages: [],
  interrupt: true,
  silenceThreshold: 30,
  tools: {},
}

/** The service with its SIP line on a free port, an agent, and `number` assigned to it. */
async function lineWithAgent(...numbers: string[]): Promise<CallSetup & { sipPort: number }> {
  const setup = await setUpCall(ACCOUNT_AGENT, { sip: { port: 0 } })
  const status = setup.service.runtime.sipLine()
  if (status.state !== 'listening') throw new Error(`The SIP line is ${status.state}`)
  for (const number of numbers) await assign(setup, number)
  return { ...setup, sipPort: status.port }
}

async function assign(setup: CallSetup, number: string): Promise<void> {
  const registered = await setup.service.call('POST', '/v1/voice-agents/phone-number', {
    body: { type: 'TELEPHONY', phoneNumber: number, label: 'Front desk', providerAccountSid: 'AC1', providerAuthToken: 'token' },
  })
  expect(registered.statusCode, registered.body).toBe(200)
  const assigned = await setup.service.call('POST', '/v1/voice-agents/assign-number', {
    body: { voiceAgentId: setup.agentId, phoneNumber: number },
  })
  expect(assigned.statusCode, assigned.body).toBe(200)
}

/** The ended conversation of the call that dialled `number`. */
async function endedCallTo(setup: CallSetup, number: string): Promise<Conversation> {
  for (let tries = 0; tries < 100; tries += 1) {
    for (const call of await calls(setup)) {
      if (call.status !== 'COMPLETED' && call.status !== 'FAILED') continue
      const read = await conversation(setup, call.id)
      if (read.toNumber === number) return read
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`No call to ${number} ended`)
}

/** The caller's words as SIPp plays them: the project's own voice, 8 kHz µ-law. */
async function callerWav(text: string): Promise<Buffer> {
  const speech = await spokenSamples(text)
  const resampler = await createResampler(16_000, 8_000)
  const narrow = resampler.resample(Int16Array.from(speech, (sample) => Math.round(sample * 32767)))
  resampler.dispose()
  const padded = new Int16Array(narrow.length + 8_000)
  padded.set(narrow)
  return mulawWav(mulaw.encode(padded))
}

/** The project's conversations, newest first (a SIP call makes its own). */
async function calls(setup: CallSetup): Promise<{ id: string; status: string }[]> {
  const response = await setup.service.call('GET', '/v1/voice-agents/conversations/minimal-list')
  return response.json<{ data: { calls: { id: string; status: string }[] } }>().data.calls
}

function rms(samples: Int16Array): number {
  let sum = 0
  for (const sample of samples) sum += (sample / 32768) ** 2
  return Math.sqrt(sum / Math.max(1, samples.length))
}

describe('the SIP line', () => {
  it('answers an assigned number: the greeting arrives as µ-law RTP, keys fill a field, the BYE ends it COMPLETED with call.ended', async () => {
    const setup = await lineWithAgent('+15551230001')
    const phone = await callerRtpSocket()
    // The keys, once the greeting has played: 4 2 1 7 # as RFC 4733 events from the caller's RTP address.
    const keys = (async () => {
      while (phone.packets.length === 0 || performance.now() - phone.packets.at(-1)!.at < 600) await new Promise((r) => setTimeout(r, 100))
      const agentSide = phone.packets[0]!.from
      let sequence = 100
      let timestamp = 8000
      for (const event of [4, 2, 1, 7, 11]) {
        for (const [end, duration] of [
          [false, 160],
          [false, 320],
          [true, 480],
          [true, 480],
          [true, 480],
        ] as const) {
          phone.send(
            keyEventPacket({
              payloadType: 101,
              sequence: sequence++,
              timestamp,
              ssrc: 1234,
              event,
              end,
              duration,
              marker: duration === 160 && !end,
            }),
            agentSide,
          )
          await new Promise((r) => setTimeout(r, 20))
        }
        timestamp += 1600
      }
    })()
    const sipp = await runSipp('greeting.xml', {
      port: setup.sipPort,
      number: '15551230001',
      vars: { rtp_port: phone.port },
      pauseMs: 6_000,
    })
    expect(sipp.code, sipp.stdout + sipp.errors).toBe(0)
    await keys
    const greeting = phone.packets.filter((packet) => packet.payloadType === 0)
    const samples = mulaw.decode(new Uint8Array(Buffer.concat(greeting.map((packet) => packet.payload))))
    expect(samples.length / 8000).toBeGreaterThan(0.8)
    expect(rms(samples)).toBeGreaterThan(0.01)
    const call = await endedCallTo(setup, '+15551230001')
    expect(call).toMatchObject({
      status: 'COMPLETED',
      channel: 'SIP',
      channelType: 'Telephone',
      direction: 'inbound',
      fromNumber: '+15550009999',
      toNumber: '+15551230001',
      endReason: 'caller-hangup',
    })
    expect(call.transcript.filter((turn) => turn.role === 'caller')).toEqual([expect.objectContaining({ content: '4217', kind: 'dtmf' })])
    expect(call.outcomeResult).toMatchObject({ accountNumber: '4217' })
    const ended = await callEnded(setup, call.id)
    expect(ended).toMatchObject({ callId: call.id, data: { status: 'COMPLETED', transcription: expect.any(Array) } })
  }, 60_000)

  it('hears a caller who talks over the greeting (barge-in; speech recognition through the loopback double), takes keys over SIP INFO on a TCP call, and answers an unknown number 404 (over UDP and TCP)', async () => {
    const setup = await lineWithAgent('+15551230002', '+15551230003')
    // The speech-recognition server double (it stands for whisper.cpp's server, outside this machine) answers as if it heard the caller.
    const recognition = await startSpeechServerDouble(['my account number is 5551'])
    await setSttEngine(setup, recognition.url)
    const wav = await callerWav('My account number is five five five one.')
    const [unknown, unknownOverTcp, keys, speech] = await Promise.all([
      runSipp('unknown-number.xml', { port: setup.sipPort, number: '+15559990000' }),
      runSipp('unknown-number.xml', { port: setup.sipPort, number: '+15559990001', transport: 'tcp' }),
      runSipp('keypad-info.xml', { port: setup.sipPort, number: '15551230002', pauseMs: 5_000, transport: 'tcp' }),
      runSipp('caller-speaks.xml', { port: setup.sipPort, number: '+15551230003', pauseMs: 7_000, files: { 'caller.wav': wav } }),
    ])
    expect(unknown.code, unknown.stdout + unknown.errors).toBe(0)
    expect(unknownOverTcp.code, unknownOverTcp.stdout + unknownOverTcp.errors).toBe(0)
    expect(keys.code, keys.stdout + keys.errors).toBe(0)
    expect(speech.code, speech.stdout + speech.errors).toBe(0)
    const keyed = await endedCallTo(setup, '+15551230002')
    expect(keyed.transcript.filter((turn) => turn.role === 'caller')).toEqual([expect.objectContaining({ content: '9305', kind: 'dtmf' })])
    const spoken = await endedCallTo(setup, '+15551230003')
    // The caller's RTP reached recognition as 16 kHz speech, and the agent answered the turn.
    expect(recognition.requests[0]).toMatchObject({ sampleRate: 16_000 })
    expect(recognition.requests[0]!.seconds).toBeGreaterThan(1.5)
    const callerTurn = spoken.transcript.findIndex((turn) => turn.role === 'caller' && turn.content === 'my account number is 5551')
    expect(callerTurn, JSON.stringify(spoken.transcript)).toBeGreaterThan(0)
    expect(spoken.transcript.slice(callerTurn + 1)).toContainEqual(expect.objectContaining({ role: 'agent' }))
    expect(spoken.outcomeResult).toMatchObject({ accountNumber: '5551' })
    // The caller spoke a second into the greeting: the agent stopped (barge-in), as on a web call.
    expect(spoken.bargeIns).toBe(1)
    expect(spoken.transcript[0]).toMatchObject({ role: 'agent', interrupted: true })
  }, 60_000)
})
