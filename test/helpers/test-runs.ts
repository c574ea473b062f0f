import { expect } from 'vitest'
import { TestRunEnvelopeSchema, type TestRun } from '../../src/shared/api/test-suites'
import { VoiceAgentEnvelopeSchema, VoiceAgentTemplatesEnvelopeSchema, type VoiceAgent } from '../../src/shared/api/voice-agents'
import type { RuntimeConfig } from '../../src/service/runtime'
import { startTestService, type TestService } from './test-service'

/** A listening service (test runs call its own /stream over 127.0.0.1). */
export async function startListeningService(scenarioTimeoutMs?: number, config: Partial<RuntimeConfig> = {}): Promise<TestService> {
  const service = await startTestService({ port: 0, host: '127.0.0.1', testRuns: { scenarioTimeoutMs }, ...config })
  await service.runtime.start()
  return service
}

/** A copy of the built-in template named `agentName`. */
export async function templateAgent(service: TestService, agentName: string, key?: string): Promise<VoiceAgent> {
  const templates = VoiceAgentTemplatesEnvelopeSchema.parse((await service.call('GET', '/v1/voice-agents/templates')).json()).data
  const template = templates.find((candidate) => candidate.agentName === agentName)
  expect(template, agentName).toBeDefined()
  const response = await service.call('POST', `/v1/voice-agents/clone?voiceAgentId=${template?.id}`, { body: {}, ...(key ? { key } : {}) })
  expect(response.statusCode, response.body).toBe(200)
  return VoiceAgentEnvelopeSchema.parse(response.json()).data
}

export async function startRun(service: TestService, agentId: string, body: Record<string, unknown> = {}): Promise<string> {
  const response = await service.call('POST', `/_voicedesk/agents/${agentId}/test-runs`, { body })
  expect(response.statusCode, response.body).toBe(202)
  expect(response.json().data.status).toBe('RUNNING')
  return (response.json().data as { id: string }).id
}

export async function readRun(service: TestService, id: string): Promise<TestRun> {
  const response = await service.call('GET', `/_voicedesk/test-runs/${id}`)
  expect(response.statusCode, response.body).toBe(200)
  return TestRunEnvelopeSchema.parse(response.json()).data
}

/** Polls the run until it is no longer RUNNING. */
export async function runEnd(service: TestService, id: string, timeoutMs = 150_000): Promise<TestRun> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const run = await readRun(service, id)
    if (run.status !== 'RUNNING') return run
    if (Date.now() > deadline) throw new Error(`run ${id} still RUNNING after ${timeoutMs} ms: ${JSON.stringify(run.summary)}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}
