import { describe, expect, it } from 'vitest'
import { revokeApiKey } from '../../../src/service/ops/api-keys'
import { rawRequest } from '../../helpers/raw-http'
import { startTestService } from '../../helpers/test-service'
import { testSqlOf } from '../../helpers/test-sql'

const SOME_ID = '9d6a1707-b717-4e39-b6d2-4bfd68aee57d'
const SOME_JOB_ID = '3f0c1b2a-5d6e-4f70-8a9b-0c1d2e3f4a5b'

/** Every /v1 route, with a body where it takes one. */
const SOME_DELIVERY_ID = 'msg_00000000000000000000000000000000'
const SOME_DICTIONARY_ID = '5b2e8f1c-0a3d-4c6b-9e7f-1a2b3c4d5e6f'
const ROUTES: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; body?: unknown }[] = [
  { method: 'GET', url: '/v1/voice-agents/templates' },
  { method: 'POST', url: `/v1/voice-agents/clone?voiceAgentId=${SOME_ID}`, body: { agentName: 'x' } },
  { method: 'POST', url: '/v1/voice-agents', body: { agentName: 'x' } },
  { method: 'GET', url: '/v1/voice-agents' },
  { method: 'GET', url: `/v1/voice-agents/${SOME_ID}` },
  { method: 'PATCH', url: `/v1/voice-agents/${SOME_ID}`, body: { agentName: 'x' } },
  { method: 'DELETE', url: `/v1/voice-agents/${SOME_ID}` },
  { method: 'GET', url: `/v1/voice-agents/${SOME_ID}/versions` },
  { method: 'GET', url: `/v1/voice-agents/${SOME_ID}/versions/1` },
  { method: 'POST', url: `/v1/voice-agents/${SOME_ID}/versions/1/restore` },
  { method: 'GET', url: '/v1/voices' },
  { method: 'POST', url: '/v1/voice-agents/conversation-init', body: { voiceAgentId: SOME_ID } },
  { method: 'GET', url: `/v1/voice-agents/conversation/${SOME_JOB_ID}?jobId=${SOME_JOB_ID}` },
  {
    method: 'POST',
    url: '/v1/voice-agents/phone-number',
    body: { type: 'TELEPHONY', phoneNumber: '+14155550100', label: 'x', providerAccountSid: 'x', providerAuthToken: 'x' },
  },
  { method: 'GET', url: `/v1/voice-agents/phone-number?pid=${SOME_ID}` },
  { method: 'GET', url: '/v1/voice-agents/phone-number/list' },
  { method: 'POST', url: '/v1/voice-agents/voice-dictionaries', body: { name: 'x', words: [] } },
  { method: 'GET', url: '/v1/voice-agents/voice-dictionaries/list' },
  { method: 'GET', url: `/v1/voice-agents/voice-dictionaries/${SOME_DICTIONARY_ID}` },
  { method: 'PATCH', url: `/v1/voice-agents/voice-dictionaries/${SOME_DICTIONARY_ID}`, body: { name: 'x' } },
  { method: 'DELETE', url: `/v1/voice-agents/voice-dictionaries/${SOME_DICTIONARY_ID}` },
  {
    method: 'POST',
    url: '/v1/voice-agents/voice-dictionaries/toggle-activation',
    body: { dictionaryId: SOME_DICTIONARY_ID, voiceAgentId: SOME_ID, isActive: true },
  },
  { method: 'DELETE', url: `/v1/voice-agents/phone-number?pid=${SOME_ID}` },
  { method: 'POST', url: '/v1/voice-agents/assign-number', body: { voiceAgentId: SOME_ID, phoneNumber: '+14155550100' } },
  { method: 'POST', url: '/v1/voice-agents/unassign', body: { phoneNumber: '+14155550100' } },
  { method: 'GET', url: '/v1/openapi.json' },
  { method: 'GET', url: '/v1/asyncapi.json' },
  { method: 'POST', url: '/v1/realtime/tts', body: { text: 'Hello', voiceId: 'fe68337a-10d3-4648-99bb-2bb04554b6cf' } },
  { method: 'POST', url: '/v1/realtime/tts-stream', body: { text: 'Hello', voiceId: 'fe68337a-10d3-4648-99bb-2bb04554b6cf' } },
  { method: 'POST', url: '/v1/realtime/stt' },
  { method: 'POST', url: '/v1/jobs/text-to-speech', body: { voiceId: 'fe68337a-10d3-4648-99bb-2bb04554b6cf', text: 'Hello' } },
  { method: 'POST', url: `/v1/jobs/ai-content?jobId=${SOME_ID}`, body: { aiParts: ['summary'] } },
  { method: 'GET', url: `/v1/jobs/ai-content?jobId=${SOME_ID}` },
  { method: 'POST', url: `/v1/jobs/ai-content/custom?jobId=${SOME_ID}`, body: { aiParts: [{ aiPart: 'x', prompt: 'y' }] } },
  { method: 'POST', url: `/v1/jobs/ai-content/estimate?jobId=${SOME_ID}`, body: { aiParts: ['summary'] } },
  { method: 'GET', url: `/v1/jobs?jobId=${SOME_ID}` },
  { method: 'POST', url: `/v1/jobs/all?projectId=${SOME_ID}`, body: {} },
  {
    method: 'POST',
    url: '/v1/jobs/transcribe',
    body: { mediaUrl: 'https://example.com/a.mp3', model: 'General-V2.0', processingType: 'async' },
  },
  { method: 'GET', url: `/v1/jobs/subtitles?jobId=${SOME_ID}` },
  { method: 'POST', url: '/v1/jobs/translate', body: { text: 'Hello', toLng: 'ar' } },
  { method: 'GET', url: '/v1/webhooks/deliveries' },
  { method: 'GET', url: `/v1/webhooks/deliveries/${SOME_DELIVERY_ID}` },
  { method: 'POST', url: `/v1/webhooks/deliveries/${SOME_DELIVERY_ID}/redeliver` },
  { method: 'GET', url: '/v1/projects/by-api-key' },
  { method: 'GET', url: '/v1/projects/statistics/numbers' },
  { method: 'GET', url: '/v1/tts/voices?take=100&skip=0' },
  { method: 'GET', url: '/v1/voice-agents/conversations/minimal-list' },
  { method: 'GET', url: '/v1/agent-analytics/overview' },
  { method: 'GET', url: '/v1/agent-analytics/satisfaction' },
  { method: 'GET', url: '/v1/agent-analytics/calls' },
  { method: 'GET', url: `/v1/agent-analytics/conversations/export?voiceAgentId=${SOME_ID}` },
  { method: 'GET', url: '/v1/projects/statistics/chart' },
  {
    method: 'POST',
    url: '/v1/voice-agents/twilio/phone-number',
    body: { phoneNumber: '+14155550100', label: 'Line', twilioAccountSid: 'AC1', twilioAuthToken: 'token' },
  },
  { method: 'POST', url: '/v1/voice-agents/call', body: { toNumber: '+15551234567', voiceAgentId: SOME_ID } },
  { method: 'GET', url: '/v2/voice-agents' },
  { method: 'POST', url: '/v2/voice-agents', body: { name: 'Desk' } },
  { method: 'GET', url: `/v2/voice-agents/${SOME_ID}` },
  { method: 'PATCH', url: `/v2/voice-agents/${SOME_ID}`, body: { name: 'Desk' } },
  { method: 'GET', url: '/v2/jobs' },
  {
    method: 'POST',
    url: '/v2/jobs',
    body: { type: 'TRANSCRIPTION', apiKey: SOME_ID, mediaUrl: 'https://example.com/a.mp3', title: 'T', language: 'en' },
  },
  {
    method: 'POST',
    url: '/v2/jobs/generate-transcription-ai-content',
    body: { apiKey: SOME_ID, mediaUrl: 'https://example.com/a.mp3', title: 'T', language: 'en', aiParts: ['summary'] },
  },
]

