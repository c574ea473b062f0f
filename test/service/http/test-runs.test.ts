import { describe, expect, it } from 'vitest'
import { ConversationEnvelopeSchema } from '../../../src/shared/api/conversations'
import { TestRunListEnvelopeSchema, TestSuiteEnvelopeSchema } from '../../../src/shared/api/test-suites'
import { startTestService } from '../../helpers/test-service'
import { startSpeechServerDouble } from '../../helpers/speech-server-double'
import { STT_SETTING_KEY } from '../../../src/service/settings/stt-settings'
import { readRun, runEnd, startListeningService, startRun, templateAgent } from '../../helpers/test-runs'

/*
 * Agent test suites and runs (docs/api.md, "Test suites and runs"): every scenario is a real
 * conversation through this service's own /stream on 127.0.0.1, with the offline dialogue and
 * eSpeak voices, scored against its expectation. Runs on SQLite and (project postgres) PostgreSQL.
 */

const RESTAURANT = 'Restaurant Reservations'

/** A whole booking, line by line, as a caller who knows what the agent asks next. */
const SCRIPTED_BOOKING = {
  name: 'scripted booking',
  caller: {
    say: [
      'I want to book a table',
      'My name is Sara Haddad',
      'Four people',
      'Next friday',
      'At 7 pm',
      '0501234567',
      'On the terrace',
      'Nothing, thank you',
      'A birthday',
      'Yes, that is right',
    ],
  },
  expect: {
    outcome: {
      requestType: 'new_reservation',
      guestName: 'Sara Haddad',
      partySize: 4,
      date: { date: 'next friday' },
      time: { time: '19:00' },
      seatingPreference: { oneOf: ['terrace', 'indoor'] },
      phoneNumber: { pattern: '^0501234567$' },
      status: { present: true },
    },
    endReason: 'smart-end',
    maxTurns: 12,
  },
}

/** The same booking by a caller who answers whatever the agent asks, in whatever order. */
const ADAPTIVE_BOOKING = {
  name: 'adaptive booking',
  caller: {
    opening: 'Hi, I would like to book a table',
    answers: {
      guestName: 'Omar Khalil',
      partySize: 'We are two',
      date: 'tomorrow',
      time: 'at 8 pm',
      phoneNumber: '0559876543',
      seatingPreference: 'indoor please',
      dietaryNotes: 'nothing',
      specialOccasion: 'an anniversary',
    },
  },
  expect: {
    outcome: { guestName: 'Omar Khalil', partySize: 2, date: { date: 'today+1' }, time: { time: '20:00' }, seatingPreference: 'indoor' },
    endReason: 'smart-end',
  },
}

/** Two lines, then the caller has nothing more to say and hangs up. */
const SHORT_CALL = {
  name: 'short call',
  caller: { say: ['I want to book a table', 'My name is Sara Haddad'] },
  // The call ends unfinished: its outcome holds what was said.
  expect: { outcome: { guestName: 'Sara Haddad', partySize: { absent: true } }, endReason: 'caller-hangup', maxTurns: 2 },
}

