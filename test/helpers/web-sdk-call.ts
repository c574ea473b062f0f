// Shared by the web SDK call files (web-sdk-protocol, web-sdk-speech): a real service on
// 127.0.0.1 with a booking agent, a real WebSocket client speaking the web SDK 0.3.1's frames,
// a loopback webhook receiver, and a speech-recognition server double (it stands for
// whisper.cpp's server or speaches, outside this machine).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'vitest'
import { ConversationEnvelopeSchema, type Conversation } from '../../src/shared/api/conversations'
import type { OutcomeShape } from '../../src/shared/api/outcome-shape'
import type { RuntimeConfig } from '../../src/service/runtime'
import { STT_SETTING_KEY } from '../../src/service/settings/stt-settings'
import { SdkCallClient } from './sdk-call-client'
import { startTestService, type TestService } from './test-service'
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver'

/** Sockets and loopback servers a test opened, closed after it (`closeCallsAndServers` in afterEach). */
export const clients: SdkCallClient[] = []
export const servers: Server[] = []

export async function closeCallsAndServers(): Promise<void> {
  for (const client of clients.splice(0)) client.close()
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
}

export const BOOKING_SHAPE: OutcomeShape = {
  type: 'object',
  properties: {
    customerName: { type: 'string', description: 'The name the table is booked under' },
    guests: { type: 'integer', description: 'How many people are coming' },
    seating: { type: 'string', enum: ['indoor', 'terrace'], description: 'Where they would like to sit' },
  },
  required: ['customerName', 'guests'],
}

export interface CallSetup {
  service: TestService
  baseUrl: string
  agentId: string
  receiver: WebhookReceiver
}

export async function setUpCall(agent: Record<string, unknown> = {}, config: Partial<RuntimeConfig> = {}): Promise<CallSetup> {
  const receiver = await startWebhookReceiver()
  const service = await startTestService({ port: 0, ...config })
  const baseUrl = (await service.runtime.start()).replace('localhost', '127.0.0.1')
  const created = await service.call('POST', '/v1/voice-agents', {
    body: {
      agentName: 'Table Booker',
      lang: 'en',
      greetingMessage: 'Hello {{customerName}}, thanks for calling Olive Grove.',
      preamble: 'You book tables at Olive Grove for {{customerName}}.',
      params: { customerName: 'guest' },
      outcome: 'The booking',
      outcomeResponseShape: BOOKING_SHAPE,
      webhookUrl: `${receiver.url}/calls`,
      webhookAuth: { authKey: 'Bearer', authSecret: 'call-secret' },
      silenceThreshold: 5,
      pokeMessages: ['Are you still there?'],
      interrupt: true,
      tools: { smartCallEnd: true },
      ...agent,
    },
  })
  expect(created.statusCode, created.body).toBe(200)
  return { service, baseUrl, agentId: created.json<{ data: { id: string } }>().data.id, receiver }
}

export async function startCall(setup: CallSetup, body: Record<string, unknown> = {}): Promise<{ jobId: string; client: SdkCallClient }> {
  const init = await setup.service.call('POST', '/v1/voice-agents/conversation-init', {
    body: { voiceAgentId: setup.agentId, params: { customerName: 'Sara' }, voiceEnablement: true, tools: [], ...body },
  })
  expect(init.statusCode, init.body).toBe(200)
  const jobId = init.json<{ data: { jobId: string } }>().data.jobId
  const client = await SdkCallClient.connect(setup.baseUrl, jobId, setup.service.key)
  clients.push(client)
  return { jobId, client }
}

export async function conversation(setup: CallSetup, jobId: string): Promise<Conversation> {
  const response = await setup.service.call('GET', `/v1/voice-agents/conversation/${jobId}?jobId=${jobId}`, {
    headers: { 'content-type': 'application/json' },
  })
  expect(response.statusCode, response.body).toBe(200)
  return ConversationEnvelopeSchema.parse(response.json()).data
}

/** The `call.ended` webhook of call `callId`, as the loopback receiver got it (waits up to 10 s). */
export async function callEnded(setup: CallSetup, callId: string): Promise<Record<string, unknown>> {
  for (let tries = 0; tries < 100; tries += 1) {
    const found = setup.receiver.requests
      .map((request) => JSON.parse(request.body) as Record<string, unknown>)
      .find((body) => body.eventType === 'call.ended' && body.callId === callId)
    if (found) return found
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`No call.ended webhook for ${callId}`)
}

/** Polls the conversation until it ended; answers it and how long after `since` (ms) it was seen ended. */
export async function ended(
  setup: CallSetup,
  jobId: string,
  since: number,
  timeoutMs = 5_000,
): Promise<{ call: Conversation; afterMs: number }> {
  for (;;) {
    const call = await conversation(setup, jobId)
    if (call.status === 'COMPLETED' || call.status === 'FAILED') return { call, afterMs: Date.now() - since }
    if (Date.now() - since > timeoutMs) throw new Error(`Conversation still ${call.status} after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export async function waitForTurn(
  setup: CallSetup,
  jobId: string,
  found: (turns: Conversation['transcript']) => boolean,
): Promise<boolean> {
  const until = Date.now() + 10_000
  while (Date.now() < until) {
    if (found((await conversation(setup, jobId)).transcript)) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

export async function setSttEngine(setup: CallSetup, url: string): Promise<void> {
  await setup.service.runtime.store.settings.set(STT_SETTING_KEY, { engine: 'openai-compatible', baseUrl: url })
}

export interface SpeechRequest {
  language: string | null
  sampleRate: number
  seconds: number
}

/**
 * A speech-recognition server double on loopback (it stands for whisper.cpp's server or
 * speaches, outside this machine): it checks the upload is a 16-bit mono WAV, and answers the
 * scripted texts in order, as if it had recognised them.
 */
export async function startSpeechServerDouble(scripted: string[]): Promise<{ url: string; requests: SpeechRequest[] }> {
  const requests: SpeechRequest[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => void answer())
    const answer = async () => {
      const form = await new Request('http://double/', {
        method: 'POST',
        headers: { 'content-type': request.headers['content-type']! },
        body: Buffer.concat(chunks),
      }).formData()
      const file = form.get('file') as File
      const wav = Buffer.from(await file.arrayBuffer())
      const sampleRate = wav.readUInt32LE(24)
      requests.push({ language: form.get('language') as string | null, sampleRate, seconds: (wav.length - 44) / 2 / sampleRate })
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({ text: scripted[requests.length - 1] ?? '' }))
    }
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests }
}
