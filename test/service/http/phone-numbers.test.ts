import { describe, expect, it } from 'vitest'
import { PhoneNumberEnvelopeSchema, PhoneNumberListEnvelopeSchema } from '../../../src/shared/api/phone-numbers'
import { startTestService, type TestService } from '../../helpers/test-service'
import { testSqlOf } from '../../helpers/test-sql'

const TOKEN = 'provider-token-do-not-leak-7781'

function numberBody(phoneNumber: string, label = 'Main line') {
  return { type: 'TELEPHONY', phoneNumber, label, providerAccountSid: 'AC-account-1', providerAuthToken: TOKEN }
}

async function addNumber(service: TestService, phoneNumber = '+14155550100', label?: string) {
  const response = await service.call('POST', '/v1/voice-agents/phone-number', { body: numberBody(phoneNumber, label) })
  expect(response.statusCode, response.body).toBe(200)
  return PhoneNumberEnvelopeSchema.parse(response.json()).data
}

async function addAgent(service: TestService, agentName: string) {
  const response = await service.call('POST', '/v1/voice-agents', { body: { agentName } })
  return response.json().data as { id: string; agentName: string }
}

describe('POST /v1/voice-agents/phone-number', () => {
  it('registers a number in E.164 form, with the local SIP settings, and never shows the token', async () => {
    const service = await startTestService()
    const response = await service.call('POST', '/v1/voice-agents/phone-number', { body: numberBody('+44 20 7946 0958') })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ success: true, message: 'Success' })
    const number = PhoneNumberEnvelopeSchema.parse(response.json()).data
    expect(number).toMatchObject({
      number: '+442079460958',
      label: 'Main line',
      type: 'TELEPHONY',
      userId: service.runtime.bootstrap.userId,
      sipInboundConfigs: { originationUri: 'sip:127.0.0.1:5060;transport=tcp' },
      sipOutboundConfigs: { address: '127.0.0.1', transportType: 'TCP', customHeaders: {} },
      voiceAgentId: null,
      voiceAgent: null,
    })
    expect(response.body).not.toContain(TOKEN)
    expect(response.body).not.toContain('providerAuthToken')
  })

  it('encrypts the provider token at rest', async () => {
    const service = await startTestService()
    const number = await addNumber(service)
    const sql = await testSqlOf(service.runtime)
    const [row] = await sql.all<{ provider_auth_token: string }>('SELECT provider_auth_token FROM phone_numbers WHERE id = ?', number.id)
    await sql.close()
    expect(row!.provider_auth_token).not.toContain(TOKEN)
    expect(service.runtime.context.secrets.decrypt(row!.provider_auth_token)).toBe(TOKEN)
  })

  it('answers 409 for the same number twice in a project, however it is written', async () => {
    const service = await startTestService()
    await addNumber(service, '+14155550100')
    const again = await service.call('POST', '/v1/voice-agents/phone-number', { body: numberBody('+1 (415) 555-0100') })
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ success: false, error: { code: 'CONFLICT', details: [{ path: 'body.phoneNumber' }] } })
  })

  const invalid: [string, Record<string, unknown>, string][] = [
    ['no plus sign', { phoneNumber: '14155550100' }, 'body.phoneNumber'],
    ['letters', { phoneNumber: '+1415CALLME' }, 'body.phoneNumber'],
    ['more than 15 digits', { phoneNumber: '+1234567890123456' }, 'body.phoneNumber'],
    ['a number too short for its country', { phoneNumber: '+4412' }, 'body.phoneNumber'],
    ['an empty label', { label: '' }, 'body.label'],
    ['an empty account sid', { providerAccountSid: '' }, 'body.providerAccountSid'],
    ['an empty token', { providerAuthToken: '' }, 'body.providerAuthToken'],
    ['a type other than TELEPHONY', { type: 'SIP' }, 'body.type'],
    ['an unknown field', { region: 'us' }, 'body.region'],
  ]
  it.each(invalid)('refuses %s with a 400 naming the field and stores nothing', async (_label, change, path) => {
    const service = await startTestService()
    const response = await service.call('POST', '/v1/voice-agents/phone-number', { body: { ...numberBody('+14155550100'), ...change } })
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json().error.code).toBe('VALIDATION_ERROR')
    expect(response.json().error.details.map((detail: { path: string }) => detail.path)).toContain(path)
    expect((await service.call('GET', '/v1/voice-agents/phone-number/list')).json().data).toEqual([])
  })

  it('refuses a body missing a required field', async () => {
    const service = await startTestService()
    const { label: _label, ...withoutLabel } = numberBody('+14155550100')
    const response = await service.call('POST', '/v1/voice-agents/phone-number', { body: withoutLabel })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.details).toContainEqual({ path: 'body.label', message: expect.any(String) })
  })
})

