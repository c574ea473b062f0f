import BetterSqlite3 from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { getVoiceAgent } from '../../../src/service/ops/voice-agents'
import { OTHER_WRITERS_CHECK_MS } from '../../../src/store/sqlite/store'
import {
  VoiceAgentEnvelopeSchema,
  VoiceAgentListEnvelopeSchema,
  VoiceAgentTemplatesEnvelopeSchema,
} from '../../../src/shared/api/voice-agents'
import { VOICES } from '../../../src/shared/voices'
import { startTestService, type TestService } from '../../helpers/test-service'
import { onPostgres } from '../../helpers/test-engine'
import { testSqlOf } from '../../helpers/test-sql'

async function firstTemplate(service: TestService, lang: 'en' | 'ar' = 'en') {
  const response = await service.call('GET', '/v1/voice-agents/templates')
  const templates = VoiceAgentTemplatesEnvelopeSchema.parse(response.json()).data
  return templates.find((template) => template.lang === lang)!
}

async function createAgent(service: TestService, body: Record<string, unknown> = { agentName: 'Front desk' }) {
  const response = await service.call('POST', '/v1/voice-agents', { body })
  expect(response.statusCode, response.body).toBe(200)
  return VoiceAgentEnvelopeSchema.parse(response.json()).data
}

describe('GET /v1/voice-agents/templates', () => {
  it('lists at least 8 templates in Arabic and English, without the fields the seed leaves out', async () => {
    const service = await startTestService()
    const response = await service.call('GET', '/v1/voice-agents/templates')
    expect(response.statusCode).toBe(200)
    const body = VoiceAgentTemplatesEnvelopeSchema.parse(response.json())
    expect(body).toMatchObject({ success: true, message: 'Success' })
    expect(body.data.length).toBeGreaterThanOrEqual(8)
    expect(new Set(body.data.map((template) => template.lang))).toEqual(new Set(['ar', 'en']))
    for (const template of response.json().data) {
      expect(template).toMatchObject({ isTemplate: true, projectId: null, apiKeyId: null })
      expect(template.voice).toBe(VOICES.find((voice) => voice.id === template.voiceRecordId)!.name)
      for (const absent of ['outcomeResponseShape', 'voiceRecord', 'webhookUrl', 'webhookAuth', 'params'])
        expect(template).not.toHaveProperty(absent)
      expect(template.greetingMessage).toMatch(/\{\{\w+\}\}/)
      expect(template.outcome.length).toBeGreaterThan(0)
    }
  })
})