describe('authentication', () => {
  it('lists every /v1 and /v2 route of the service in this table', async () => {
    const service = await startTestService()
    const documented = Object.entries(
      (await service.call('GET', '/v1/openapi.json')).json().paths as Record<string, Record<string, unknown>>,
    )
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .filter((route) => route.includes(' /v1/') || route.includes(' /v2/'))
      .sort()
    const tested = [
      ...new Set(
        ROUTES.map(
          (route) =>
            `${route.method} ${route.url.split('?')[0]!.replace(SOME_ID, '{voiceAgentId}').replace(SOME_DELIVERY_ID, '{deliveryId}').replace(SOME_JOB_ID, '{jobId}').replace('/versions/1', '/versions/{version}').replace(SOME_DICTIONARY_ID, '{id}')}`,
        ),
      ),
    ].sort()
    expect(tested).toEqual(documented)
  })

  it.each(ROUTES)('$method $url needs a valid key: missing, malformed, unknown and revoked keys are 401', async (route) => {
    const service = await startTestService()
    const attempts: Record<string, string | undefined>[] = [
      {},
      { authorization: '' },
      { authorization: service.key },
      { authorization: `Basic ${service.key}` },
      { authorization: 'Token ' },
      { authorization: 'Token vd_not_a_real_key' },
    ]
    for (const headers of attempts) {
      const response = await service.runtime.app.inject({
        method: route.method,
        url: route.url,
        headers: { ...headers, ...(route.body ? { 'content-type': 'application/json' } : {}) } as Record<string, string>,
        payload: route.body ? JSON.stringify(route.body) : undefined,
      })
      expect(response.statusCode, `${JSON.stringify(headers)}: ${response.body}`).toBe(401)
      expect(response.json()).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', details: [] } })
    }
    const accepted = await service.call(route.method, route.url, { body: route.body })
    expect(accepted.statusCode).not.toBe(401)
  })

  it('accepts Token and Bearer, in any case of the scheme', async () => {
    const service = await startTestService()
    for (const scheme of ['Token', 'Bearer', 'token', 'BEARER']) {
      const response = await service.runtime.app.inject({
        method: 'GET',
        url: '/v1/voices',
        headers: { authorization: `${scheme} ${service.key}` },
      })
      expect(response.statusCode).toBe(200)
    }
  })

  it('refuses a revoked key', async () => {
    const service = await startTestService()
    const other = await service.otherProject()
    expect((await service.call('GET', '/v1/voices', { key: other.key })).statusCode).toBe(200)
    const [record] = await service.runtime.store.accounts.listKeys(other.projectId)
    await revokeApiKey(service.runtime.context, record!.id)
    expect((await service.call('GET', '/v1/voices', { key: other.key })).statusCode).toBe(401)
  })

  it('checks the key before reading the body', async () => {
    const service = await startTestService()
    const response = await service.call('POST', '/v1/voice-agents', { rawBody: '{not json', key: null })
    expect(response.statusCode).toBe(401)
  })

  it('serves /healthz without a key', async () => {
    const service = await startTestService()
    const response = await service.call('GET', '/healthz', { key: null })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) })
  })
})