describe('GET /v1/voice-agents/phone-number and /list', () => {
  it('reads one number by pid, and 404s an unknown or malformed pid', async () => {
    const service = await startTestService()
    const number = await addNumber(service)
    const read = await service.call('GET', `/v1/voice-agents/phone-number?pid=${number.id}`)
    expect(read.statusCode).toBe(200)
    expect(read.json().data).toEqual(number)
    for (const pid of ['9d6a1707-b717-4e39-b6d2-4bfd68aee57d', 'nope']) {
      expect((await service.call('GET', `/v1/voice-agents/phone-number?pid=${pid}`)).statusCode).toBe(404)
    }
    const missing = await service.call('GET', '/v1/voice-agents/phone-number')
    expect(missing.statusCode).toBe(400)
    expect(missing.json().error.details[0].path).toBe('query.pid')
  })

  it('lists numbers with pages, search and an agent filter', async () => {
    let tick = Date.parse('2026-01-01T00:00:00.000Z')
    const service = await startTestService({ now: () => new Date((tick += 1000)) })
    const agent = await addAgent(service, 'Sales')
    await addNumber(service, '+14155550101', 'Sales line')
    await addNumber(service, '+14155550102', 'Support line')
    await addNumber(service, '+971501234567', 'Dubai office')
    await service.call('POST', '/v1/voice-agents/assign-number', { body: { voiceAgentId: agent.id, phoneNumber: '+14155550101' } })

    // A bare array, as the reference shows it; X-Total-Count counts the numbers the query matches.
    const first = await service.call('GET', '/v1/voice-agents/phone-number/list?take=2')
    const all = PhoneNumberListEnvelopeSchema.parse(first.json()).data
    expect(all.map((number) => number.number)).toEqual(['+971501234567', '+14155550102'])
    expect(first.headers['x-total-count']).toBe('3')
    const page2 = (await service.call('GET', '/v1/voice-agents/phone-number/list?take=2&skip=2')).json().data
    expect(page2.map((number: { number: string }) => number.number)).toEqual(['+14155550101'])
    const searched = await service.call('GET', '/v1/voice-agents/phone-number/list?search=support')
    expect(searched.json().data).toHaveLength(1)
    expect(searched.headers['x-total-count']).toBe('1')
    const ofAgent = (await service.call('GET', `/v1/voice-agents/phone-number/list?voiceAgentId=${agent.id}`)).json().data
    expect(ofAgent).toHaveLength(1)
    expect(ofAgent[0].voiceAgent).toEqual({ id: agent.id, name: 'Sales' })
  })
})

