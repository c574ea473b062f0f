import { describe, expect, it } from 'vitest'
import { invokeOperation } from '../../../src/service/operator/invoke-operation'
import { createApiKey } from '../../../src/service/ops/api-keys'
import { startTestService, type TestService } from '../../helpers/test-service'

const NUL = '\u0000'

function postBytes(service: TestService, url: string, bytes: Buffer) {
  return service.runtime.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Token ${service.key}`, 'content-type': 'application/json' },
    payload: bytes,
  })
}

describe('invalid UTF-8 in a JSON body', () => {
  it.each([
    ['a lone continuation byte', Buffer.from([0x80])],
    ['a truncated sequence', Buffer.from([0xe2, 0x82])],
    ['an overlong encoding', Buffer.from([0xc0, 0xaf])],
    ['a surrogate encoded in UTF-8', Buffer.from([0xed, 0xa0, 0x80])],
    ['Latin-1 text', Buffer.from('é', 'latin1')],
  ])('is a 400 INVALID_JSON for %s, not a name stored with U+FFFD', async (_name, bad) => {
    const service = await startTestService()
    const body = Buffer.concat([Buffer.from('{"agentName":"Caf'), bad, Buffer.from('"}')])
    const response = await postBytes(service, '/v1/voice-agents', body)
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json()).toMatchObject({ success: false, error: { code: 'INVALID_JSON', details: [{ path: 'body' }] } })
    expect(response.json().message).toMatch(/UTF-8/)
    const list = await service.call('GET', '/v1/voice-agents')
    expect(list.json().data.total).toBe(0)
  })

  it('accepts valid UTF-8 (Arabic, emoji) and a leading byte order mark', async () => {
    const service = await startTestService()
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ agentName: 'عيادتي 🦷' }))])
    const response = await postBytes(service, '/v1/voice-agents', body)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().data.agentName).toBe('عيادتي 🦷')
  })
})

describe('NUL in names, titles and labels', () => {
  it('refuses NUL in agentName on create, update and clone, naming the field', async () => {
    const service = await startTestService()
    const created = await service.call('POST', '/v1/voice-agents', { body: { agentName: `Front${NUL}desk` } })
    expect(created.statusCode).toBe(400)
    expect(created.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'body.agentName', message: expect.stringMatching(/NUL/) }],
    })

    const agent = (await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Front desk' } })).json().data
    const patched = await service.call('PATCH', `/v1/voice-agents/${agent.id}`, { body: { agentName: `${NUL}` } })
    expect(patched.statusCode).toBe(400)
    expect(patched.json().error.details).toEqual([{ path: 'body.agentName', message: expect.stringMatching(/NUL/) }])

    const cloned = await service.call('POST', `/v1/voice-agents/clone?voiceAgentId=${agent.id}`, { body: { agentName: `Copy${NUL}` } })
    expect(cloned.statusCode).toBe(400)
    expect(cloned.json().error.details).toEqual([{ path: 'body.agentName', message: expect.stringMatching(/NUL/) }])
  })

  it('refuses NUL in a phone number label, naming the field', async () => {
    const service = await startTestService()
    const response = await service.call('POST', '/v1/voice-agents/phone-number', {
      body: {
        type: 'TELEPHONY',
        phoneNumber: '+14155550100',
        label: `Main${NUL}line`,
        providerAccountSid: 'AC1',
        providerAuthToken: 'token',
      },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().error.details).toEqual([{ path: 'body.label', message: expect.stringMatching(/NUL/) }])
  })

  it('refuses NUL in an API key name, from the operator UI and from the CLI use case', async () => {
    const service = await startTestService()
    const result = await invokeOperation(
      service.runtime.operatorHandlers('desktop'),
      'keys.create',
      { name: `Zapier${NUL}` },
      () => undefined,
    )
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: [{ path: 'name', message: expect.stringMatching(/NUL/) }] },
    })
    await expect(createApiKey(service.runtime.context, service.runtime.bootstrap.projectId, `CLI${NUL}`)).rejects.toThrow(/NUL/)
  })

  it('gives a job made from text holding NUL a title without it', async () => {
    const service = await startTestService()
    const response = await service.call('POST', '/v1/jobs/text-to-speech', {
      body: { voiceId: 'fe68337a-10d3-4648-99bb-2bb04554b6cf', text: `Hello${NUL}world` },
    })
    expect(response.statusCode, response.body).toBe(200)
    const job = await service.call('GET', `/v1/jobs?jobId=${response.json().data.id}`)
    expect(job.json().data.title).toBe('Hello world')
  })
})

describe('a search for control characters', () => {
  const SEARCHES = [NUL, `Front${NUL}`, '\u0001', '\u001b[31m', '\u007f', 'desk\n', '\t']

  it.each(SEARCHES)('matches no agent, number or job, and never fails (%j)', async (search) => {
    const service = await startTestService()
    const agent = (await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Front desk' } })).json().data
    await service.call('POST', '/v1/voice-agents/phone-number', {
      body: {
        type: 'TELEPHONY',
        phoneNumber: '+14155550100',
        label: 'Front desk line',
        providerAccountSid: 'AC1',
        providerAuthToken: 'token',
      },
    })
    await service.call('POST', '/v1/jobs/text-to-speech', { body: { voiceId: agent.voiceRecordId, text: 'Front desk greeting' } })
    const query = encodeURIComponent(search)

    const agents = await service.call('GET', `/v1/voice-agents?search=${query}`)
    expect(agents.statusCode, agents.body).toBe(200)
    expect(agents.json().data).toMatchObject({ agents: [], total: 1, filtered: 0 })

    const numbers = await service.call('GET', `/v1/voice-agents/phone-number/list?search=${query}`)
    expect(numbers.statusCode, numbers.body).toBe(200)
    expect(numbers.json().data).toEqual([])
    expect(numbers.headers['x-total-count']).toBe('0')

    const jobs = await service.call('POST', `/v1/jobs/all?projectId=${service.runtime.bootstrap.projectId}`, { body: { search } })
    expect(jobs.statusCode, jobs.body).toBe(200)
    expect(jobs.json().data).toMatchObject({ jobs: [], total: 1, filtered: 0 })

    const ipcAgents = await invokeOperation(service.runtime.operatorHandlers('desktop'), 'agents.list', { search }, () => undefined)
    expect(ipcAgents).toMatchObject({ ok: true, data: { agents: [], filtered: 0 } })
  })
})
