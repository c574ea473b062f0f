import { describe, expect, it } from 'vitest'
import { ScenarioSchema, TestSuiteEnvelopeSchema } from '../../../src/shared/api/test-suites'
import { runEnd, startListeningService, startRun, templateAgent } from '../../helpers/test-runs'

/*
 * Scenarios from past calls (docs/api.md, "Test suites and runs"): a real call through this
 * service's own /stream becomes a scripted scenario whose expectation is the call's outcome, and
 * replaying it against the same agent passes. Runs on SQLite and (project postgres) PostgreSQL.
 */

const RESTAURANT = 'Restaurant Reservations'

const BOOKING = {
  name: 'a booking',
  caller: {
    opening: 'Hi, I would like to book a table',
    answers: {
      guestName: 'Omar Khalil',
      partySize: 'We are two',
      date: 'tomorrow',
      time: 'at 8 pm',
      phoneNumber: '0559876543',
      seatingPreference: 'indoor please',
      dietaryNotes: 'no allergies',
      specialOccasion: 'an anniversary',
    },
  },
  params: { restaurantName: 'Olive Grove' },
  expect: { endReason: 'smart-end' },
}

describe('scenarios from past calls', () => {
  it('turns a finished call into a scripted scenario with its outcome expected (dates relative), adds it to the suite, and the replay passes', async () => {
    const service = await startListeningService()
    const agent = await templateAgent(service, RESTAURANT)
    const first = await runEnd(service, await startRun(service, agent.id, { suite: { scenarios: [BOOKING] } }))
    expect(first.status, JSON.stringify(first.results)).toBe('PASSED')
    const callId = first.results[0]!.conversationId!

    const response = await service.call('GET', `/_voicedesk/conversations/${callId}/test-scenario`)
    expect(response.statusCode, response.body).toBe(200)
    const scenario = ScenarioSchema.parse(response.json().data)
    expect(scenario.name).toMatch(new RegExp(`^Call ${callId.slice(0, 8)} of \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}$`))
    // The run's mark is not replayed; the call's own params are.
    expect(scenario.params).toEqual({ restaurantName: 'Olive Grove' })
    expect(scenario.caller).toMatchObject({ say: expect.arrayContaining(['Hi, I would like to book a table', 'Omar Khalil', 'at 8 pm']) })
    expect(scenario.expect.outcome).toMatchObject({
      guestName: 'Omar Khalil',
      partySize: 2,
      date: { date: 'today+1' },
      time: '20:00',
      seatingPreference: 'indoor',
      requestType: 'new_reservation',
    })
    // Nothing is stored by reading it.
    expect((await service.call('GET', `/_voicedesk/agents/${agent.id}/test-suite`)).statusCode).toBe(404)

    // Added in one call from the conversation's id, twice: the second gets a name of its own.
    for (const expected of [1, 2]) {
      const added = await service.call('POST', `/_voicedesk/agents/${agent.id}/test-suite/scenarios`, { body: { conversationId: callId } })
      expect(added.statusCode, added.body).toBe(200)
      expect(TestSuiteEnvelopeSchema.parse(added.json()).data.suite.scenarios).toHaveLength(expected)
    }
    const stored = TestSuiteEnvelopeSchema.parse((await service.call('GET', `/_voicedesk/agents/${agent.id}/test-suite`)).json()).data
    expect(stored.suite.scenarios.map((added) => added.name)).toEqual([scenario.name, `${scenario.name} (2)`])

    const replay = await runEnd(service, await startRun(service, agent.id, {}))
    expect(replay.status, JSON.stringify(replay.results.map((result) => result.fields.filter((field) => !field.pass)))).toBe('PASSED')
    expect(replay.results.map((result) => result.conversationId)).not.toContain(callId)
  }, 120_000)

  it('refuses calls that are not over, unknown or another project’s, bad bodies and a full suite; 20 additions at once all land', async () => {
    const service = await startListeningService()
    const agent = await templateAgent(service, RESTAURANT)
    const init = await service.call('POST', '/v1/voice-agents/conversation-init', { body: { voiceAgentId: agent.id, params: {} } })
    expect(init.statusCode, init.body).toBe(200)
    const pendingId = init.json<{ data: { jobId: string } }>().data.jobId
    const pending = await service.call('GET', `/_voicedesk/conversations/${pendingId}/test-scenario`)
    expect(pending.statusCode).toBe(409)
    expect(pending.json()).toMatchObject({ success: false, error: { code: 'CONFLICT' }, message: expect.stringMatching(/is PENDING/) })
    expect((await service.call('GET', '/_voicedesk/conversations/no-such-call/test-scenario')).statusCode).toBe(404)
    const other = await service.otherProject()
    expect((await service.call('GET', `/_voicedesk/conversations/${pendingId}/test-scenario`, { key: other.key })).statusCode).toBe(404)
    const foreign = await service.call('POST', `/_voicedesk/agents/${agent.id}/test-suite/scenarios`, {
      key: other.key,
      body: { conversationId: pendingId },
    })
    expect(foreign.statusCode).toBe(404)

    for (const body of [
      {},
      { conversationId: '' },
      { name: 'x', caller: { say: [] }, expect: {} },
      { conversationId: pendingId, extra: 1 },
    ]) {
      const refused = await service.call('POST', `/_voicedesk/agents/${agent.id}/test-suite/scenarios`, { body })
      expect(refused.statusCode, JSON.stringify(body)).toBe(400)
      expect(refused.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } })
    }

    // Twenty at once: the agent's row is held for each change, so none is lost.
    const scenario = { name: 'parallel', caller: { say: ['hello'] }, expect: { maxTurns: 3 } }
    const added = await Promise.all(
      Array.from({ length: 20 }, () => service.call('POST', `/_voicedesk/agents/${agent.id}/test-suite/scenarios`, { body: scenario })),
    )
    expect(added.map((response) => response.statusCode)).toEqual(Array(20).fill(200))
    const stored = TestSuiteEnvelopeSchema.parse((await service.call('GET', `/_voicedesk/agents/${agent.id}/test-suite`)).json()).data
    expect(new Set(stored.suite.scenarios.map((listed) => listed.name)).size).toBe(20)

    // A full suite (200) takes no more.
    const full = { scenarios: Array.from({ length: 200 }, (_, index) => ({ ...scenario, name: `s${index}` })) }
    expect((await service.call('PUT', `/_voicedesk/agents/${agent.id}/test-suite`, { body: full })).statusCode).toBe(200)
    const refused = await service.call('POST', `/_voicedesk/agents/${agent.id}/test-suite/scenarios`, { body: scenario })
    expect(refused.statusCode).toBe(409)
    expect(refused.json().message).toMatch(/already holds 200 scenarios/)
  }, 60_000)
})
