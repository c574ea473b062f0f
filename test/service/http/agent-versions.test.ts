import { afterEach, describe, expect, it } from 'vitest'
import { invokeOperation } from '../../../src/service/operator/invoke-operation'
import { AgentVersionEnvelopeSchema, AgentVersionListEnvelopeSchema } from '../../../src/shared/api/agent-versions'
import { ConversationEnvelopeSchema } from '../../../src/shared/api/conversations'
import { VoiceAgentEnvelopeSchema, VoiceAgentTemplatesEnvelopeSchema, type VoiceAgent } from '../../../src/shared/api/voice-agents'
import { SdkCallClient } from '../../helpers/sdk-call-client'
import { startTestService, type TestService } from '../../helpers/test-service'

/*
 * Agent versions over /v1 (docs/api.md, "Agent versions"): every change makes a numbered
 * version, read whole and restored as a new one. Runs on SQLite and (project postgres) PostgreSQL.
 */

async function createAgent(service: TestService, body: Record<string, unknown> = { agentName: 'Front desk' }): Promise<VoiceAgent> {
  const response = await service.call('POST', '/v1/voice-agents', { body })
  expect(response.statusCode, response.body).toBe(200)
  return VoiceAgentEnvelopeSchema.parse(response.json()).data
}

async function patch(service: TestService, id: string, body: Record<string, unknown>): Promise<VoiceAgent> {
  const response = await service.call('PATCH', `/v1/voice-agents/${id}`, { body })
  expect(response.statusCode, response.body).toBe(200)
  return VoiceAgentEnvelopeSchema.parse(response.json()).data
}

async function versions(service: TestService, id: string, query = 'take=100') {
  const response = await service.call('GET', `/v1/voice-agents/${id}/versions?${query}`)
  expect(response.statusCode, response.body).toBe(200)
  return AgentVersionListEnvelopeSchema.parse(response.json()).data
}

async function version(service: TestService, id: string, n: number) {
  const response = await service.call('GET', `/v1/voice-agents/${id}/versions/${n}`)
  expect(response.statusCode, response.body).toBe(200)
  return AgentVersionEnvelopeSchema.parse(response.json()).data
}

async function restore(service: TestService, id: string, n: number): Promise<VoiceAgent> {
  const response = await service.call('POST', `/v1/voice-agents/${id}/versions/${n}/restore`)
  expect(response.statusCode, response.body).toBe(200)
  return VoiceAgentEnvelopeSchema.parse(response.json()).data
}

const clients: SdkCallClient[] = []
afterEach(() => {
  for (const client of clients.splice(0)) client.close()
})

