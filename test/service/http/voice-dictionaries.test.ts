/**
 * Voice dictionaries over /v1 (docs/api.md, "Voice dictionaries"): made, read, listed, changed,
 * deleted and activated per agent in the caller's project; every bad input an envelope.
 */
import { describe, expect, it } from 'vitest'
import { VoiceDictionaryEnvelopeSchema, VoiceDictionaryListEnvelopeSchema } from '../../../src/shared/api/voice-dictionaries'
import { startTestService, type TestService } from '../../helpers/test-service'

const BASE = '/v1/voice-agents/voice-dictionaries'

async function makeDictionary(service: TestService, name: string, words = [{ word: 'ibuprofen', pronunciation: 'eye byoo pro fen' }]) {
  const response = await service.call('POST', BASE, { body: { name, words } })
  expect(response.statusCode, response.body).toBe(200)
  return VoiceDictionaryEnvelopeSchema.parse(response.json()).data
}

async function addAgent(service: TestService, agentName: string): Promise<string> {
  const response = await service.call('POST', '/v1/voice-agents', { body: { agentName } })
  expect(response.statusCode, response.body).toBe(200)
  return (response.json().data as { id: string }).id
}

describe('/v1/voice-agents/voice-dictionaries', () => {
  it('creates, reads, changes and deletes a dictionary, answering with the reference message keys', async () => {
    const service = await startTestService()
    const response = await service.call('POST', BASE, {
      body: { name: 'Medical terms', words: [{ word: 'acetaminophen', pronunciation: 'a seet a min o fen' }] },
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({
      success: true,
      message: 'Voice dictionary created successfully',
      messageKey: 'VoiceDictionaryCreatedSuccessfully',
      data: {
        name: 'Medical terms',
        words: [{ word: 'acetaminophen', pronunciation: 'a seet a min o fen' }],
        wordsCount: 1,
        isUsed: false,
      },
    })
    const { id } = response.json().data as { id: string }
    expect((await service.call('GET', `${BASE}/${id}`)).json().data).toMatchObject({ id, name: 'Medical terms' })

    const changed = await service.call('PATCH', `${BASE}/${id}`, { body: { words: [{ word: 'ibuprofen', pronunciation: 'eye byoo' }] } })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json()).toMatchObject({
      messageKey: 'VoiceDictionaryUpdatedSuccessfully',
      data: { name: 'Medical terms', words: [{ word: 'ibuprofen', pronunciation: 'eye byoo' }] },
    })

    const deleted = await service.call('DELETE', `${BASE}/${id}`)
    expect(deleted.json()).toMatchObject({ messageKey: 'VoiceDictionaryDeletedSuccessfully', data: { id, deleted: true } })
    expect((await service.call('GET', `${BASE}/${id}`)).statusCode).toBe(404)
    expect((await service.call('DELETE', `${BASE}/${id}`)).statusCode).toBe(404)
    expect((await service.call('GET', `${BASE}/not-a-uuid`)).json()).toMatchObject({ error: { code: 'NOT_FOUND' } })
  })

  it('activates dictionaries per agent, and lists them with page, search and used filters', async () => {
    const service = await startTestService()
    const agent = await addAgent(service, 'Clinic desk')
    const medical = await makeDictionary(service, 'Medical terms')
    const names = await makeDictionary(service, 'Staff names', [])
    const toggled = await service.call('POST', `${BASE}/toggle-activation`, {
      body: { dictionaryId: medical.id, voiceAgentId: agent, isActive: true },
    })
    expect(toggled.statusCode, toggled.body).toBe(200)
    expect(toggled.json()).toMatchObject({
      message: 'Voice dictionary activation toggled successfully',
      messageKey: 'VoiceDictionaryActivationToggledSuccessfully',
    })

    const list = async (query: string) =>
      VoiceDictionaryListEnvelopeSchema.parse((await service.call('GET', `${BASE}/list${query}`)).json()).data
    expect(await list('')).toMatchObject({ total: 2, filtered: 2, page: 1, pageSize: 10 })
    expect((await list('')).dictionaries.map((entry) => entry.id)).toEqual([names.id, medical.id])
    expect((await list('?used=true')).dictionaries).toEqual([
      expect.objectContaining({ id: medical.id, isUsed: true, wordsCount: 1, voiceAgentIds: [agent] }),
    ])
    expect((await list('?used=false')).dictionaries.map((entry) => entry.id)).toEqual([names.id])
    expect((await list(`?voiceAgentId=${agent}`)).dictionaries.map((entry) => entry.id)).toEqual([medical.id])
    expect((await list('?search=STAFF')).dictionaries.map((entry) => entry.id)).toEqual([names.id])
    expect((await list('?take=1&skip=2')).dictionaries.map((entry) => entry.id)).toEqual([medical.id])

    await service.call('POST', `${BASE}/toggle-activation`, { body: { dictionaryId: medical.id, voiceAgentId: agent, isActive: false } })
    expect((await list('?used=true')).dictionaries).toEqual([])

    const unknownAgent = await service.call('POST', `${BASE}/toggle-activation`, {
      body: { dictionaryId: medical.id, voiceAgentId: '7d8f1c1e-9a51-4d6e-8f57-0f2b1d9f3a10', isActive: true },
    })
    expect(unknownAgent.statusCode).toBe(404)
    expect((await service.call('GET', `${BASE}/list?used=maybe`)).statusCode).toBe(400)
  })

  it('refuses bad dictionaries with 400 envelopes naming the field, and takes 1,000 words at once', async () => {
    const service = await startTestService()
    const refused = async (body: unknown, path: string) => {
      const response = await service.call('POST', BASE, { body })
      expect(response.statusCode, response.body).toBe(400)
      expect(response.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } })
      expect((response.json().error.details as { path: string }[]).map((detail) => detail.path)).toContain(path)
    }
    await refused({ words: [] }, 'body.name')
    await refused({ name: 'x' }, 'body.words')
    await refused({ name: 'x', words: [{ word: '', pronunciation: 'a' }] }, 'body.words.0.word')
    await refused({ name: 'x', words: [{ word: '...', pronunciation: 'a' }] }, 'body.words.0.word')
    await refused({ name: 'x', words: [{ word: 'a', pronunciation: 'b'.repeat(301) }] }, 'body.words.0.pronunciation')
    await refused({ name: 'x', words: [{ word: 'w'.repeat(101), pronunciation: 'b' }] }, 'body.words.0.word')
    await refused(
      {
        name: 'x',
        words: [
          { word: 'Rowe', pronunciation: 'roe' },
          { word: 'ROWE', pronunciation: 'row' },
        ],
      },
      'body.words.1.word',
    )
    await refused({ name: 'x', words: [{ word: 'a', pronunciation: 'b', ipa: 'c' }] }, 'body.words.0.ipa')
    const many = Array.from({ length: 1_000 }, (_, index) => ({ word: `term${index}`, pronunciation: `term number ${index}` }))
    await refused({ name: 'x', words: [...many, { word: 'one more', pronunciation: 'too many' }] }, 'body.words')
    const made = await makeDictionary(service, 'Big', many)
    expect(made.wordsCount).toBe(1_000)
    const patch = await service.call('PATCH', `${BASE}/${made.id}`, { body: { name: '' } })
    expect(patch.statusCode).toBe(400)
  })

  it('keeps an agent to 20 active dictionaries: a 21st is a 409 envelope, re-activating one of the 20 is fine', async () => {
    const service = await startTestService()
    const agent = await addAgent(service, 'Busy desk')
    const made = []
    for (let index = 0; index < 21; index += 1) made.push(await makeDictionary(service, `D${index}`, []))
    const toggle = (dictionaryId: string) =>
      service.call('POST', `${BASE}/toggle-activation`, { body: { dictionaryId, voiceAgentId: agent, isActive: true } })
    for (const dictionary of made.slice(0, 20)) expect((await toggle(dictionary.id)).statusCode).toBe(200)
    const over = await toggle(made[20]!.id)
    expect(over.statusCode).toBe(409)
    expect(over.json()).toMatchObject({ success: false, error: { code: 'CONFLICT', details: [{ path: 'body.isActive' }] } })
    expect((await toggle(made[0]!.id)).statusCode).toBe(200)
    const nul = await service.call('POST', BASE, { body: { name: 'a\u0000b', words: [] } })
    expect(nul.statusCode).toBe(400)
  })
})