describe('POST /v1/voice-agents/clone', () => {
  it('clones a template with every configurable property, its shape and params, into the caller project', async () => {
    const service = await startTestService()
    const template = await firstTemplate(service, 'ar')
    const response = await service.call('POST', `/v1/voice-agents/clone?voiceAgentId=${template.id}`, { body: { agentName: 'عيادتي' } })
    expect(response.statusCode, response.body).toBe(200)
    const agent = VoiceAgentEnvelopeSchema.parse(response.json()).data
    expect(agent.id).not.toBe(template.id)
    expect(agent).toMatchObject({
      agentName: 'عيادتي',
      greetingMessage: template.greetingMessage,
      description: template.description,
      preamble: template.preamble,
      lang: 'ar',
      pokeMessages: template.pokeMessages,
      realTime: template.realTime,
      silenceThreshold: template.silenceThreshold,
      interrupt: template.interrupt,
      outcome: template.outcome,
      voiceRecordId: template.voiceRecordId,
      webhookUrl: null,
      webhookAuth: null,
    })
    expect(agent.outcomeResponseShape).toMatchObject({ type: 'object' })
    expect(Object.keys(agent.params).length).toBeGreaterThan(0)
    expect(agent.projectId).toBe(service.runtime.bootstrap.projectId)
    expect(response.json().data).not.toHaveProperty('isTemplate')
  })

  it('clones one of the caller agents, webhook included, and names the copy when no name is given', async () => {
    const service = await startTestService()
    const source = await createAgent(service, {
      agentName: 'Original',
      webhookUrl: 'https://example.test/hook',
      webhookAuth: { authKey: 'Bearer', authSecret: 'secret-value-0001' },
      params: { companyName: 'Acme' },
    })
    const response = await service.call('POST', `/v1/voice-agents/clone?voiceAgentId=${source.id}`)
    expect(response.statusCode, response.body).toBe(200)
    const copy = response.json().data
    expect(copy).toMatchObject({ agentName: 'Original (copy)', webhookUrl: 'https://example.test/hook', params: { companyName: 'Acme' } })
    expect(copy.webhookAuth).toEqual({ authKey: 'Bearer', authSecret: '****0001' })
    expect(copy.createdAt >= source.createdAt).toBe(true)
  })

  it('answers 404 for an unknown source, 400 without the query and for a bad name', async () => {
    const service = await startTestService()
    const template = await firstTemplate(service)
    const unknown = await service.call('POST', '/v1/voice-agents/clone?voiceAgentId=9d6a1707-b717-4e39-b6d2-4bfd68aee57d', {
      body: { agentName: 'x' },
    })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error.code).toBe('NOT_FOUND')
    const missing = await service.call('POST', '/v1/voice-agents/clone', { body: { agentName: 'x' } })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().error.details[0].path).toBe('query.voiceAgentId')
    const tooLong = await service.call('POST', `/v1/voice-agents/clone?voiceAgentId=${template.id}`, {
      body: { agentName: 'x'.repeat(101) },
    })
    expect(tooLong.statusCode).toBe(400)
    expect(tooLong.json().error.details[0].path).toBe('body.agentName')
  })
})