describe('malformed requests', () => {
  it('answers malformed JSON with 400 INVALID_JSON', async () => {
    const service = await startTestService()
    for (const rawBody of ['{', '{"agentName": }', "{'agentName': 'x'}", '{"agentName":"x"} trailing']) {
      const response = await service.call('POST', '/v1/voice-agents', { rawBody })
      expect(response.statusCode, rawBody).toBe(400)
      expect(response.json()).toMatchObject({ success: false, error: { code: 'INVALID_JSON' } })
    }
  })

  it('answers a missing or non-object body with 400 VALIDATION_ERROR', async () => {
    const service = await startTestService()
    for (const rawBody of ['', 'null', '[]', '"text"', '42']) {
      const response = await service.call('POST', '/v1/voice-agents', { rawBody })
      expect(response.statusCode, rawBody).toBe(400)
      expect(response.json().error.code).toBe('VALIDATION_ERROR')
      expect(response.json().error.details[0].path).toBe('body')
    }
  })

  it('answers other content types with 415', async () => {
    const service = await startTestService()
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x']) {
      const response = await service.call('POST', '/v1/voice-agents', { rawBody: 'agentName=x', headers: { 'content-type': contentType } })
      expect(response.statusCode, contentType).toBe(415)
      expect(response.json()).toMatchObject({ success: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE' } })
    }
    const withCharset = await service.call('POST', '/v1/voice-agents', {
      rawBody: JSON.stringify({ agentName: 'Ünïcode' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
    expect(withCharset.statusCode).toBe(200)
  })

  it('takes an empty body of any declared type as no body, on every route that takes a body (over a real socket)', async () => {
    const service = await startTestService({ port: 0 })
    await service.runtime.start()
    const { port } = service.runtime.app.server.address() as { port: number }
    const agentId = (await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Desk' } })).json().data.id as string
    const send = async (method: string, url: string, headers: string, body = '') => {
      const answer = await rawRequest(
        port,
        `${method} ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${service.key}\r\n${headers}Connection: close\r\n\r\n${body}`,
      )
      return `${answer.status} ${(JSON.parse(answer.body) as { error?: { code: string } }).error?.code ?? 'ok'}`
    }
    const routes = [
      ...ROUTES.filter((route) => route.method !== 'GET'),
      { method: 'POST', url: `/v1/voice-agents/clone?voiceAgentId=${agentId}` },
    ]
    for (const { method, url } of routes) {
      const withoutBody = await send(method, url, 'Content-Length: 0\r\n')
      expect(withoutBody, `${method} ${url}`).not.toMatch(/^5/)
      // axios's type for a POST without data, and others; an empty chunked body too.
      for (const [headers, body] of [
        ['Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\n'],
        ['Content-Type: text/plain\r\nContent-Length: 0\r\n'],
        ['Content-Type: application/octet-stream\r\nContent-Length: 0\r\n'],
        ['Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 0\r\n'],
        ['Content-Type: application/json\r\nContent-Length: 0\r\n'],
        ['Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\n', '0\r\n\r\n'],
      ]) {
        expect(await send(method, url, headers!, body), `${method} ${url} ${headers}`).toBe(withoutBody)
      }
    }
    // The clone's body is optional: an empty form-typed one clones.
    expect(
      await send(
        'POST',
        `/v1/voice-agents/clone?voiceAgentId=${agentId}`,
        'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\n',
      ),
    ).toBe('200 ok')
    // A Content-Type that is no type at all stays a 415, empty body or not.
    expect(await send('POST', '/v1/jobs/all', 'Content-Type: garbage\r\nContent-Length: 0\r\n')).toBe('415 UNSUPPORTED_MEDIA_TYPE')
    // One byte is a body: of any type but JSON, 415, chunked or not.
    expect(await send('POST', '/v1/jobs/all', 'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1\r\n', 'x')).toBe(
      '415 UNSUPPORTED_MEDIA_TYPE',
    )
    expect(
      await send('POST', '/v1/voice-agents', 'Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\n', '1\r\nx\r\n0\r\n\r\n'),
    ).toBe('415 UNSUPPORTED_MEDIA_TYPE')
    // …answered at its first bytes: a body that says 50 MB and sends 1 KiB is not waited for.
    expect(await send('POST', '/v1/voice-agents', 'Content-Type: text/plain\r\nContent-Length: 50000000\r\n', 'x'.repeat(1024))).toBe(
      '415 UNSUPPORTED_MEDIA_TYPE',
    )
  })

  it('answers bodies over 1 MiB with 413 and stores nothing', async () => {
    const service = await startTestService()
    const response = await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Big', preamble: 'x'.repeat(1024 * 1024) } })
    expect(response.statusCode).toBe(413)
    expect(response.json()).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } })
    expect((await service.call('GET', '/v1/voice-agents')).json().data.total).toBe(0)
  })

  it('refuses JSON nested deeper than 64 levels, and prototype keys', async () => {
    const service = await startTestService()
    const deep = await service.call('POST', '/v1/voice-agents', {
      rawBody: `{"agentName":"x","preamble":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    })
    expect(deep.statusCode).toBe(400)
    expect(deep.json().error.code).toBe('VALIDATION_ERROR')
    const proto = await service.call('POST', '/v1/voice-agents', { rawBody: '{"agentName":"x","params":{"__proto__":{"polluted":"yes"}}}' })
    expect(proto.statusCode).toBe(400)
    expect(proto.json().error.code).toBe('INVALID_JSON')
  })

  it('answers unknown routes with a 404 envelope', async () => {
    const service = await startTestService()
    const response = await service.call('GET', '/v1/nothing-here')
    expect(response.statusCode).toBe(404)
    expect(response.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } })
  })

  it('ignores unknown query parameters', async () => {
    const service = await startTestService()
    expect((await service.call('GET', '/v1/voices?utm_source=x')).statusCode).toBe(200)
  })

  it('answers an internal failure with a 500 envelope that hides the cause', async () => {
    const service = await startTestService()
    // Break the store under the running service: the next query throws inside a handler.
    const sql = await testSqlOf(service.runtime)
    await sql.run('DROP TABLE phone_numbers')
    await sql.close()
    const response = await service.call('GET', '/v1/voice-agents/phone-number/list')
    expect(response.statusCode).toBe(500)
    expect(response.json()).toMatchObject({ success: false, error: { code: 'INTERNAL', details: [] } })
    expect(response.body).not.toMatch(/phone_numbers|sqlite|at .*\.ts/i)
  })
})

describe('malformed URLs and text', () => {
  it('answers a bad percent-escape in the path with a 400 envelope, and an over-long id with a 404 envelope', async () => {
    const service = await startTestService()
    for (const url of ['/v1/voice-agents/%', '/v1/voice-agents/%zz', '/v1/%']) {
      const response = await service.call('GET', url)
      expect(response.statusCode, url).toBe(400)
      expect(response.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', details: [{ path: 'url' }] } })
    }
    const long = await service.call('DELETE', `/v1/voice-agents/${'a'.repeat(500)}`)
    expect(long.statusCode).toBe(404)
    expect(long.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } })
  })

  it('refuses lone UTF-16 surrogates, which could not be stored as sent, and accepts real pairs', async () => {
    const service = await startTestService()
    const lone = await service.call('POST', '/v1/voice-agents', { rawBody: '{"agentName":"a\\ud800b"}' })
    expect(lone.statusCode).toBe(400)
    expect(lone.json().error.details).toEqual([{ path: 'body.agentName', message: 'Text holds a lone UTF-16 surrogate' }])
    const paired = await service.call('POST', '/v1/voice-agents', { rawBody: '{"agentName":"agent \\ud83d\\ude00"}' })
    expect(paired.statusCode).toBe(200)
    const read = await service.call('GET', `/v1/voice-agents/${paired.json().data.id}`)
    expect(read.json().data.agentName).toBe('agent 😀')
  })
})
