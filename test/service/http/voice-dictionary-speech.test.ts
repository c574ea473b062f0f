/**
 * A voice dictionary changes what the voice says (docs/api.md, "Voice dictionaries"): the same
 * text, with and without the agent's dictionary active, gives audio of another length, in a TTS
 * job, in realtime TTS and in a call's greeting. A real service on 127.0.0.1 and real eSpeak.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { VOICES } from '../../../src/shared/voices'
import { SdkCallClient } from '../../helpers/sdk-call-client'
import { startTestService, type TestService } from '../../helpers/test-service'

const AVA = VOICES.find((voice) => voice.name === 'Ava')!.id
const BASE = '/v1/voice-agents/voice-dictionaries'
const TEXT = 'Please ask for Dr. Nguyen at the desk.'
/** Much longer said than written: the difference is seconds, far beyond eSpeak's run-to-run variation (none). */
const WORDS = [{ word: 'nguyen', pronunciation: 'Nguyen, spelled N G U Y E N, the senior consultant' }]

const clients: SdkCallClient[] = []
afterEach(() => {
  for (const client of clients.splice(0)) client.close()
})

async function agentWithDictionary(service: TestService, active: boolean, greetingMessage = TEXT) {
  const agent = await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Clinic', lang: 'en', voiceId: AVA, greetingMessage } })
  expect(agent.statusCode, agent.body).toBe(200)
  const agentId = (agent.json().data as { id: string }).id
  const dictionary = await service.call('POST', BASE, { body: { name: 'Staff', words: WORDS } })
  const dictionaryId = (dictionary.json().data as { id: string }).id
  if (active) {
    const toggled = await service.call('POST', `${BASE}/toggle-activation`, {
      body: { dictionaryId, voiceAgentId: agentId, isActive: true },
    })
    expect(toggled.statusCode, toggled.body).toBe(200)
  }
  return { agentId, dictionaryId }
}

async function ttsJobSeconds(service: TestService, body: Record<string, unknown>): Promise<number> {
  const created = await service.call('POST', '/v1/jobs/text-to-speech', { body: { voiceId: AVA, text: TEXT, ...body } })
  expect(created.statusCode, created.body).toBe(200)
  const id = (created.json().data as { id: string }).id
  const deadline = Date.now() + 20_000
  for (;;) {
    const job = (await service.call('GET', `/v1/jobs?jobId=${id}`)).json().data as { status: string; usageTime: string | null }
    if (job.status !== 'PENDING') {
      expect(job.status).toBe('COMPLETED')
      return Number(job.usageTime)
    }
    if (Date.now() > deadline) throw new Error('the TTS job did not end in time')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('voice dictionaries in speech', () => {
  it("a TTS job with voiceAgentId speaks the agent's active dictionaries, and without it or once deactivated does not", async () => {
    const service = await startTestService()
    const { agentId, dictionaryId } = await agentWithDictionary(service, true)
    const plain = await ttsJobSeconds(service, {})
    const withAgent = await ttsJobSeconds(service, { voiceAgentId: agentId })
    expect(withAgent).toBeGreaterThan(plain + 1.5)
    await service.call('POST', `${BASE}/toggle-activation`, { body: { dictionaryId, voiceAgentId: agentId, isActive: false } })
    expect(await ttsJobSeconds(service, { voiceAgentId: agentId })).toBeCloseTo(plain, 2)

    const unknown = await service.call('POST', '/v1/jobs/text-to-speech', {
      body: { voiceId: AVA, text: TEXT, voiceAgentId: '0b0b7f9e-52b4-4f53-9a11-3c1f6a0d2e11' },
    })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } })
    const malformed = await service.call('POST', '/v1/jobs/text-to-speech', { body: { voiceId: AVA, text: TEXT, voiceAgentId: 'x' } })
    expect(malformed.statusCode).toBe(400)
  })

  it('realtime TTS with voiceAgentId says the pronunciation (WAV and stream)', async () => {
    const service = await startTestService({ port: 0 })
    await service.runtime.start()
    const baseUrl = service.runtime.context.baseUrl()
    const { agentId } = await agentWithDictionary(service, true)
    const post = (path: string, body: unknown) =>
      fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Token ${service.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const seconds = async (body: unknown) => {
      const response = await post('/v1/realtime/tts', body)
      expect(response.status).toBe(200)
      await response.arrayBuffer()
      return Number(response.headers.get('x-audio-duration'))
    }
    const plain = await seconds({ text: TEXT, voiceId: AVA })
    expect(await seconds({ text: TEXT, voiceId: AVA, voiceAgentId: agentId })).toBeGreaterThan(plain + 1.5)

    const streamed = await post('/v1/realtime/tts-stream', { text: TEXT, voiceId: AVA, voiceAgentId: agentId, format: 'pcm' })
    expect(streamed.status).toBe(200)
    const pcmSeconds = (await streamed.arrayBuffer()).byteLength / 2 / 16_000
    expect(pcmSeconds).toBeGreaterThan(plain + 1.5)

    const unknown = await post('/v1/realtime/tts', { text: TEXT, voiceId: AVA, voiceAgentId: '0b0b7f9e-52b4-4f53-9a11-3c1f6a0d2e11' })
    expect(unknown.status).toBe(404)
  })

  it("a call's greeting is said with the agent's dictionary, and another agent's call with the same greeting without it", async () => {
    const service = await startTestService({ port: 0 })
    const baseUrl = (await service.runtime.start()).replace('localhost', '127.0.0.1')
    const greetingSeconds = async (agentId: string) => {
      const init = await service.call('POST', '/v1/voice-agents/conversation-init', {
        body: { voiceAgentId: agentId, params: {}, voiceEnablement: true, tools: [] },
      })
      expect(init.statusCode, init.body).toBe(200)
      const client = await SdkCallClient.connect(baseUrl, (init.json().data as { jobId: string }).jobId, service.key)
      clients.push(client)
      // The greeting's audio is complete when its mark comes.
      await client.nth('mark', 1, 20_000)
      const seconds = client.agentAudioSeconds
      client.close()
      return seconds
    }
    const plainAgent = await agentWithDictionary(service, false)
    const withDictionary = await agentWithDictionary(service, true)
    const plain = await greetingSeconds(plainAgent.agentId)
    const said = await greetingSeconds(withDictionary.agentId)
    expect(plain).toBeGreaterThan(1)
    expect(said).toBeGreaterThan(plain + 1.5)
  })
})