describe('POST, GET, list and DELETE /v1/voice-agents', () => {
  it('creates an agent with documented defaults and reads it back', async () => {
    const service = await startTestService()
    const created = await createAgent(service, { agentName: 'Ayla', lang: 'ar' })
    expect(created).toMatchObject({
      agentName: 'Ayla',
      description: '',
      lang: 'ar',
      realTime: true,
      interrupt: true,
      silenceThreshold: 8,
      outcomeResponseShape: null,
      params: {},
      apiKeyId: expect.any(String),
    })
    expect(created.voiceRecord.lang).toBe('ar')
    expect(created.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    const read = await service.call('GET', `/v1/voice-agents/${created.id}`)
    expect(read.statusCode).toBe(200)
    expect(read.json().data).toEqual(created)
    expect(read.json().data).not.toHaveProperty('tools')
    expect(read.json().data).not.toHaveProperty('voiceId')
  })

  it('lists newest first with 1-based pages, a total, a filtered count and search', async () => {
    let tick = Date.parse('2026-01-01T00:00:00.000Z')
    const service = await startTestService({ now: () => new Date((tick += 1000)) })
    for (const name of ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']) await createAgent(service, { agentName: name })
    const page1 = VoiceAgentListEnvelopeSchema.parse((await service.call('GET', '/v1/voice-agents?take=2')).json()).data
    const page2 = VoiceAgentListEnvelopeSchema.parse((await service.call('GET', '/v1/voice-agents?take=2&skip=2')).json()).data
    const page3 = VoiceAgentListEnvelopeSchema.parse((await service.call('GET', '/v1/voice-agents?take=2&skip=3')).json()).data
    expect([...page1.agents, ...page2.agents, ...page3.agents].map((agent) => agent.agentName)).toEqual([
      'Echo',
      'Delta',
      'Charlie',
      'Bravo',
      'Alpha',
    ])
    expect(page1).toMatchObject({ total: 5, filtered: 5 })
    const searched = (await service.call('GET', '/v1/voice-agents?search=ALP')).json().data
    expect(searched).toMatchObject({ total: 5, filtered: 1 })
    expect(searched.agents[0].agentName).toBe('Alpha')
    const wildcard = (await service.call('GET', '/v1/voice-agents?search=%25')).json().data
    expect(wildcard.filtered).toBe(0)
  })

  it('deletes an agent: it is gone, and its numbers stay but are unassigned', async () => {
    const service = await startTestService()
    const agent = await createAgent(service)
    await service.call('POST', '/v1/voice-agents/phone-number', {
      body: { type: 'TELEPHONY', phoneNumber: '+14155550100', label: 'Main', providerAccountSid: 'AC1', providerAuthToken: 'token-1' },
    })
    const assigned = await service.call('POST', '/v1/voice-agents/assign-number', {
      body: { voiceAgentId: agent.id, phoneNumber: '+14155550100' },
    })
    expect(assigned.json().data.voiceAgentId).toBe(agent.id)
    const deleted = await service.call('DELETE', `/v1/voice-agents/${agent.id}`)
    expect(deleted.statusCode).toBe(200)
    expect(deleted.json().data).toEqual({ id: agent.id, deleted: true })
    expect((await service.call('GET', `/v1/voice-agents/${agent.id}`)).statusCode).toBe(404)
    expect((await service.call('DELETE', `/v1/voice-agents/${agent.id}`)).statusCode).toBe(404)
    const number = (await service.call('GET', `/v1/voice-agents/phone-number?pid=${assigned.json().data.id}`)).json().data
    expect(number).toMatchObject({ voiceAgentId: null, voiceAgent: null })
  })

  it('answers a cached agent at once (no promise), many at once, and never after it changed or went', async () => {
    const service = await startTestService()
    const agent = await createAgent(service)
    const url = `/v1/voice-agents/${agent.id}`
    const first = await service.call('GET', url)
    // The rest come from the read cache, by the handler's synchronous path: the same bytes and type.
    const repeats = await Promise.all(Array.from({ length: 40 }, () => service.call('GET', url)))
    for (const repeat of repeats) {
      expect(repeat.statusCode).toBe(200)
      expect(repeat.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(repeat.body).toBe(first.body)
    }
    await service.call('PATCH', url, { body: { agentName: 'Renamed once cached' } })
    expect((await service.call('GET', url)).json().data.agentName).toBe('Renamed once cached')
    expect((await service.call('GET', url)).json().data.agentName).toBe('Renamed once cached')
    await service.call('DELETE', url)
    expect((await service.call('GET', url)).statusCode).toBe(404)
    // An unknown id is not answered from the cache either.
    expect((await service.call('GET', `/v1/voice-agents/${agent.id}x`)).statusCode).toBe(404)
  })

  it('serves GET from its read cache but never stale: not after a PATCH, nor after another process wrote the file', async () => {
    const service = await startTestService()
    const agent = await createAgent(service)
    const url = `/v1/voice-agents/${agent.id}`
    expect((await service.call('GET', url)).json().data.agentName).toBe('Front desk')
    await service.call('PATCH', url, { body: { agentName: 'Renamed' } })
    expect((await service.call('GET', url)).json().data.agentName).toBe('Renamed')

    if (onPostgres) {
      // Another connection stands for another instance: its commit reaches the cache by NOTIFY.
      const other = await testSqlOf(service.runtime)
      await other.run("UPDATE voice_agents SET agent_name = 'Written elsewhere' WHERE id = ?", agent.id)
      await other.close()
    } else {
      // A second connection to the same file stands for a second voicedesk process.
      const other = new BetterSqlite3(join(service.dataDir, 'voicedesk.db'))
      other.prepare("UPDATE voice_agents SET agent_name = 'Written elsewhere' WHERE id = ?").run(agent.id)
      other.close()
    }
    // Other writers are noticed within OTHER_WRITERS_CHECK_MS on SQLite, and as soon as the notification arrives on PostgreSQL.
    await vi.waitFor(async () => expect((await service.call('GET', url)).json().data.agentName).toBe('Written elsewhere'), {
      timeout: 2_000,
      interval: OTHER_WRITERS_CHECK_MS * 5,
    })
    const read = (await service.call('GET', url)).json().data
    const caller = { projectId: agent.projectId, apiKeyId: agent.apiKeyId, userId: service.runtime.bootstrap.userId }
    expect(read).toEqual(await getVoiceAgent(service.runtime.context, caller, agent.id))
  })

  it('answers 404 for unknown and malformed ids', async () => {
    const service = await startTestService()
    for (const id of ['9d6a1707-b717-4e39-b6d2-4bfd68aee57d', 'not-a-uuid']) {
      const response = await service.call('GET', `/v1/voice-agents/${id}`)
      expect(response.statusCode).toBe(404)
      expect(response.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } })
    }
  })
})

describe('PATCH /v1/voice-agents/{id}', () => {
  it('updates only the fields sent, and keeps write-only fields out of the answer', async () => {
    let tick = Date.parse('2026-01-01T00:00:00.000Z')
    const service = await startTestService({ now: () => new Date((tick += 1000)) })
    const agent = await createAgent(service)
    const voice = VOICES.find((candidate) => candidate.name === 'Omar')!
    const response = await service.call('PATCH', `/v1/voice-agents/${agent.id}`, {
      body: {
        greetingMessage: 'Hi {{customerName}}',
        lang: 'ar',
        pokeMessages: ['Hello?'],
        silenceThreshold: 3600,
        interrupt: false,
        voiceId: voice.id,
        tools: { smartCallEnd: true },
        params: { customerName: 'Sara' },
        outcome: 'Summarise the call',
        outcomeResponseShape: {
          type: 'object',
          properties: { booked: { type: 'boolean' }, slots: { type: 'array', items: { type: 'string', enum: ['am', 'pm'] } } },
          required: ['booked'],
        },
      },
    })
    expect(response.statusCode, response.body).toBe(200)
    const updated = response.json().data
    expect(updated).toMatchObject({
      agentName: 'Front desk',
      greetingMessage: 'Hi {{customerName}}',
      lang: 'ar',
      silenceThreshold: 3600,
      interrupt: false,
      voiceRecordId: voice.id,
      voiceRecord: { id: voice.id, name: 'Omar', lang: 'ar', gender: 'male' },
      params: { customerName: 'Sara' },
    })
    expect(updated.createdAt).toBe(agent.createdAt)
    expect(updated.updatedAt > agent.updatedAt).toBe(true)
    expect(updated).not.toHaveProperty('tools')
    const stored = await service.runtime.store.voiceAgents.findInProject(agent.id, agent.projectId)
    expect(stored!.tools).toEqual({ genderDetection: false, smartCallEnd: true })
  })

  it('stores a non-string preamble as its JSON text', async () => {
    const service = await startTestService()
    const agent = await createAgent(service)
    const response = await service.call('PATCH', `/v1/voice-agents/${agent.id}`, {
      body: { preamble: { role: 'support', rules: ['be brief'] } },
    })
    expect(response.json().data.preamble).toBe('{"role":"support","rules":["be brief"]}')
  })

  it('never returns the webhook secret, stores it encrypted, and clears webhook settings with null', async () => {
    const service = await startTestService()
    const agent = await createAgent(service)
    const secret = 'whsec-very-secret-0042'
    const response = await service.call('PATCH', `/v1/voice-agents/${agent.id}`, {
      body: { webhookUrl: 'http://127.0.0.1:9000/hook', webhookAuth: { authKey: 'Bearer', authSecret: secret } },
    })
    expect(response.body).not.toContain(secret)
    expect(response.json().data.webhookAuth).toEqual({ authKey: 'Bearer', authSecret: '****0042' })
    const sql = await testSqlOf(service.runtime)
    const [raw] = await sql.all<{ webhook_auth_secret: string }>('SELECT webhook_auth_secret FROM voice_agents WHERE id = ?', agent.id)
    await sql.close()
    expect(raw!.webhook_auth_secret).not.toContain(secret)
    const cleared = await service.call('PATCH', `/v1/voice-agents/${agent.id}`, { body: { webhookUrl: null, webhookAuth: null } })
    expect(cleared.json().data).toMatchObject({ webhookUrl: null, webhookAuth: null })
  })

  const invalidBodies: [string, Record<string, unknown>, string][] = [
    ['description is not accepted by update', { description: 'x' }, 'body.description'],
    ['an unknown field', { colour: 'red' }, 'body.colour'],
    ['lang outside ar, en', { lang: 'fr' }, 'body.lang'],
    ['silenceThreshold below 1', { silenceThreshold: 0 }, 'body.silenceThreshold'],
    ['silenceThreshold not an integer', { silenceThreshold: 2.5 }, 'body.silenceThreshold'],
    ['realTime as a string', { realTime: 'yes' }, 'body.realTime'],
    ['pokeMessages with a number', { pokeMessages: ['hi', 3] }, 'body.pokeMessages.1'],
    ['a voiceId outside the catalogue', { voiceId: '9d6a1707-b717-4e39-b6d2-4bfd68aee57d' }, 'body.voiceId'],
    ['a webhookUrl that is not http(s)', { webhookUrl: 'ftp://example.test/x' }, 'body.webhookUrl'],
    ['webhookAuth without its secret', { webhookAuth: { authKey: 'Bearer' } }, 'body.webhookAuth.authSecret'],
    ['a params key that is not a placeholder name', { params: { 'first name': 'x' } }, 'body.params.first name'],
    ['a params value that is not a string', { params: { name: 1 } }, 'body.params.name'],
    ['tools with an unknown switch', { tools: { recordCalls: true } }, 'body.tools.recordCalls'],
    ['a shape with an unknown type', { outcomeResponseShape: { type: 'date' } }, 'body.outcomeResponseShape.type'],
    [
      'a shape requiring a missing property',
      { outcomeResponseShape: { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] } },
      'body.outcomeResponseShape.required.0',
    ],
    [
      'a nested shape with an unknown key',
      { outcomeResponseShape: { type: 'object', properties: { a: { type: 'string', format: 'email' } } } },
      'body.outcomeResponseShape.properties.a.format',
    ],
    ['items on a string', { outcomeResponseShape: { type: 'string', items: { type: 'string' } } }, 'body.outcomeResponseShape.items'],
  ]
  it.each(invalidBodies)('refuses %s with a 400 naming the path, and changes nothing', async (_label, body, path) => {
    const service = await startTestService()
    const agent = await createAgent(service)
    const response = await service.call('PATCH', `/v1/voice-agents/${agent.id}`, { body: { agentName: 'Renamed', ...body } })
    expect(response.statusCode, response.body).toBe(400)
    const error = response.json()
    expect(error).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } })
    expect(error.message).toContain(path.split('.')[1])
    expect(error.error.details.map((detail: { path: string }) => detail.path)).toContain(path)
    expect((await service.call('GET', `/v1/voice-agents/${agent.id}`)).json().data).toEqual(agent)
  })

  it('refuses a shape nested deeper than 16 levels', async () => {
    const service = await startTestService()
    const agent = await createAgent(service)
    let shape: Record<string, unknown> = { type: 'string' }
    for (let level = 0; level < 16; level += 1) shape = { type: 'array', items: shape }
    const response = await service.call('PATCH', `/v1/voice-agents/${agent.id}`, { body: { outcomeResponseShape: shape } })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.details[0]).toEqual({
      path: 'body.outcomeResponseShape',
      message: 'Shape is nested deeper than 16 levels',
    })
  })

  it('answers 404 for an agent of no project', async () => {
    const service = await startTestService()
    const response = await service.call('PATCH', '/v1/voice-agents/9d6a1707-b717-4e39-b6d2-4bfd68aee57d', { body: { agentName: 'x' } })
    expect(response.statusCode).toBe(404)
  })
})
