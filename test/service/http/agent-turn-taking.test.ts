// An agent's turn-taking fields over real HTTP: defaults, create and update, and refusals in the envelope.
import { describe, expect, it } from 'vitest'
import { VoiceAgentEnvelopeSchema } from '../../../src/shared/api/voice-agents'
import { startTestService } from '../../helpers/test-service'

describe('an agent’s endOfTurnSilenceMs and maxCallerTurnSeconds', () => {
  it('defaults to 600 ms and 15 s, takes values on create and update, and keeps them', async () => {
    const service = await startTestService()
    const plain = await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Front desk' } })
    expect(VoiceAgentEnvelopeSchema.parse(plain.json()).data).toMatchObject({ endOfTurnSilenceMs: 600, maxCallerTurnSeconds: 15 })
    const created = await service.call('POST', '/v1/voice-agents', {
      body: { agentName: 'Patient desk', endOfTurnSilenceMs: 1_200, maxCallerTurnSeconds: 30 },
    })
    expect(created.statusCode, created.body).toBe(200)
    const { id } = VoiceAgentEnvelopeSchema.parse(created.json()).data
    const patched = await service.call('PATCH', `/v1/voice-agents/${id}`, { body: { maxCallerTurnSeconds: 8 } })
    expect(patched.statusCode, patched.body).toBe(200)
    const read = await service.call('GET', `/v1/voice-agents/${id}`)
    expect(VoiceAgentEnvelopeSchema.parse(read.json()).data).toMatchObject({ endOfTurnSilenceMs: 1_200, maxCallerTurnSeconds: 8 })
    // A template's copy takes the defaults.
    const templates = (await service.call('GET', '/v1/voice-agents/templates')).json<{
      data: { id: string; endOfTurnSilenceMs: number }[]
    }>().data
    expect(templates[0]).toMatchObject({ endOfTurnSilenceMs: 600, maxCallerTurnSeconds: 15 })
  })

  it.each([
    ['endOfTurnSilenceMs', 199],
    ['endOfTurnSilenceMs', 5_001],
    ['endOfTurnSilenceMs', 600.5],
    ['endOfTurnSilenceMs', '600'],
    ['maxCallerTurnSeconds', 4],
    ['maxCallerTurnSeconds', 121],
    ['maxCallerTurnSeconds', null],
  ])('refuses %s = %j with a 400 in the envelope, on create and on update', async (field, value) => {
    const service = await startTestService()
    const created = await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Front desk', [field]: value } })
    expect(created.statusCode).toBe(400)
    expect(created.json()).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: `body.${field}` })] },
    })
    const agent = VoiceAgentEnvelopeSchema.parse(
      (await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Front desk' } })).json(),
    ).data
    const patched = await service.call('PATCH', `/v1/voice-agents/${agent.id}`, { body: { [field]: value } })
    expect(patched.statusCode).toBe(400)
    expect(patched.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } })
  })
})
