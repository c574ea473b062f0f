import { describe, expect, it } from 'vitest'
import { ConversationEnvelopeSchema, type ConversationState } from '../../../src/shared/api/conversations'
import { jobRecord } from '../../helpers/job-record'
import { startTestService, type TestService } from '../../helpers/test-service'

/*
 * The conversation read's call details (the cloud reference's `agentDetails`, `callAnalysis`,
 * `logs`, `performanceMetrics`) over HTTP on a real store, both engines: a call as a finished
 * call leaves its record (written into the store), held against figures counted here by hand.
 */

const STARTED = '2026-11-18T10:00:00.000Z'

function finishedCall(agentVersion: number | null): ConversationState {
  return {
    startedAt: STARTED,
    endedAt: '2026-11-18T10:00:42.500Z',
    endReason: 'smart-end',
    transcript: [
      { role: 'agent', content: 'Hello, how can I help?', startTime: 0.4, endTime: 2 },
      { role: 'caller', content: 'A table for two tonight.', startTime: 3, endTime: 5.5 },
      { role: 'agent', content: 'Booked for eight.', startTime: 6.7, endTime: 8, interrupted: true },
      { role: 'caller', content: 'Thanks.', startTime: 9, endTime: 9.6 },
      { role: 'agent', content: 'Goodbye.', startTime: 10.4, endTime: 11 },
    ],
    toolCalls: [{ id: 'call-1', name: 'book', arguments: { guests: 2 }, response: { ok: true }, at: 6.1 }],
    outcomeResult: { guests: 2 },
    outcomeComplete: false,
    outcomeProblems: ['time is missing'],
    bargeIns: 1,
    pokes: 0,
    answerDelays: { answers: 2, seconds: 2 },
    callerGender: 'female',
    speechRecognition: { enabled: false, engine: null, model: null },
    dialogueEngine: 'offline',
    params: { name: 'Sam' },
    tools: [],
    agentVersion,
  }
}

async function addCall(service: TestService, agentId: string, state: ConversationState): Promise<string> {
  const [key] = await service.runtime.store.accounts.listKeys(service.runtime.bootstrap.projectId)
  const record = jobRecord({
    projectId: service.runtime.bootstrap.projectId,
    apiKeyId: key!.id,
    userId: service.runtime.bootstrap.userId,
    type: 'CONVERSATION',
    voiceAgentId: agentId,
    agentDetails: 'Front desk',
    jobResponse: state as unknown as Record<string, unknown>,
    usageSeconds: 42.5,
  })
  await service.runtime.store.jobs.insert(record)
  return record.id
}

async function read(service: TestService, callId: string) {
  const response = await service.call('GET', `/v1/voice-agents/conversation/${callId}`)
  expect(response.statusCode, response.body).toBe(200)
  return ConversationEnvelopeSchema.parse(response.json()).data
}

describe('GET /v1/voice-agents/conversation/{jobId}: the call details', () => {
  it('shows the agent as the call had it, the analysis, the logs in order and the measured figures', async () => {
    const service = await startTestService()
    const created = await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Front desk', greetingMessage: 'Hi' } })
    const agentId = created.json().data.id as string
    // Version 2 is what the call ran against; version 3 came after it.
    await service.call('PATCH', `/v1/voice-agents/${agentId}`, { body: { greetingMessage: 'Hello, how can I help?' } })
    await service.call('PATCH', `/v1/voice-agents/${agentId}`, { body: { agentName: 'Renamed desk', greetingMessage: 'Later' } })
    const callId = await addCall(service, agentId, finishedCall(2))

    const call = await read(service, callId)
    expect(call.agentDetails).toMatchObject({
      version: 2,
      agent: { id: agentId, agentName: 'Front desk', greetingMessage: 'Hello, how can I help?' },
    })
    expect(call.callAnalysis).toEqual({
      endReason: 'smart-end',
      outcomeResult: { guests: 2 },
      outcomeComplete: false,
      outcomeProblems: ['time is missing'],
      callerGender: 'female',
    })
    expect(call.performanceMetrics).toEqual({
      durationSeconds: 42.5,
      agentTurns: 3,
      callerTurns: 2,
      answers: 2,
      averageAnswerDelaySeconds: 1,
      bargeIns: 1,
      pokes: 0,
      toolCalls: 1,
    })
    // The start, the turns and the tool call by time, then the end; each timestamped on the call's clock.
    expect(call.logs.map((log) => [log.id, log.payload.event, log.payload.at])).toEqual([
      ['log_1', 'call.started', 0],
      ['log_2', 'turn', 0.4],
      ['log_3', 'turn', 3],
      ['log_4', 'tool.executed', 6.1],
      ['log_5', 'turn', 6.7],
      ['log_6', 'turn', 9],
      ['log_7', 'turn', 10.4],
      ['log_8', 'call.ended', 42.5],
    ])
    expect(call.logs[3]).toMatchObject({
      timestamp: '2026-11-18T10:00:06.100Z',
      payload: { name: 'book', arguments: { guests: 2 }, response: { ok: true } },
    })
    expect(call.logs[4]!.payload).toMatchObject({ role: 'agent', content: 'Booked for eight.', interrupted: true, endTime: 8 })
    expect(call.logs[7]).toMatchObject({ timestamp: '2026-11-18T10:00:42.500Z', payload: { endReason: 'smart-end' } })
  })

  it('falls back to the agent as it is for calls made before versions, to null once it is deleted, and has no logs before the call starts', async () => {
    const service = await startTestService()
    const agentId = (await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Night desk' } })).json().data.id as string
    const older = await addCall(service, agentId, { ...finishedCall(null), answerDelays: undefined })
    const olderCall = await read(service, older)
    expect(olderCall.agentDetails).toMatchObject({ version: null, agent: { agentName: 'Night desk' } })
    expect(olderCall.performanceMetrics).toMatchObject({ answers: null, averageAnswerDelaySeconds: null })

    const pending = (await service.call('POST', '/v1/voice-agents/conversation-init', { body: { voiceAgentId: agentId } })).json().data
      .jobId as string
    const notStarted = await read(service, pending)
    expect(notStarted.logs).toEqual([])
    expect(notStarted.agentDetails?.version).toBe(1)
    expect(notStarted.performanceMetrics).toMatchObject({ durationSeconds: null, agentTurns: 0, toolCalls: 0 })

    expect((await service.call('DELETE', `/v1/voice-agents/${agentId}`)).statusCode).toBe(200)
    expect((await read(service, older)).agentDetails).toBeNull()
  })
})