describe('agent test suites and runs', () => {
  it('passes a template agent’s stored suite (scripted and adaptive callers), links each call, lists history newest first', async () => {
    const service = await startListeningService()
    const agent = await templateAgent(service, RESTAURANT)
    const put = await service.call('PUT', `/_voicedesk/agents/${agent.id}/test-suite`, {
      body: { agentId: agent.id, scenarios: [SCRIPTED_BOOKING, ADAPTIVE_BOOKING] },
    })
    expect(put.statusCode, put.body).toBe(200)
    const stored = TestSuiteEnvelopeSchema.parse((await service.call('GET', `/_voicedesk/agents/${agent.id}/test-suite`)).json()).data
    expect(stored.suite.scenarios.map((scenario) => scenario.name)).toEqual(['scripted booking', 'adaptive booking'])

    const id = await startRun(service, agent.id, { concurrency: 2 })
    const run = await runEnd(service, id)
    expect(
      run.results.map((result) => [result.name, result.status, result.error]),
      JSON.stringify(run.results, null, 1),
    ).toEqual([
      ['scripted booking', 'PASSED', null],
      ['adaptive booking', 'PASSED', null],
    ])
    expect(run).toMatchObject({ status: 'PASSED', agentVersion: 1, concurrency: 2, repeat: 1, error: null })
    expect(run.summary).toMatchObject({ scenarios: 2, finished: 2, passed: 2, failed: 0 })
    expect(run.results[0]?.fields.find((diff) => diff.field === 'date')).toMatchObject({ pass: true, expected: { date: 'next friday' } })
    for (const result of run.results) {
      expect(result.firstAudioMs).toBeGreaterThan(0)
      expect(result.voiceToVoiceMs).toBeGreaterThan(0)
      expect(result.endReason).toBe('smart-end')
      // The conversation is a real call of the agent, marked with its run.
      const call = ConversationEnvelopeSchema.parse(
        (await service.call('GET', `/v1/voice-agents/conversation/${result.conversationId}`)).json(),
      ).data
      expect(call).toMatchObject({ status: 'COMPLETED', voiceAgentId: agent.id, agentVersion: 1, params: { voicedeskTestRun: id } })
    }
    expect(run.summary.voiceToVoiceMs.p50).toBeGreaterThan(0)

    // A deliberately wrong expectation fails with a readable diff per field.
    const wrong = { ...SHORT_CALL, name: 'wrong expectation', expect: { outcome: { guestName: 'Someone Else' }, endReason: 'smart-end' } }
    const failedRun = await runEnd(service, await startRun(service, agent.id, { suite: { scenarios: [wrong] } }))
    expect(failedRun.status).toBe('FAILED')
    expect(failedRun.results[0]).toMatchObject({
      name: 'wrong expectation',
      status: 'FAILED',
      pass: false,
      error: null,
      fields: [
        { field: 'guestName', expected: 'Someone Else', got: 'Sara Haddad', pass: false },
        { field: 'endReason', expected: 'smart-end', got: 'caller-hangup', pass: false },
      ],
    })
    const history = TestRunListEnvelopeSchema.parse((await service.call('GET', `/_voicedesk/agents/${agent.id}/test-runs`)).json()).data
    expect(history.runs.map((listed) => [listed.id, listed.status])).toEqual([
      [failedRun.id, 'FAILED'],
      [id, 'PASSED'],
    ])

    // Another project's key sees none of it and starts nothing.
    const other = await service.otherProject()
    for (const [method, url] of [
      ['GET', `/_voicedesk/test-runs/${id}`],
      ['GET', `/_voicedesk/agents/${agent.id}/test-runs`],
      ['GET', `/_voicedesk/agents/${agent.id}/test-suite`],
      ['POST', `/_voicedesk/agents/${agent.id}/test-runs`],
    ] as const) {
      const response = await service.call(method, url, { key: other.key, ...(method === 'POST' ? { body: {} } : {}) })
      expect(response.statusCode, `${method} ${url}`).toBe(404)
      expect(response.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } })
    }
  }, 240_000)

  it('refuses bad suites with 400 and the path of the bad part; no stored suite is 409; unknown agents 404', async () => {
    const service = await startTestService()
    const agent = await templateAgent(service, RESTAURANT)
    const scenario = { name: 'ok', caller: { say: ['hello'] }, expect: {} }
    const bad: [unknown, RegExp][] = [
      [{}, /^body\.scenarios$/],
      [{ scenarios: [] }, /^body\.scenarios$/],
      [{ scenarios: [{ ...scenario, caller: { say: [] } }] }, /^body\.scenarios\.0\.caller/],
      [{ scenarios: [{ ...scenario, caller: { answers: {} } }] }, /^body\.scenarios\.0\.caller/],
      [{ scenarios: [{ ...scenario, mode: 'sung' }] }, /^body\.scenarios\.0\.mode$/],
      [{ scenarios: [{ ...scenario, language: 'fr' }] }, /^body\.scenarios\.0\.language$/],
      [{ scenarios: [{ ...scenario, expect: { outcome: { date: { date: 'someday' } } } }] }, /^body\.scenarios\.0\.expect\.outcome\.date/],
      [{ scenarios: [{ ...scenario, expect: { outcome: { time: { time: '25:00' } } } }] }, /^body\.scenarios\.0\.expect\.outcome\.time/],
      [{ scenarios: [{ ...scenario, expect: { outcome: { name: { pattern: '(' } } } }] }, /^body\.scenarios\.0\.expect\.outcome\.name/],
      [{ scenarios: [{ ...scenario, expect: { outcome: { name: { present: true, absent: true } } } }] }, /^body\.scenarios\.0\.expect/],
      [{ scenarios: [{ ...scenario, expect: { maxTurns: 0 } }] }, /^body\.scenarios\.0\.expect\.maxTurns$/],
      [{ scenarios: [scenario], extra: 1 }, /^body/],
      [{ agentId: 'another-agent', scenarios: [scenario] }, /^body\.agentId$/],
    ]
    for (const [body, path] of bad) {
      const response = await service.call('PUT', `/_voicedesk/agents/${agent.id}/test-suite`, { body })
      expect(response.statusCode, `${JSON.stringify(body)}: ${response.body}`).toBe(400)
      expect(response.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } })
      expect(response.json().error.details[0].path, JSON.stringify(body)).toMatch(path)
    }
    for (const body of [{ concurrency: 0 }, { concurrency: 21 }, { repeat: 0 }, { suite: { scenarios: [scenario] }, repeat: 1.5 }]) {
      const response = await service.call('POST', `/_voicedesk/agents/${agent.id}/test-runs`, { body })
      expect(response.statusCode, JSON.stringify(body)).toBe(400)
    }
    const tooMany = await service.call('POST', `/_voicedesk/agents/${agent.id}/test-runs`, {
      body: { suite: { scenarios: Array.from({ length: 100 }, () => scenario) }, repeat: 6 },
    })
    expect(tooMany.statusCode).toBe(400)
    expect(tooMany.json().error.details[0].path).toBe('body.repeat')

    const none = await service.call('POST', `/_voicedesk/agents/${agent.id}/test-runs`, { body: {} })
    expect(none.statusCode, none.body).toBe(409)
    expect(none.json()).toMatchObject({ success: false, error: { code: 'CONFLICT' } })
    expect(none.json().message).toMatch(/no stored test suite/)
    // The body is a JSON object, as for every route that takes one: {} runs the stored suite.
    const noBody = await service.call('POST', `/_voicedesk/agents/${agent.id}/test-runs`)
    expect(noBody.statusCode).toBe(400)
    expect(noBody.json().error.details).toEqual([{ path: 'body', message: 'A JSON object body is required' }])
    expect((await service.call('GET', `/_voicedesk/agents/${agent.id}/test-suite`)).statusCode).toBe(404)
    expect((await service.call('PUT', '/_voicedesk/agents/no-such-agent/test-suite', { body: { scenarios: [scenario] } })).statusCode).toBe(
      404,
    )
    expect((await service.call('GET', '/_voicedesk/test-runs/no-such-run')).statusCode).toBe(404)
    expect((await service.call('GET', `/_voicedesk/test-runs/${agent.id}`, { key: null })).statusCode).toBe(401)
  })

  it('runs 10 scenarios at concurrency 5 (repeat multiplies them): all finish, each its own call', async () => {
    const service = await startListeningService()
    const agent = await templateAgent(service, RESTAURANT)
    const second = {
      name: 'short call 2',
      caller: { say: ['Hello', 'I want to book a table'] },
      expect: { outcome: { guestName: { absent: true } }, endReason: 'caller-hangup', maxTurns: 2 },
    }
    const id = await startRun(service, agent.id, { suite: { scenarios: [SHORT_CALL, second] }, concurrency: 5, repeat: 5 })
    const run = await runEnd(service, id)
    expect(
      run.results.filter((result) => result.status === 'PASSED'),
      JSON.stringify(
        run.results.map((result) => [
          result.name,
          result.round,
          result.status,
          result.error,
          result.endReason,
          result.turns,
          result.fields.filter((diff) => !diff.pass),
        ]),
      ),
    ).toHaveLength(10)
    expect(run).toMatchObject({ status: 'PASSED', concurrency: 5, repeat: 5 })
    expect(run.results.map((result) => `${result.name}#${result.round}`)).toEqual(
      [1, 2, 3, 4, 5].flatMap((round) => [`short call#${round}`, `short call 2#${round}`]),
    )
    expect(new Set(run.results.map((result) => result.conversationId)).size).toBe(10)
    expect(run.summary).toMatchObject({ scenarios: 10, finished: 10, passed: 10, failed: 0 })
    for (const key of ['p50', 'p95', 'p99'] as const) expect(run.summary.firstAudioMs[key]).toBeGreaterThan(0)
  }, 240_000)

  it('fails a scenario that hangs with a clear timeout, refuses spoken scenarios without speech recognition, and goes on', async () => {
    const service = await startListeningService(4_000)
    const agent = await templateAgent(service, RESTAURANT)
    // The call's socket opens but its session waits 30 s to start: the scenario hangs.
    const fault = await service.call('POST', '/_voicedesk/faults', { body: { match: { path: '/stream/*' }, delayMs: 30_000 } })
    expect(fault.statusCode, fault.body).toBe(201)
    const spoken = { ...SHORT_CALL, name: 'spoken', mode: 'spoken' }
    const run = await runEnd(service, await startRun(service, agent.id, { suite: { scenarios: [SHORT_CALL, spoken] } }), 60_000)
    expect(run.status).toBe('FAILED')
    expect(run.results[0]).toMatchObject({ name: 'short call', status: 'FAILED', pass: false })
    expect(run.results[0]?.error).toMatch(/^Timed out after 4 s: the call did not finish \(it never started\)/)
    expect(run.results[0]?.conversationId).toEqual(expect.any(String))
    expect(run.results[1]).toMatchObject({ name: 'spoken', status: 'FAILED', pass: false, conversationId: null })
    expect(run.results[1]?.error).toMatch(/speech-recognition engine, and none is configured/)
  }, 90_000)

  it('plays a spoken scenario: each line synthesised in a caller voice and streamed as microphone audio, recognised by the configured server (a loopback double standing for one outside this machine)', async () => {
    const service = await startListeningService()
    const agent = await templateAgent(service, RESTAURANT)
    const lines = ['I want to book a table', 'My name is Sara Haddad']
    // The double answers what the caller said, in order: it stands for a real recogniser, whose words we cannot run here.
    const stt = await startSpeechServerDouble({ answer: (_request, index) => ({ body: { text: lines[index] ?? '', segments: [] } }) })
    await service.runtime.store.settings.set(STT_SETTING_KEY, { engine: 'openai-compatible', baseUrl: stt.url })
    const spoken = { ...SHORT_CALL, name: 'spoken short call', mode: 'spoken', caller: { say: lines } }
    const run = await runEnd(service, await startRun(service, agent.id, { suite: { scenarios: [spoken] } }), 90_000)
    expect(run.status, JSON.stringify(run.results)).toBe('PASSED')
    // Real speech reached the recogniser: a second or more of it per line, well above a microphone's noise floor.
    expect(stt.requests).toHaveLength(2)
    for (const request of stt.requests) expect(request).toMatchObject({ language: 'en', sampleRate: 16_000 })
    for (const request of stt.requests) expect(request.seconds).toBeGreaterThan(0.8)
    for (const request of stt.requests) expect(request.rms).toBeGreaterThan(0.01)
    const call = ConversationEnvelopeSchema.parse(
      (await service.call('GET', `/v1/voice-agents/conversation/${run.results[0]!.conversationId}`)).json(),
    ).data
    const callerTurns = call.transcript.filter((turn) => turn.role === 'caller')
    expect(callerTurns.map((turn) => [turn.content, turn.kind])).toEqual(lines.map((line) => [line, undefined]))
    // Nothing the agent said was cut: the caller waited for each turn to play before talking.
    expect(call.transcript.filter((turn) => turn.interrupted)).toEqual([])
    expect(run.results[0]!.voiceToVoiceMs).toBeGreaterThan(0)
  }, 120_000)

  it('ends a run FAILED when the service stops during it, and says so after a restart', async () => {
    const service = await startListeningService()
    const agent = await templateAgent(service, RESTAURANT)
    const id = await startRun(service, agent.id, { suite: { scenarios: [SCRIPTED_BOOKING, ADAPTIVE_BOOKING] }, concurrency: 1 })
    await expect.poll(async () => (await readRun(service, id)).results[0]?.status, { timeout: 15_000 }).toBe('RUNNING')
    await service.runtime.stop()

    const again = await startTestService({ dataDir: service.dataDir })
    const run = await readRun(again, id)
    expect(run).toMatchObject({ status: 'FAILED', error: 'The service stopped during the run' })
    expect(run.results.map((result) => [result.status, result.error])).toEqual([
      ['FAILED', 'The service stopped during the scenario'],
      ['FAILED', 'Not run: the service stopped during the run'],
    ])
  }, 60_000)
})
