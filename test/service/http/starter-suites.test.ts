import { describe, expect, it } from 'vitest'
import { TestSuiteSchema, type TestRun } from '../../../src/shared/api/test-suites'
import { VoiceAgentTemplatesEnvelopeSchema } from '../../../src/shared/api/voice-agents'
import type { OutcomeShape } from '../../../src/shared/api/outcome-shape'
import { starterSuite } from '../../../src/service/test-runs/starter-suite'
import { runEnd, startListeningService, startRun, templateAgent } from '../../helpers/test-runs'
import { onPostgres } from '../../helpers/test-engine'

/*
 * Starter suites (docs/api.md, "Test suites and runs"): every built-in template's generated
 * suite, run through real calls on this service's own /stream (offline dialogue, eSpeak voices,
 * typed callers), passes whole. On PostgreSQL (project postgres) the runs store what they store
 * on SQLite, so there one English and one Arabic template run: the dialogue is the same code.
 */

/** A failing scenario, readable: its field diffs and its error. */
function failures(run: TestRun): string {
  return run.results
    .filter((result) => !result.pass)
    .map(
      (result) =>
        `${result.name}: ${result.error ?? ''} ${result.fields
          .filter((field) => !field.pass)
          .map((field) => `${field.field} expected ${JSON.stringify(field.expected)} got ${JSON.stringify(field.got)}`)
          .join('; ')} (call ${result.conversationId})`,
    )
    .join('\n')
}

describe('starter suites', () => {
  it('generates one for every template (happy path, two fields at once, a correction, off-topic, "I don\'t know"); each passes whole', async () => {
    const service = await startListeningService()
    const templates = VoiceAgentTemplatesEnvelopeSchema.parse((await service.call('GET', '/v1/voice-agents/templates')).json()).data
    expect(templates.length).toBeGreaterThanOrEqual(10)
    const chosen = onPostgres
      ? [templates.find((template) => template.lang === 'en')!, templates.find((template) => template.lang === 'ar')!]
      : templates
    const runs: { template: string; runId: string }[] = []
    for (const template of chosen) {
      const agent = await templateAgent(service, template.agentName)
      const response = await service.call('GET', `/_voicedesk/agents/${agent.id}/test-suite/starter`)
      expect(response.statusCode, response.body).toBe(200)
      const suite = TestSuiteSchema.parse(response.json().data)
      expect(suite.agentId).toBe(agent.id)
      expect(suite.scenarios.length, template.agentName).toBeGreaterThanOrEqual(4)
      expect(new Set(suite.scenarios.map((scenario) => scenario.language))).toEqual(new Set([agent.lang]))
      // Generating stores nothing: the agent still has no suite until it is PUT.
      expect((await service.call('GET', `/_voicedesk/agents/${agent.id}/test-suite`)).statusCode).toBe(404)
      const put = await service.call('PUT', `/_voicedesk/agents/${agent.id}/test-suite`, { body: suite })
      expect(put.statusCode, put.body).toBe(200)
      runs.push({ template: template.agentName, runId: await startRun(service, agent.id, { concurrency: 3 }) })
    }
    for (const { template, runId } of runs) {
      const run = await runEnd(service, runId, 240_000)
      expect(run.status, `${template}\n${failures(run)}`).toBe('PASSED')
    }
  }, 300_000)

  it('answers 404 for an unknown agent or another project’s, and a one-call suite for an agent without an outcome shape', async () => {
    const service = await startListeningService()
    const agent = await templateAgent(service, 'Restaurant Reservations')
    expect((await service.call('GET', '/_voicedesk/agents/no-such-agent/test-suite/starter')).json()).toMatchObject({
      success: false,
      error: { code: 'NOT_FOUND' },
    })
    const other = await service.otherProject()
    const foreign = await service.call('GET', `/_voicedesk/agents/${agent.id}/test-suite/starter`, { key: other.key })
    expect(foreign.statusCode).toBe(404)

    const patched = await service.call('PATCH', `/v1/voice-agents/${agent.id}`, { body: { outcomeResponseShape: null } })
    expect(patched.statusCode, patched.body).toBe(200)
    const suite = TestSuiteSchema.parse((await service.call('GET', `/_voicedesk/agents/${agent.id}/test-suite/starter`)).json().data)
    expect(suite.scenarios).toHaveLength(1)
    expect(suite.scenarios[0]?.caller).toHaveProperty('say')
  })

  it('makes a valid suite from awkward shapes: nested fields, ranges in the description that exclude 4, enums of only vague members, nothing askable', () => {
    const shapes: OutcomeShape[] = [
      {
        type: 'object',
        required: ['rating', 'unit'],
        properties: {
          rating: { type: 'integer', description: 'Score from 7 to 10' },
          small: { type: 'integer', description: 'Children, 0-2' },
          unit: { type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['other', 'none'] } } },
          tags: { type: 'array', items: { type: 'string', enum: ['a_b'] }, description: 'Tags' },
          blob: { type: 'array', items: { type: 'object' }, description: 'Never asked' },
        },
      },
      { type: 'object', properties: {} },
      { type: 'string' },
    ]
    for (const lang of ['en', 'ar'] as const)
      for (const shape of shapes) {
        const suite = TestSuiteSchema.parse(starterSuite({ id: 'agent-1', lang, outcomeResponseShape: shape }))
        expect(suite.scenarios.every((scenario) => scenario.language === lang)).toBe(true)
      }
    const nested = starterSuite({ id: 'agent-1', lang: 'en', outcomeResponseShape: shapes[0]! })
    const happy = nested.scenarios[0]!
    expect(happy.expect.outcome).toMatchObject({ rating: 7, 'unit.kind': 'other', small: 2 })
    expect(happy.caller).toMatchObject({ answers: { rating: '7', 'unit.kind': 'other' } })
  })
})
