import { describe, expect, it } from 'vitest'
import { V2JobListEnvelopeSchema, V2VoiceAgentEnvelopeSchema, V2VoiceAgentListEnvelopeSchema } from '../../../src/shared/api/v2'
import { SPEAKER_VOICES, VOICES } from '../../../src/shared/voices'
import { seedJob } from '../../helpers/seed-jobs'
import { startTestService, type TestService } from '../../helpers/test-service'

const OMAR = VOICES.find((voice) => voice.name === 'Omar')!

function createBody(name = 'Support desk') {
  return {
    name,
    type: 'Single Prompt',
    conversation: {
      greetingMessage: 'Hello {{name}}, how can I help?',
      greetingMessageType: 'TEXT',
      preamble: 'You answer questions about orders.',
      pokeMessages: ['Are you still there?'],
      params: { name: 'Lina' },
      alignment: { greetingMessage: 'ltr', preamble: 'ltr' },
    },
    voice: { voiceId: 'Amjad', lang: 'ar' },
    llm: { provider: 'openai', model: 'gpt-4', temperature: 0.7, baseUrl: null, apiKey: 'sk-not-kept' },
    callSettings: {
      interrupt: true,
      silenceThreshold: 8000,
      genderDetection: true,
      smartCallEnd: false,
      noiseCancellation: 'telephony_optimized',
    },
    tools: [],
    knowledgeBaseItemsIds: [],
    voiceDictionaryIds: [],
    webhookUrl: 'https://example.com/hook',
    webhookAuth: {},
    workflow: {},
    outcomeResponseShape: {},
  }
}