describe('POST /v1/voice-agents/assign-number and /unassign', () => {
  it('assigns, keeps a same-agent assign unchanged, moves to another agent, and unassigns', async () => {
    let tick = Date.parse('2026-01-01T00:00:00.000Z')
    const service = await startTestService({ now: () => new Date((tick += 1000)) })
    const first = await addAgent(service, 'First')
    const second = await addAgent(service, 'Second')
    const number = await addNumber(service)

    const assigned = await service.call('POST', '/v1/voice-agents/assign-number', {
      body: { voiceAgentId: first.id, phoneNumber: number.number },
    })
    expect(assigned.statusCode).toBe(200)
    expect(assigned.json().data).toMatchObject({ voiceAgentId: first.id, voiceAgent: { id: first.id, name: 'First' } })

    const again = await service.call('POST', '/v1/voice-agents/assign-number', {
      body: { voiceAgentId: first.id, phoneNumber: number.number },
    })
    expect(again.statusCode).toBe(200)
    expect(again.json().data).toEqual(assigned.json().data)

    const moved = await service.call('POST', '/v1/voice-agents/assign-number', {
      body: { voiceAgentId: second.id, phoneNumber: '+1 415 555 0100' },
    })
    expect(moved.json().data).toMatchObject({ voiceAgentId: second.id, voiceAgent: { id: second.id, name: 'Second' } })
    expect(moved.json().data.updatedAt > assigned.json().data.updatedAt).toBe(true)

    const unassigned = await service.call('POST', '/v1/voice-agents/unassign', { body: { phoneNumber: number.number } })
    expect(unassigned.statusCode).toBe(200)
    expect(unassigned.json().data).toMatchObject({ voiceAgentId: null, voiceAgent: null })
    const twice = await service.call('POST', '/v1/voice-agents/unassign', { body: { phoneNumber: number.number } })
    expect(twice.json().data).toEqual(unassigned.json().data)
  })

  it('answers 404 for an unknown agent or number, and 400 for a malformed agent id', async () => {
    const service = await startTestService()
    const agent = await addAgent(service, 'Only')
    const number = await addNumber(service)
    const unknownAgent = await service.call('POST', '/v1/voice-agents/assign-number', {
      body: { voiceAgentId: '9d6a1707-b717-4e39-b6d2-4bfd68aee57d', phoneNumber: number.number },
    })
    expect(unknownAgent.statusCode).toBe(404)
    const unknownNumber = await service.call('POST', '/v1/voice-agents/assign-number', {
      body: { voiceAgentId: agent.id, phoneNumber: '+14155550199' },
    })
    expect(unknownNumber.statusCode).toBe(404)
    expect(unknownNumber.json().error.code).toBe('NOT_FOUND')
    const malformed = await service.call('POST', '/v1/voice-agents/assign-number', {
      body: { voiceAgentId: 'agent-1', phoneNumber: number.number },
    })
    expect(malformed.statusCode).toBe(400)
    expect(malformed.json().error.details[0].path).toBe('body.voiceAgentId')
    const unassignUnknown = await service.call('POST', '/v1/voice-agents/unassign', { body: { phoneNumber: '+14155550199' } })
    expect(unassignUnknown.statusCode).toBe(404)
    expect((await service.call('GET', `/v1/voice-agents/phone-number?pid=${number.id}`)).json().data.voiceAgentId).toBeNull()
  })
})

describe('DELETE /v1/voice-agents/phone-number', () => {
  it('deletes a number, then 404s it', async () => {
    const service = await startTestService()
    const number = await addNumber(service)
    const deleted = await service.call('DELETE', `/v1/voice-agents/phone-number?pid=${number.id}`)
    expect(deleted.statusCode).toBe(200)
    expect(deleted.json().data).toEqual({ id: number.id, deleted: true })
    expect((await service.call('GET', `/v1/voice-agents/phone-number?pid=${number.id}`)).statusCode).toBe(404)
    expect((await service.call('DELETE', `/v1/voice-agents/phone-number?pid=${number.id}`)).statusCode).toBe(404)
    // The number can be registered again once deleted.
    await addNumber(service)
  })
})

