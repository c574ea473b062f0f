import { it } from 'vitest'
import { startTestService } from '../../helpers/test-service'

it('probe', async () => {
  const s = await startTestService()
  const c0 = await s.call('POST', '/v1/voice-agents', { body: { agentName: 'src' } }); const id = c0.json().data.id
  const cases: [string, string, any][] = [
    ['GET', `/v1/%`, {}],
    ['GET', `/v1/voice-agents/templates/%`, {}],
    ['PATCH', `/v1/voice-agents/%zz`, { body: {} }],
    ['GET', `/v1/voice-agents/%E0%A4%A`, {}],
    ['GET', `/v1/voice-agents?search=%`, {}],
    ['GET', `/v1/voice-agents/${'a'.repeat(150)}`, {}],
    ['PATCH', `/v1/voice-agents/${id}`, { rawBody: '{"\\u005f_proto__": {"x": 1}}' }],
    ['PATCH', `/v1/voice-agents/${id}`, { rawBody: '{"constructor": {"prototype": {"x": 1}}}' }],
    ['PATCH', `/v1/voice-agents/${id}`, { rawBody: '{"params": {"constructor": "x"}}' }],
    ['PATCH', `/v1/voice-agents/${id}`, { rawBody: '\uFEFF{}' }],
    ['PATCH', `/v1/voice-agents/${id}`, { rawBody: '{}', headers: {'content-type': 'application/json; charset=latin1'} }],
    ['PATCH', `/v1/voice-agents/${id}`, { rawBody: '{}', headers: {'content-type': 'APPLICATION/JSON'} }],
    ['PATCH', `/v1/voice-agents/${id}`, { rawBody: '{}', headers: {'content-type': 'application/jsonx'} }],
    ['PATCH', `/v1/voice-agents/${id}`, { rawBody: '', headers: {'content-type': 'text/plain'} }],
    ['PATCH', `/v1/voice-agents/${id}`, { rawBody: ' ', headers: {'content-type': 'text/plain'} }],
    ['PATCH', `/v1/voice-agents/${id}`, { rawBody: '{"preamble": "\\ud800"}' }],
    ['PATCH', `/v1/voice-agents/${id}`, { rawBody: '{"agentName": "\\u0000"}' }],
    ['PATCH', `/v1/voice-agents/${id}`, { rawBody: '{"webhookUrl": "http://例え.テスト/"}' }],
    ['PATCH', `/v1/voice-agents/${id}`, { rawBody: '{"params": {"toString": "x", "hasOwnProperty": "y"}}' }],
    ['POST', `/v1/voice-agents/phone-number`, { body: { type: 'TELEPHONY', phoneNumber: '+1 (415) 555-0101', label: 'l', providerAccountSid: 's', providerAuthToken: 't' } }],
  ]
  for (const [m, u, o] of cases) {
    try {
      const r = await s.call(m as any, u, o)
      console.log(m, u.slice(0, 50), JSON.stringify(o).slice(0, 80), '=>', r.statusCode, r.body.slice(0, 250))
    } catch (e) { console.log('THROW', m, u, e) }
  }
  const r = await s.runtime.app.inject({ method: 'PATCH', url: `/v1/voice-agents/${id}`, headers: { authorization: `Token ${s.key}` }, payload: '{"agentName":"zz"}' })
  console.log('no content-type', r.statusCode, r.body.slice(0, 200), JSON.stringify(r.headers))
}, 120000)