/** The calling key's id, as records made with it show it. */
async function keyIdOf(service: TestService): Promise<string> {
  return (await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Key probe' } })).json().data.apiKeyId as string
}

describe('/v2/voice-agents', () => {
  it('creates, reads, lists and updates an agent in the /v2 shape, through the /v1 agent', async () => {
    const service = await startTestService()
    const created = await service.call('POST', '/v2/voice-agents', { body: createBody() })
    expect(created.statusCode, created.body).toBe(200)
    const agent = V2VoiceAgentEnvelopeSchema.parse(created.json()).data
    expect(created.json()).toMatchObject({ success: true, messageKey: 'OPERATION_SUCCESSFUL' })
    expect(agent).toMatchObject({
      name: 'Support desk',
      conversation: { greetingMessage: 'Hello {{name}}, how can I help?', params: { name: 'Lina' }, alignment: { preamble: 'rtl' } },
      voice: { voiceId: SPEAKER_VOICES.get('amjad')!.id, lang: 'ar' },
      callSettings: { interrupt: true, silenceThreshold: 8000, genderDetection: true, smartCallEnd: false },
      webhookUrl: 'https://example.com/hook',
      webhookAuth: {},
      phoneNumber: null,
    })
    expect(created.body).not.toContain('sk-not-kept')
    const v1 = (await service.call('GET', `/v1/voice-agents/${agent.id}`)).json().data
    expect(v1).toMatchObject({ agentName: 'Support desk', silenceThreshold: 8, lang: 'ar' })

    const number = await service.call('POST', '/v1/voice-agents/phone-number', {
      body: { type: 'TELEPHONY', phoneNumber: '+14155550100', label: 'Main', providerAccountSid: 'AC1', providerAuthToken: 't' },
    })
    const numberId = number.json().data.id as string
    const patched = await service.call('PATCH', `/v2/voice-agents/${agent.id}`, {
      body: {
        name: 'Renamed',
        voice: { voiceId: OMAR.id },
        callSettings: { silenceThreshold: 12000 },
        phoneNumber: { type: 'TWILIO', id: numberId },
      },
    })
    expect(patched.statusCode, patched.body).toBe(200)
    expect(patched.json().data).toMatchObject({
      name: 'Renamed',
      voice: { voiceId: OMAR.id },
      callSettings: { silenceThreshold: 12000 },
      phoneNumber: { type: 'TELEPHONY', id: numberId },
      conversation: { greetingMessage: 'Hello {{name}}, how can I help?' },
    })
    const read = await service.call('GET', `/v2/voice-agents/${agent.id}`)
    expect(V2VoiceAgentEnvelopeSchema.parse(read.json()).data.name).toBe('Renamed')
    const list = V2VoiceAgentListEnvelopeSchema.parse((await service.call('GET', '/v2/voice-agents')).json()).data
    expect(list).toMatchObject({ total: 1, filtered: 1 })
    expect(list.voiceAgents[0]!.id).toBe(agent.id)
  })

  it("takes voiceDictionaryIds as the agent's active dictionaries, as /v1's toggle-activation leaves them", async () => {
    const service = await startTestService()
    const dictionary = async (name: string) =>
      (
        await service.call('POST', '/v1/voice-agents/voice-dictionaries', {
          body: { name, words: [{ word: 'Rowe', pronunciation: 'roe' }] },
        })
      ).json().data.id as string
    const [first, second] = [await dictionary('Names'), await dictionary('Drugs')]
    const created = await service.call('POST', '/v2/voice-agents', { body: { ...createBody(), voiceDictionaryIds: [second, first] } })
    expect(created.statusCode, created.body).toBe(200)
    const agentId = created.json().data.id as string
    expect(created.json().data.voiceDictionaryIds).toEqual([second, first])
    // /v1 sees the same activations: the dictionaries are used by this agent.
    const used = (await service.call('GET', `/v1/voice-agents/voice-dictionaries/list?voiceAgentId=${agentId}`)).json().data
    expect(used.dictionaries.map((item: { id: string }) => item.id).sort()).toEqual([first, second].sort())

    const patched = await service.call('PATCH', `/v2/voice-agents/${agentId}`, { body: { voiceDictionaryIds: [first] } })
    expect(patched.json().data.voiceDictionaryIds).toEqual([first])
    const untouched = await service.call('PATCH', `/v2/voice-agents/${agentId}`, { body: { name: 'Renamed' } })
    expect(untouched.json().data.voiceDictionaryIds).toEqual([first])
    expect((await service.call('GET', `/v2/voice-agents/${agentId}`)).json().data.voiceDictionaryIds).toEqual([first])
    const cleared = await service.call('PATCH', `/v2/voice-agents/${agentId}`, { body: { voiceDictionaryIds: [] } })
    expect(cleared.json().data.voiceDictionaryIds).toEqual([])

    // Another project's or an unknown dictionary: 404, and the agent is not changed.
    const other = await service.otherProject()
    const theirs = (
      await service.call('POST', '/v1/voice-agents/voice-dictionaries', { key: other.key, body: { name: 'Theirs', words: [] } })
    ).json().data.id as string
    const refused = await service.call('PATCH', `/v2/voice-agents/${agentId}`, { body: { name: 'Not kept', voiceDictionaryIds: [theirs] } })
    expect(refused.statusCode).toBe(404)
    expect((await service.call('GET', `/v2/voice-agents/${agentId}`)).json().data.name).toBe('Renamed')
    const twice = await service.call('PATCH', `/v2/voice-agents/${agentId}`, { body: { voiceDictionaryIds: [first, first] } })
    expect(twice.statusCode).toBe(400)
    expect(twice.json().error.details[0].path).toBe('body.voiceDictionaryIds')
  })

  const invalid: [string, 'POST' | 'PATCH', Record<string, unknown>, string][] = [
    ['no name', 'POST', { name: undefined }, 'body.name'],
    ['an unknown voice', 'POST', { voice: { voiceId: 'en-US-Neural2-A' } }, 'body.voice.voiceId'],
    ['a language we do not speak', 'POST', { voice: { lang: 'fr' } }, 'body.voice.lang'],
    ['a silence under a second', 'POST', { callSettings: { silenceThreshold: 10 } }, 'body.callSettings.silenceThreshold'],
    ['web tools', 'POST', { tools: [{ toolId: 'x' }] }, 'body.tools'],
    ['a flow workflow', 'PATCH', { workflow: { nodes: [] } }, 'body.workflow'],
    ['a flow agent type', 'PATCH', { type: 'Flow' }, 'body.type'],
    ['an unknown field', 'PATCH', { colour: 'red' }, 'body.colour'],
    ['an unknown call setting', 'PATCH', { callSettings: { volume: 3 } }, 'body.callSettings.volume'],
    ['a bad webhook URL', 'PATCH', { webhookUrl: 'ftp://example.com' }, 'body.webhookUrl'],
    ['half a webhookAuth', 'PATCH', { webhookAuth: { authKey: 'Bearer' } }, 'body.webhookAuth.authSecret'],
  ]
  it.each(invalid)('refuses %s with a 400 naming the /v2 path', async (_label, method, change, path) => {
    const service = await startTestService()
    let url = '/v2/voice-agents'
    if (method === 'PATCH') url += `/${(await service.call('POST', '/v2/voice-agents', { body: createBody() })).json().data.id}`
    const response = await service.call(method, url, { body: method === 'POST' ? { ...createBody(), ...change } : change })
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json().error.details.map((detail: { path: string }) => detail.path)).toContain(path)
  })

  it("answers 404 for unknown ids and another project's agents and numbers, and takes many creates at once", async () => {
    const service = await startTestService()
    const agent = (await service.call('POST', '/v2/voice-agents', { body: createBody() })).json().data
    const other = await service.otherProject()
    expect((await service.call('GET', `/v2/voice-agents/${agent.id}`, { key: other.key })).statusCode).toBe(404)
    expect((await service.call('PATCH', `/v2/voice-agents/${agent.id}`, { key: other.key, body: { name: 'x' } })).statusCode).toBe(404)
    expect((await service.call('GET', '/v2/voice-agents/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404)
    const missingNumber = await service.call('POST', '/v2/voice-agents', {
      body: { ...createBody(), phoneNumber: { type: 'TELEPHONY', id: '00000000-0000-4000-8000-000000000000' } },
    })
    expect(missingNumber.statusCode).toBe(404)
    expect((await service.call('GET', '/v2/voice-agents', { key: other.key })).json().data.total).toBe(0)
    expect((await service.call('GET', '/v2/voice-agents', { key: null })).statusCode).toBe(401)
    const many = await Promise.all(
      Array.from({ length: 10 }, (_, index) => service.call('POST', '/v2/voice-agents', { body: createBody(`Agent ${index}`) })),
    )
    expect(many.map((answer) => answer.statusCode)).toEqual(many.map(() => 200))
    expect((await service.call('GET', '/v2/voice-agents?take=100')).json().data.total).toBe(11)
  })
})

describe('/v2/jobs', () => {
  it('lists jobs in pages, creates a transcription answering { jobId }, and checks apiKey and projectId', async () => {
    const service = await startTestService()
    for (let index = 0; index < 5; index += 1) await seedJob(service.runtime, { title: `Recording ${index}`, totalCost: index })
    const page = V2JobListEnvelopeSchema.parse(
      (await service.call('GET', '/v2/jobs?page=2&perPage=2&sortBy=totalCost&orderBy=ASC')).json(),
    ).data
    expect(page).toMatchObject({ page: 2, totalCount: 5, totalPages: 3 })
    expect(page.jobs.map((job) => job.totalCost)).toEqual([2, 3])
    const apiKey = await keyIdOf(service)
    const created = await service.call('POST', '/v2/jobs', {
      body: {
        type: 'TRANSCRIPTION',
        apiKey,
        mediaUrl: 'https://example.com/audio.mp3',
        title: 'Meeting',
        language: 'ar',
        processingType: 'async',
      },
    })
    expect(created.statusCode, created.body).toBe(200)
    const jobId = created.json().data.jobId as string
    const job = (await service.call('GET', `/v1/jobs?jobId=${jobId}`)).json().data
    expect(job).toMatchObject({ type: 'TRANSCRIPTION', title: 'Meeting', fromLng: 'ar', mediaUrl: expect.any(String) })
    const listed = (await service.call('GET', '/v2/jobs?type=TRANSCRIPTION&perPage=100')).json().data.jobs
    expect(listed.find((entry: { id: string }) => entry.id === jobId)).toMatchObject({
      mediaType: 'URL',
      mediaUrl: 'https://example.com/audio.mp3',
    })

    const other = await service.otherProject()
    const foreignKey = await service.call('POST', '/v2/jobs', {
      key: other.key,
      body: { type: 'TRANSCRIPTION', apiKey, mediaUrl: 'https://example.com/a.mp3', title: 'x', language: 'en' },
    })
    expect(foreignKey.statusCode).toBe(403)
    expect((await service.call('GET', `/v2/jobs?projectId=${service.runtime.bootstrap.projectId}`, { key: other.key })).statusCode).toBe(
      403,
    )
    expect((await service.call('GET', '/v2/jobs', { key: other.key })).json().data.totalCount).toBe(0)
  })

  const invalid: [string, string, Record<string, unknown>, string][] = [
    ['sync processing', '/v2/jobs', { processingType: 'sync' }, 'body.processingType'],
    ['a type other than TRANSCRIPTION', '/v2/jobs', { type: 'TTS' }, 'body.type'],
    ['an ftp media URL', '/v2/jobs', { mediaUrl: 'ftp://example.com/a.mp3' }, 'body.mediaUrl'],
    ['no aiParts', '/v2/jobs/generate-transcription-ai-content', { type: undefined, processingType: undefined }, 'body.aiParts'],
    [
      'two aiParts',
      '/v2/jobs/generate-transcription-ai-content',
      { type: undefined, processingType: undefined, aiParts: ['summary', 'faq'] },
      'body.aiParts',
    ],
    [
      'an unknown part',
      '/v2/jobs/generate-transcription-ai-content',
      { type: undefined, processingType: undefined, aiParts: ['poem'] },
      'body.aiParts.0',
    ],
  ]
  it.each(invalid)('refuses %s with a 400 naming the field', async (_label, url, change, path) => {
    const service = await startTestService()
    const body = {
      type: 'TRANSCRIPTION',
      apiKey: await keyIdOf(service),
      mediaUrl: 'https://example.com/a.mp3',
      title: 'T',
      language: 'en',
      processingType: 'async',
      ...change,
    }
    const response = await service.call('POST', url, { body })
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json().error.details.map((detail: { path: string }) => detail.path)).toContain(path)
  })

  it('refuses a bad page or sort with a 400', async () => {
    const service = await startTestService()
    for (const [query, path] of [
      ['?page=0', 'query.page'],
      ['?perPage=101', 'query.perPage'],
      ['?sortBy=usageTime', 'query.sortBy'],
      ['?orderBy=sideways', 'query.orderBy'],
      ['?status=DONE', 'query.status'],
    ]) {
      const response = await service.call('GET', `/v2/jobs${query}`)
      expect(response.statusCode, query).toBe(400)
      expect(response.json().error.details.map((detail: { path: string }) => detail.path)).toContain(path)
    }
  })
})

describe('POST /v2/jobs/generate-transcription-ai-content', () => {
  it('transcribes, then makes the AI-content part from the transcript, read by the answered jobId', async () => {
    const { startSpeechServerDouble } = await import('../../helpers/speech-server-double')
    const { speechWav } = await import('../../helpers/speech-media')
    const { STT_SETTING_KEY } = await import('../../../src/service/settings/stt-settings')
    const { sourceMediaName } = await import('../../../src/service/ops/media-names')
    const { waitForJobEnd } = await import('../../helpers/test-service')
    const sentence = 'We agreed to ship the new billing page on Friday and to review the numbers next week.'
    const speech = await startSpeechServerDouble({
      answer: (sent) => ({
        body: {
          text: sentence,
          language: 'english',
          duration: sent.seconds,
          segments: [{ id: 0, start: 0, end: sent.seconds, text: sentence }],
        },
      }),
    })
    const service = await startTestService()
    await service.runtime.store.settings.set(STT_SETTING_KEY, { engine: 'openai-compatible', baseUrl: speech.url, model: 'whisper-1' })
    const { wav } = await speechWav([0.2, sentence, 0.2])
    const name = sourceMediaName('meeting.wav')
    await service.runtime.context.media.put(name, wav)
    const answer = await service.call('POST', '/v2/jobs/generate-transcription-ai-content', {
      body: {
        apiKey: await keyIdOf(service),
        mediaUrl: `${service.runtime.context.baseUrl()}/media/${name}`,
        title: 'Weekly meeting',
        language: 'en',
        aiParts: ['summary'],
        aiContentTitle: 'Meeting summary',
        aiContentLanguage: 'en',
        aiContentDate: '2025-01-01T00:00:00.000Z',
        aiContentText: 'Focus on action items.',
      },
    })
    expect(answer.statusCode, answer.body).toBe(200)
    const jobId = answer.json().data.jobId as string
    expect((await waitForJobEnd(service, jobId)).status).toBe('COMPLETED')
    const deadline = Date.now() + 30_000
    let ai = await service.call('GET', `/v1/jobs/ai-content?jobId=${jobId}`)
    while ((ai.statusCode !== 200 || ai.json().data.status === 'PENDING') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      ai = await service.call('GET', `/v1/jobs/ai-content?jobId=${jobId}`)
    }
    expect(ai.statusCode, ai.body).toBe(200)
    expect(ai.json().data).toMatchObject({ status: 'COMPLETED', title: 'Meeting summary', relevantJobId: jobId })
    expect(ai.json().data.jobResponse.summary.length).toBeGreaterThan(0)
    expect(ai.json().data.jobResponse).not.toHaveProperty('faq')
  })
})