describe("The provider's spellings (TWILIO, twilio*)", () => {
  const aliasBody = (phoneNumber: string) => ({
    type: 'TWILIO',
    phoneNumber,
    label: 'Support line',
    twilioAccountSid: 'AC-alias-1',
    twilioAuthToken: TOKEN,
  })

  it('registers a number sent with type TWILIO and twilio* fields, stored and answered in the seed words', async () => {
    const service = await startTestService()
    const response = await service.call('POST', '/v1/voice-agents/phone-number', { body: aliasBody('+14155550111') })
    expect(response.statusCode, response.body).toBe(200)
    const number = PhoneNumberEnvelopeSchema.parse(response.json()).data
    expect(number).toMatchObject({ number: '+14155550111', type: 'TELEPHONY', label: 'Support line' })
    expect(response.body).not.toContain(TOKEN)
    const sql = await testSqlOf(service.runtime)
    const [row] = await sql.all<{ type: string; provider_account_sid: string; provider_auth_token: string }>(
      'SELECT type, provider_account_sid, provider_auth_token FROM phone_numbers WHERE id = ?',
      number.id,
    )
    await sql.close()
    expect(row).toMatchObject({ type: 'TELEPHONY', provider_account_sid: 'AC-alias-1' })
    expect(service.runtime.context.secrets.decrypt(row!.provider_auth_token)).toBe(TOKEN)
  })

  it('POST /v1/voice-agents/twilio/phone-number registers the number and answers numberSid and isActive too', async () => {
    const service = await startTestService()
    const body = { phoneNumber: '+14155550112', label: 'Sales', twilioNumberSid: 'PN123', twilioAccountSid: 'AC1', twilioAuthToken: TOKEN }
    const response = await service.call('POST', '/v1/voice-agents/twilio/phone-number', { body })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().data).toMatchObject({
      number: '+14155550112',
      type: 'TELEPHONY',
      numberSid: 'PN123',
      isActive: true,
      voiceAgentId: null,
    })
    expect(response.body).not.toContain(TOKEN)
    const read = await service.call('GET', `/v1/voice-agents/phone-number?pid=${response.json().data.id}`)
    expect(read.json().data).toMatchObject({ number: '+14155550112', type: 'TELEPHONY' })
    const again = await service.call('POST', '/v1/voice-agents/twilio/phone-number', { body })
    expect(again.statusCode).toBe(409)
    const other = await service.otherProject()
    expect((await service.call('GET', `/v1/voice-agents/phone-number?pid=${response.json().data.id}`, { key: other.key })).statusCode).toBe(
      404,
    )
  })

  const refused: [string, string, Record<string, unknown>, string][] = [
    ['both spellings of the account', '/v1/voice-agents/phone-number', { providerAccountSid: 'AC2' }, 'body.twilioAccountSid'],
    ['neither spelling of the token', '/v1/voice-agents/phone-number', { twilioAuthToken: undefined }, 'body.providerAuthToken'],
    ['an unknown type', '/v1/voice-agents/phone-number', { type: 'SIP' }, 'body.type'],
    ['an unknown field', '/v1/voice-agents/twilio/phone-number', { region: 'us' }, 'body.region'],
    ['an empty number SID', '/v1/voice-agents/twilio/phone-number', { twilioNumberSid: '' }, 'body.twilioNumberSid'],
    ['a malformed number', '/v1/voice-agents/twilio/phone-number', { phoneNumber: "+1' OR 1=1" }, 'body.phoneNumber'],
  ]
  it.each(refused)('refuses %s with a 400 naming the field', async (_label, url, change, path) => {
    const service = await startTestService()
    const response = await service.call('POST', url, { body: { ...aliasBody('+14155550113'), ...change } })
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json().error.details.map((detail: { path: string }) => detail.path)).toContain(path)
    expect((await service.call('GET', '/v1/voice-agents/phone-number/list')).json().data).toEqual([])
  })

  it('takes one number sent many times at once through both routes exactly once', async () => {
    const service = await startTestService()
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        service.call('POST', index % 2 ? '/v1/voice-agents/twilio/phone-number' : '/v1/voice-agents/phone-number', {
          body: index % 2 ? { ...aliasBody('+14155550114'), type: undefined } : aliasBody('+14155550114'),
        }),
      ),
    )
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409])
  })
})
