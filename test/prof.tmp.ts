import { createRuntime } from '/work/main/src/service/runtime'
import { mkdtempSync } from 'node:fs'
const rt = await createRuntime({ dataDir: mkdtempSync('/tmp/vdprof-'), fixedApiKey: 'k'.repeat(40) })
const H = { authorization: 'Token ' + 'k'.repeat(40) }
const tpl = (await rt.app.inject({ method: 'GET', url: '/v1/voice-agents/templates', headers: H })).json().data[0]
const agent = (await rt.app.inject({ method: 'POST', url: '/v1/voice-agents/clone?voiceAgentId=' + tpl.id, headers: { ...H, 'content-type': 'application/json' }, payload: '{"agentName":"x"}' })).json().data
const url = await rt.app.listen({ port: 0, host: '127.0.0.1' })
console.log(url + '/v1/voice-agents/' + agent.id)
// time pieces
const ctx = rt.context
const caller = { projectId: agent.projectId, apiKeyId: agent.apiKeyId, userId: '' }
const { getVoiceAgent } = await import('/work/main/src/service/ops/voice-agents')
const { VoiceAgentEnvelopeSchema } = await import('/work/main/src/shared/api/voice-agents')
let t = performance.now()
for (let i = 0; i < 20000; i++) getVoiceAgent(ctx, caller, agent.id)
console.log('ops get µs', ((performance.now() - t) / 20000 * 1000).toFixed(1))
const dto = { success: true, message: 'Success', data: getVoiceAgent(ctx, caller, agent.id) }
t = performance.now()
for (let i = 0; i < 20000; i++) VoiceAgentEnvelopeSchema.safeEncode(dto as any)
console.log('zod encode µs', ((performance.now() - t) / 20000 * 1000).toFixed(1))
t = performance.now()
for (let i = 0; i < 20000; i++) JSON.stringify(dto)
console.log('stringify µs', ((performance.now() - t) / 20000 * 1000).toFixed(1))
const { hashApiKey } = await import('/work/main/src/service/ops/api-keys')
t = performance.now()
for (let i = 0; i < 20000; i++) rt.store.accounts.findActiveKeyByHash(hashApiKey('k'.repeat(40)))
console.log('auth µs', ((performance.now() - t) / 20000 * 1000).toFixed(1))
if (process.env.HOLD) await new Promise(r => setTimeout(r, 20000))
await rt.stop()