describe('agent versions', () => {
  it('numbers every change (create, PATCH, the app’s save, clone), reads each whole and restores one as a new version', async () => {
    let tick = Date.parse('2026-01-01T00:00:00.000Z')
    const service = await startTestService({ now: () => new Date((tick += 1000)) })
    const created = await createAgent(service, { agentName: 'Front desk', greetingMessage: 'Hello there' })
    const changed = await patch(service, created.id, { agentName: 'Reception', greetingMessage: 'Welcome', silenceThreshold: 20 })
    const ui = await invokeOperation(
      service.runtime.operatorHandlers('desktop'),
      'agents.update',
      { id: created.id, changes: { preamble: 'Be brief.' } },
      (error) => {
        throw error
      },
    )
    expect(ui.ok).toBe(true)

    const listed = await versions(service, created.id)
    expect(listed.versions.map(({ version: n, source }) => `${n}:${source}`)).toEqual(['3:ui', '2:update', '1:create'])
    expect([listed.total, listed.filtered]).toEqual([3, 3])
    expect(listed.versions[2]?.createdAt).toBe(created.createdAt)
    // Paged like every list: 1-based pages of `take`.
    expect((await versions(service, created.id, 'take=2&skip=2')).versions.map((v) => v.version)).toEqual([1])

    expect(await version(service, created.id, 1)).toEqual({ version: 1, source: 'create', createdAt: created.createdAt, agent: created })
    expect((await version(service, created.id, 2)).agent).toEqual(changed)

    const restored = await restore(service, created.id, 1)
    expect(restored).toEqual({ ...created, updatedAt: restored.updatedAt })
    expect(restored.updatedAt > changed.updatedAt).toBe(true)
    const current = VoiceAgentEnvelopeSchema.parse((await service.call('GET', `/v1/voice-agents/${created.id}`)).json()).data
    expect(current).toEqual(restored)
    expect(await version(service, created.id, 4)).toMatchObject({ version: 4, source: 'restore:1', agent: restored })

    const template = VoiceAgentTemplatesEnvelopeSchema.parse((await service.call('GET', '/v1/voice-agents/templates')).json()).data[0]
    const clone = VoiceAgentEnvelopeSchema.parse(
      (await service.call('POST', `/v1/voice-agents/clone?voiceAgentId=${template?.id}`, { body: { agentName: 'Mine' } })).json(),
    ).data
    expect((await versions(service, clone.id)).versions.map((v) => v.source)).toEqual([`clone:${template?.id}`])
    const copy = VoiceAgentEnvelopeSchema.parse(
      (await service.call('POST', `/v1/voice-agents/clone?voiceAgentId=${created.id}`, { body: {} })).json(),
    ).data
    expect(await version(service, copy.id, 1)).toMatchObject({ source: `clone:${created.id}`, agent: copy })
  })

  it('answers the contract’s errors: bad numbers 400, unknown or foreign agents and versions 404, deleted agents’ versions gone', async () => {
    const service = await startTestService()
    const first = await createAgent(service, { agentName: 'First' })
    const second = await createAgent(service, { agentName: 'Second' })
    await patch(service, first.id, { agentName: 'First again' })

    for (const bad of ['0', '-1', '1.5', '01', 'abc', '1e3', '%20', '0x10', '99999999999', '2147483648']) {
      for (const [method, url] of [
        ['GET', `/v1/voice-agents/${first.id}/versions/${bad}`],
        ['POST', `/v1/voice-agents/${first.id}/versions/${bad}/restore`],
      ] as const) {
        const response = await service.call(method, url)
        expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(400)
        expect(response.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } })
        expect(response.json().error.details[0].path).toMatch(/version/)
      }
    }
    for (const [method, url] of [
      ['GET', `/v1/voice-agents/${first.id}/versions/999999`],
      ['POST', `/v1/voice-agents/${first.id}/versions/999999/restore`],
      ['GET', `/v1/voice-agents/${first.id}/versions/2147483647`],
      // The second agent has one version: the first's version 2 is not its to restore.
      ['POST', `/v1/voice-agents/${second.id}/versions/2/restore`],
      ['GET', '/v1/voice-agents/9d6a1707-b717-4e39-b6d2-4bfd68aee57d/versions'],
      ['GET', '/v1/voice-agents/not-an-agent/versions/1'],
      ['POST', '/v1/voice-agents/not-an-agent/versions/1/restore'],
    ] as const) {
      const response = await service.call(method, url)
      expect(response.statusCode, `${method} ${url}`).toBe(404)
      expect(response.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } })
    }
    expect((await versions(service, second.id)).total).toBe(1)

    // Another project's key sees none of it, and restores nothing.
    const other = await service.otherProject()
    for (const [method, url] of [
      ['GET', `/v1/voice-agents/${first.id}/versions`],
      ['GET', `/v1/voice-agents/${first.id}/versions/1`],
      ['POST', `/v1/voice-agents/${first.id}/versions/1/restore`],
    ] as const) {
      expect((await service.call(method, url, { key: other.key })).statusCode).toBe(404)
    }
    expect((await versions(service, first.id)).total).toBe(2)

    // Deleting an agent deletes its versions.
    expect((await service.call('DELETE', `/v1/voice-agents/${first.id}`)).statusCode).toBe(200)
    expect((await service.call('GET', `/v1/voice-agents/${first.id}/versions`)).statusCode).toBe(404)
    expect((await service.call('GET', `/v1/voice-agents/${first.id}/versions/1`)).statusCode).toBe(404)
  })

  it('gives PATCHes and a restore made at once distinct consecutive numbers, each holding the state it wrote', async () => {
    const service = await startTestService()
    const agent = await createAgent(service, { agentName: 'Busy' })
    const answers = await Promise.all([
      ...Array.from({ length: 16 }, (_, index) =>
        service.call('PATCH', `/v1/voice-agents/${agent.id}`, { body: { agentName: `change ${index}` } }),
      ),
      service.call('POST', `/v1/voice-agents/${agent.id}/versions/1/restore`),
    ])
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200)
    const listed = await versions(service, agent.id)
    expect(listed.versions.map((v) => v.version)).toEqual(Array.from({ length: 18 }, (_, index) => 18 - index))
    expect(listed.versions.filter((v) => v.source === 'restore:1')).toHaveLength(1)
    expect(listed.versions.filter((v) => v.source === 'update')).toHaveLength(16)
    const written = await Promise.all(
      listed.versions.filter((v) => v.source === 'update').map((v) => version(service, agent.id, v.version)),
    )
    expect(new Set(written.map((v) => v.agent.agentName))).toEqual(new Set(Array.from({ length: 16 }, (_, index) => `change ${index}`)))
    // Read-modify-write under the agent's lock: changes of different fields made at once all stay.
    await Promise.all([
      patch(service, agent.id, { greetingMessage: 'Greeting at once' }),
      patch(service, agent.id, { silenceThreshold: 42 }),
      patch(service, agent.id, { pokeMessages: ['Poke at once'] }),
    ])
    // The newest version is the agent as it now is.
    const now = VoiceAgentEnvelopeSchema.parse((await service.call('GET', `/v1/voice-agents/${agent.id}`)).json()).data
    expect(now).toMatchObject({ greetingMessage: 'Greeting at once', silenceThreshold: 42, pokeMessages: ['Poke at once'] })
    expect((await version(service, agent.id, 21)).agent).toEqual(now)
  })

  it('comes back with a snapshot: the versions as they were, and the counts name them', async () => {
    const service = await startTestService()
    const agent = await createAgent(service, { agentName: 'Snapshot desk' })
    await patch(service, agent.id, { agentName: 'Snapshot desk 2' })
    const before = await versions(service, agent.id)
    const taken = await service.call('POST', '/_voicedesk/snapshots', { body: { name: 'with-versions' } })
    expect(taken.statusCode, taken.body).toBe(201)
    expect(taken.json().data.counts).toMatchObject({ agents: 1, agentVersions: 2 })

    await patch(service, agent.id, { agentName: 'After the snapshot' })
    await restore(service, agent.id, 1)
    expect((await versions(service, agent.id)).total).toBe(4)

    const restored = await service.call('POST', '/_voicedesk/snapshots/with-versions/restore')
    expect(restored.statusCode, restored.body).toBe(200)
    expect(await versions(service, agent.id)).toEqual(before)
    expect((await version(service, agent.id, 2)).agent.agentName).toBe('Snapshot desk 2')
    // Numbering goes on from the restored history.
    await patch(service, agent.id, { agentName: 'Next' })
    expect((await versions(service, agent.id)).versions[0]).toMatchObject({ version: 3, source: 'update' })
  })

  it('records on a conversation the agent version it was made against', async () => {
    const service = await startTestService()
    const agent = await createAgent(service, { agentName: 'Caller desk' })
    await patch(service, agent.id, { greetingMessage: 'Hi!' })
    const init = await service.call('POST', '/v1/voice-agents/conversation-init', { body: { voiceAgentId: agent.id } })
    expect(init.statusCode, init.body).toBe(200)
    const { jobId } = init.json().data as { jobId: string }
    await patch(service, agent.id, { greetingMessage: 'Hello again' })
    const conversation = ConversationEnvelopeSchema.parse((await service.call('GET', `/v1/voice-agents/conversation/${jobId}`)).json()).data
    expect(conversation.agentVersion).toBe(2)
  })

  it('records on a live call the version it ran against: the newest when its socket connected', async () => {
    const service = await startTestService({ port: 0 })
    const baseUrl = (await service.runtime.start()).replace('localhost', '127.0.0.1')
    const agent = await createAgent(service, { agentName: 'Live desk', silenceThreshold: 60 })
    const init = await service.call('POST', '/v1/voice-agents/conversation-init', { body: { voiceAgentId: agent.id } })
    const { jobId } = init.json().data as { jobId: string }
    const read = async () =>
      ConversationEnvelopeSchema.parse((await service.call('GET', `/v1/voice-agents/conversation/${jobId}`)).json()).data
    expect((await read()).agentVersion).toBe(1)
    await patch(service, agent.id, { greetingMessage: 'Changed before the call connected.' })
    // A real socket on 127.0.0.1, speaking the web SDK's frames.
    const client = await SdkCallClient.connect(baseUrl, jobId, service.key)
    clients.push(client)
    await client.nth('info', 1, 15_000)
    const started = await read()
    expect(started.status).toBe('IN_PROGRESS')
    expect(started.agentVersion).toBe(2)
    await patch(service, agent.id, { greetingMessage: 'Changed during the call.' })
    expect((await read()).agentVersion).toBe(2)
  })
})
