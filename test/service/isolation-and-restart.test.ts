import { describe, expect, it } from 'vitest'
import { startTestService, sqliteDatabaseOf } from '../helpers/test-service'

describe('project isolation', () => {
  it('shows a second project nothing of the first: 404 on its ids, empty lists', async () => {
    const service = await startTestService()
    const agent = (await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Mine' } })).json().data
    const number = (
      await service.call('POST', '/v1/voice-agents/phone-number', {
        body: { type: 'TELEPHONY', phoneNumber: '+14155550100', label: 'x', providerAccountSid: 'AC', providerAuthToken: 't' },
      })
    ).json().data
    const other = (await service.otherProject()).key

    expect((await service.call('GET', `/v1/voice-agents/${agent.id}`, { key: other })).statusCode).toBe(404)
    expect((await service.call('PATCH', `/v1/voice-agents/${agent.id}`, { key: other, body: { agentName: 'Stolen' } })).statusCode).toBe(
      404,
    )
    expect((await service.call('DELETE', `/v1/voice-agents/${agent.id}`, { key: other })).statusCode).toBe(404)
    expect((await service.call('POST', `/v1/voice-agents/clone?voiceAgentId=${agent.id}`, { key: other, body: {} })).statusCode).toBe(404)
    expect((await service.call('GET', `/v1/voice-agents/phone-number?pid=${number.id}`, { key: other })).statusCode).toBe(404)
    expect((await service.call('DELETE', `/v1/voice-agents/phone-number?pid=${number.id}`, { key: other })).statusCode).toBe(404)
    expect((await service.call('GET', '/v1/voice-agents', { key: other })).json().data).toMatchObject({ agents: [], total: 0 })
    expect((await service.call('GET', '/v1/voice-agents/phone-number/list', { key: other })).json().data).toEqual([])
    // The other project cannot assign the first project's number to its own agent either.
    const theirs = (await service.call('POST', '/v1/voice-agents', { key: other, body: { agentName: 'Theirs' } })).json().data
    const assign = await service.call('POST', '/v1/voice-agents/assign-number', {
      key: other,
      body: { voiceAgentId: theirs.id, phoneNumber: '+14155550100' },
    })
    expect(assign.statusCode).toBe(404)
    // The same number may be registered in another project.
    const sameNumber = await service.call('POST', '/v1/voice-agents/phone-number', {
      key: other,
      body: { type: 'TELEPHONY', phoneNumber: '+14155550100', label: 'x', providerAccountSid: 'AC', providerAuthToken: 't' },
    })
    expect(sameNumber.statusCode).toBe(200)

    const mine = (await service.call('GET', `/v1/voice-agents/${agent.id}`)).json().data
    expect(mine).toEqual(agent)
    expect(theirs.projectId).not.toBe(agent.projectId)
  })
})

describe('persistence', () => {
  it('keeps agents, numbers, assignments and keys across a restart of the runtime', async () => {
    const first = await startTestService()
    const agent = (await first.call('POST', '/v1/voice-agents', { body: { agentName: 'Durable', params: { a: 'b' } } })).json().data
    const number = (
      await first.call('POST', '/v1/voice-agents/phone-number', {
        body: { type: 'TELEPHONY', phoneNumber: '+14155550100', label: 'x', providerAccountSid: 'AC', providerAuthToken: 't' },
      })
    ).json().data
    await first.call('POST', '/v1/voice-agents/assign-number', { body: { voiceAgentId: agent.id, phoneNumber: number.number } })
    const bootstrap = first.runtime.bootstrap
    await first.runtime.stop()

    const second = await startTestService({ dataDir: first.dataDir })
    expect(second.runtime.bootstrap).toMatchObject({ projectId: bootstrap.projectId, userId: bootstrap.userId })
    expect((await second.call('GET', `/v1/voice-agents/${agent.id}`)).json().data).toEqual(agent)
    const reread = (await second.call('GET', `/v1/voice-agents/phone-number?pid=${number.id}`)).json().data
    expect(reread).toMatchObject({ voiceAgentId: agent.id, voiceAgent: { id: agent.id, name: 'Durable' } })
    expect(
      second.runtime.context.secrets.decrypt(
        (await second.runtime.store.phoneNumbers.findInProject(number.id, bootstrap.projectId))!.providerAuthToken,
      ),
    ).toBe('t')
  })

  it('creates one key on a fresh data folder and none on the next start', async () => {
    const first = await startTestService({ fixedApiKey: undefined })
    expect(first.runtime.bootstrap.keySource).toBe('created')
    const key = first.runtime.bootstrap.createdKey!
    expect(key).toMatch(/^vd_[A-Za-z0-9_-]{43}$/)
    expect((await first.call('GET', '/v1/voices', { key })).statusCode).toBe(200)
    // Besides the app's own key record (the operator UI's identity, which works over no HTTP).
    const stored = sqliteDatabaseOf(first.runtime)
      .prepare('SELECT key_hash, key_hint FROM api_keys WHERE id != ?')
      .all(first.runtime.appCaller.apiKeyId) as {
      key_hash: string
      key_hint: string
    }[]
    expect(stored).toHaveLength(1)
    expect(JSON.stringify(stored)).not.toContain(key)
    await first.runtime.stop()

    const second = await startTestService({ dataDir: first.dataDir, fixedApiKey: undefined })
    expect(second.runtime.bootstrap.keySource).toBe('existing')
    expect(second.runtime.bootstrap.createdKey).toBeUndefined()
    expect((await second.call('GET', '/v1/voices', { key })).statusCode).toBe(200)
  })
})
