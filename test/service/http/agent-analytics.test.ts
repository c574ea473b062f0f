import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { ConversationState } from '../../../src/shared/api/conversations'
import type { JobRecord } from '../../../src/store/records'
import { jobRecord } from '../../helpers/job-record'
import { startTestService, type TestService } from '../../helpers/test-service'

/*
 * The agent analytics and the project chart over real HTTP (the whole Fastify pipeline) on a
 * real store, both engines: calls written into the store with states whose figures are counted
 * here by hand, one call made through conversation-init, and another project's calls that must
 * never count. The clock is fixed: Wednesday 18 November 2026, 12:00 UTC.
 */

const NOW = Date.parse('2026-11-18T12:00:00.000Z')
const at = (iso: string) => new Date(Date.parse(iso)).toISOString()

const SHAPE = {
  type: 'object',
  properties: {
    guestName: { type: 'string' },
    visitDate: { type: 'string' },
    satisfactionRating: { type: 'integer', enum: [1, 2, 3, 4, 5] },
  },
  required: ['guestName', 'visitDate'],
}

interface CallFacts {
  createdAt: string
  status?: JobRecord['status']
  endReason?: ConversationState['endReason']
  seconds?: number | null
  turns?: number
  bargeIns?: number
  pokes?: number
  toolCalls?: number
  answers?: [number, number]
  outcome?: Record<string, unknown> | null
  outcomeComplete?: boolean | null
}

function stateOf(facts: CallFacts): ConversationState {
  const turns = Array.from({ length: facts.turns ?? 0 }, (_, index) => ({
    role: index % 2 === 0 ? ('agent' as const) : ('caller' as const),
    content: `turn ${index}`,
    startTime: index,
    endTime: index + 0.5,
  }))
  return {
    startedAt: facts.seconds === null ? null : facts.createdAt,
    endedAt: facts.seconds === null ? null : facts.createdAt,
    endReason: facts.endReason ?? null,
    transcript: turns,
    toolCalls: Array.from({ length: facts.toolCalls ?? 0 }, (_, index) => ({ id: `t${index}`, name: 'lookup', arguments: {}, at: 1 })),
    outcomeResult: facts.outcome ?? null,
    outcomeComplete: facts.outcomeComplete ?? null,
    bargeIns: facts.bargeIns ?? 0,
    pokes: facts.pokes ?? 0,
    ...(facts.answers ? { answerDelays: { answers: facts.answers[0], seconds: facts.answers[1] } } : {}),
    callerGender: null,
    speechRecognition: { enabled: false, engine: null, model: null },
    dialogueEngine: 'offline',
    params: {},
    tools: [],
  }
}

async function keyOf(service: TestService, projectId: string): Promise<string> {
  const [key] = await service.runtime.store.accounts.listKeys(projectId)
  if (!key) throw new Error(`project ${projectId} has no key`)
  return key.id
}

async function addCall(service: TestService, projectId: string, agentId: string | null, facts: CallFacts): Promise<void> {
  await service.runtime.store.jobs.insert(
    jobRecord({
      projectId,
      apiKeyId: await keyOf(service, projectId),
      userId: service.runtime.bootstrap.userId,
      type: 'CONVERSATION',
      status: facts.status ?? 'COMPLETED',
      voiceAgentId: agentId,
      agentDetails: 'Front desk',
      jobResponse: stateOf(facts) as unknown as Record<string, unknown>,
      usageSeconds: facts.seconds === undefined ? 30 : facts.seconds,
      createdAt: at(facts.createdAt),
      updatedAt: at(facts.createdAt),
    }),
  )
}

async function world() {
  const service = await startTestService({ now: () => new Date(NOW) })
  const create = async (body: Record<string, unknown>) => {
    const response = await service.call('POST', '/v1/voice-agents', { body })
    expect(response.statusCode, response.body).toBe(200)
    return response.json<{ data: { id: string } }>().data.id
  }
  const desk = await create({ agentName: 'Front desk', outcomeResponseShape: SHAPE })
  const sales = await create({ agentName: 'Sales' })
  const project = service.runtime.bootstrap.projectId
  // Front desk, today (UTC): three calls.
  await addCall(service, project, desk, {
    createdAt: '2026-11-18T08:10:00.000Z',
    endReason: 'smart-end',
    seconds: 45,
    turns: 6,
    bargeIns: 1,
    pokes: 0,
    toolCalls: 2,
    answers: [3, 2.4],
    outcome: { guestName: 'Sara', visitDate: '2026-11-20', satisfactionRating: 5 },
    outcomeComplete: true,
  })
  await addCall(service, project, desk, {
    createdAt: '2026-11-18T08:40:00.000Z',
    endReason: 'caller-hangup',
    seconds: 120,
    turns: 4,
    bargeIns: 2,
    pokes: 1,
    answers: [2, 1.6],
    outcome: { guestName: 'Omar', visitDate: null, satisfactionRating: 3 },
    outcomeComplete: false,
  })
  await addCall(service, project, desk, {
    createdAt: '2026-11-18T10:05:00.000Z',
    status: 'FAILED',
    endReason: 'error',
    seconds: 400,
    turns: 2,
    pokes: 2,
    outcome: null,
    outcomeComplete: null,
  })
  // Front desk, yesterday 22:30 UTC: today in UTC+3.
  await addCall(service, project, desk, {
    createdAt: '2026-11-17T22:30:00.000Z',
    endReason: 'silence',
    seconds: 10,
    turns: 1,
    pokes: 3,
    outcome: { guestName: null, visitDate: null, satisfactionRating: 4 },
    outcomeComplete: false,
  })
  // Sales, today: one call still running.
  await addCall(service, project, sales, { createdAt: '2026-11-18T11:00:00.000Z', status: 'IN_PROGRESS', seconds: 20, turns: 3 })
  // Another project, today: never counted.
  const other = await service.otherProject()
  await addCall(service, other.projectId, null, { createdAt: '2026-11-18T09:00:00.000Z', seconds: 999, turns: 50, bargeIns: 9 })
  return { service, desk, sales, other }
}

const get = async (service: TestService, url: string, key?: string) => {
  const response = await service.call('GET', url, key === undefined ? {} : { key })
  return response
}
const dataOf = async (service: TestService, url: string) => {
  const response = await get(service, url)
  expect(response.statusCode, response.body).toBe(200)
  return response.json<{ data: Record<string, unknown> }>().data
}

describe('GET /v1/agent-analytics/*', () => {
  it('counts the overview of the project today, by hour, from its own calls only', async () => {
    const { service } = await world()
    const data = await dataOf(service, '/v1/agent-analytics/overview')
    // Today in UTC: the desk's three calls and the sales call (the call of 22:30 yesterday is not today).
    expect(data).toMatchObject({
      liveSessionsNumber: 1,
      totalSessionsNumber: 4,
      totalSessionDuration: 45 + 120 + 400 + 20,
      averageSessionDuration: (45 + 120 + 400 + 20) / 4,
      averageMessagesPerSession: (6 + 4 + 2 + 3) / 4,
      averageWordsPerAiResponse: null,
      forwardToHumanAgent: 0,
      callsByDurationBuckets: { shortDurationBucketCalls: 2, mediumDurationBucketCalls: 1, longDurationBucketCalls: 1 },
    })
    const overTime = data.callsOverTime as { timeBucket: string; count: string }[]
    expect(overTime).toHaveLength(24)
    expect(overTime.filter((bucket) => bucket.count !== '0')).toEqual([
      { timeBucket: '2026-11-18 08:00:00', count: '2' },
      { timeBucket: '2026-11-18 10:00:00', count: '1' },
      { timeBucket: '2026-11-18 11:00:00', count: '1' },
    ])
  })

  it('follows timeDifference: in UTC+3 today began at 21:00 UTC yesterday', async () => {
    const { service, desk } = await world()
    const data = await dataOf(service, `/v1/agent-analytics/overview?voiceAgentId=${desk}&timeDifference=-3`)
    expect(data.totalSessionsNumber).toBe(4)
    const overTime = data.callsOverTime as { timeBucket: string; count: string }[]
    expect(overTime[0]?.timeBucket).toBe('2026-11-18 00:00:00')
    expect(overTime.filter((bucket) => bucket.count !== '0')).toEqual([
      { timeBucket: '2026-11-18 01:00:00', count: '1' },
      { timeBucket: '2026-11-18 11:00:00', count: '2' },
      { timeBucket: '2026-11-18 13:00:00', count: '1' },
    ])
  })

  it('follows a time difference a part of an hour away: in UTC+5:30 the calls fall in the local hours', async () => {
    const { service, desk } = await world()
    const data = await dataOf(service, `/v1/agent-analytics/overview?voiceAgentId=${desk}&timeDifference=-5.5`)
    const overTime = data.callsOverTime as { timeBucket: string; count: string }[]
    expect(overTime.filter((bucket) => bucket.count !== '0')).toEqual([
      { timeBucket: '2026-11-18 04:00:00', count: '1' },
      { timeBucket: '2026-11-18 13:00:00', count: '1' },
      { timeBucket: '2026-11-18 14:00:00', count: '1' },
      { timeBucket: '2026-11-18 15:00:00', count: '1' },
    ])
  })

  it('counts end reasons, interruptions, pokes, tool calls, latency and each outcome field of an agent over a custom range, by day', async () => {
    const { service, desk } = await world()
    const start = Date.parse('2026-11-10T00:00:00.000Z')
    const end = Date.parse('2026-11-18T23:59:59.999Z')
    const data = await dataOf(service, `/v1/agent-analytics/calls?voiceAgentId=${desk}&period=CUSTOM&startPeriod=${start}&endPeriod=${end}`)
    expect(data).toMatchObject({
      bucket: 'day',
      calls: 4,
      byStatus: { COMPLETED: 3, FAILED: 1 },
      byEndReason: { 'smart-end': 1, 'caller-hangup': 1, error: 1, silence: 1, 'agent-hangup': 0, none: 0 },
      duration: { total: 575, average: 143.75, timedCalls: 4 },
      interruptions: { total: 3, perCall: 0.75 },
      pokes: { total: 6, perCall: 1.5 },
      toolCalls: { total: 2, perCall: 0.5 },
      latency: { answers: 5, averageMs: 800 },
      outcome: {
        complete: 1,
        partial: 2,
        fields: [
          { field: 'guestName', filled: 2, rate: 0.5 },
          { field: 'visitDate', filled: 1, rate: 0.25 },
          { field: 'satisfactionRating', filled: 3, rate: 0.75 },
        ],
      },
    })
    const byTime = data.byTime as { timeBucket: string; calls: number; completed: number; failed: number }[]
    expect(byTime).toHaveLength(9)
    expect(byTime.at(-2)).toMatchObject({ timeBucket: '2026-11-17 00:00:00', calls: 1, completed: 1, failed: 0 })
    expect(byTime.at(-1)).toMatchObject({ timeBucket: '2026-11-18 00:00:00', calls: 3, completed: 2, failed: 1 })
  })

  it("reads satisfaction from the outcome's rating field, resolution from its completeness; no sentiment", async () => {
    const { service, desk, sales } = await world()
    const week = await dataOf(service, '/v1/agent-analytics/satisfaction?period=THIS_WEEK')
    // Ratings 5, 3, 4 on a 1-5 scale: two in the top two points. Complete 1 of 3 judged.
    expect(week).toEqual({
      npsScore: null,
      sentimentDistribution: null,
      csatScore: 66.67,
      firstCallResolutionPercentage: 33.33,
      escalationRate: 0,
      ratedCalls: 3,
      averageRating: 4,
      ratingFields: [{ voiceAgentId: desk, field: 'satisfactionRating', scale: 5 }],
    })
    const salesOnly = await dataOf(service, `/v1/agent-analytics/satisfaction?voiceAgentId=${sales}&period=THIS_WEEK`)
    expect(salesOnly).toMatchObject({ csatScore: null, firstCallResolutionPercentage: null, ratedCalls: 0, ratingFields: [] })
    const yesterday = await dataOf(service, '/v1/agent-analytics/satisfaction?period=YESTERDAY')
    expect(yesterday).toMatchObject({ csatScore: 100, ratedCalls: 1, averageRating: 4 })
  })

  it("exports an agent's calls as CSV, oldest first, filtered by status", async () => {
    const { service, desk } = await world()
    const response = await get(service, `/v1/agent-analytics/conversations/export?voiceAgentId=${desk}&period=THIS_WEEK`)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['content-type']).toContain('text/csv')
    const lines = response.body.trimEnd().split('\r\n')
    expect(lines[0]).toBe(
      'id,createdAt,voiceAgentId,agentName,status,endReason,durationSeconds,turns,interruptions,pokes,toolCalls,outcomeComplete,outcome',
    )
    expect(lines).toHaveLength(5)
    expect(lines[1]).toContain('2026-11-17T22:30:00.000Z')
    expect(lines[1]).toContain(',COMPLETED,silence,10,1,0,3,0,false,"{""guestName"":null')
    const failed = await get(service, `/v1/agent-analytics/conversations/export?voiceAgentId=${desk}&period=THIS_WEEK&status=FAILED`)
    expect(failed.body.trimEnd().split('\r\n')).toHaveLength(2)
  })

  it('counts a call made through conversation-init', async () => {
    const { service, sales } = await world()
    const init = await service.call('POST', '/v1/voice-agents/conversation-init', { body: { voiceAgentId: sales } })
    expect(init.statusCode, init.body).toBe(200)
    const jobId = init.json<{ data: { jobId: string } }>().data.jobId
    const statusOf = async () => String((await dataOf(service, `/v1/voice-agents/conversation/${jobId}`)).status)
    // Whatever becomes of it (it waits for a socket that never opens, then fails), it is counted under its
    // status: read between two reads of that status that agree (on a busy machine it may fail in between).
    for (;;) {
      const before = await statusOf()
      const data = await dataOf(service, `/v1/agent-analytics/calls?voiceAgentId=${sales}`)
      if ((await statusOf()) !== before) continue
      expect(data.calls).toBe(2)
      expect(data.byStatus).toEqual(before === 'IN_PROGRESS' ? { IN_PROGRESS: 2 } : { IN_PROGRESS: 1, [before]: 1 })
      break
    }
  })

  it("answers the other project's own figures with its key, never this project's", async () => {
    const { service, other } = await world()
    const response = await get(service, '/v1/agent-analytics/overview', other.key)
    expect(response.json().data).toMatchObject({ totalSessionsNumber: 1, totalSessionDuration: 999 })
  })

  it('answers many requests at once alike', async () => {
    const { service, desk } = await world()
    const urls = [`/v1/agent-analytics/calls?voiceAgentId=${desk}&period=THIS_MONTH`, '/v1/agent-analytics/overview?period=THIS_WEEK']
    const first = await Promise.all(urls.map((url) => dataOf(service, url)))
    const answers = await Promise.all(Array.from({ length: 24 }, (_, index) => dataOf(service, urls[index % 2] ?? '')))
    answers.forEach((answer, index) => expect(answer).toEqual(first[index % 2]))
  })

  const bad: [string, string][] = [
    ['an unknown period', 'period=LAST_YEAR'],
    ['CUSTOM without endPeriod', 'period=CUSTOM&startPeriod=1700000000000'],
    ['a start that is not milliseconds', 'period=CUSTOM&startPeriod=yesterday&endPeriod=1700000000000'],
    ['an end before the start', 'period=CUSTOM&startPeriod=1700000000000&endPeriod=1600000000000'],
    ['a range over 400 days', 'period=CUSTOM&startPeriod=1600000000000&endPeriod=1700000000000'],
    ['a time difference of 99 hours', 'timeDifference=99'],
    ['a time difference in words', 'timeDifference=east'],
    ['an agent id that is no uuid', 'voiceAgentId=desk'],
  ]
  it.each(bad)('refuses %s with a 400 in the envelope', async (_label, query) => {
    const { service } = await world()
    for (const path of ['overview', 'satisfaction', 'calls']) {
      const response = await get(service, `/v1/agent-analytics/${path}?${query}`)
      expect(response.statusCode, response.body).toBe(400)
      expect(response.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } })
    }
  })

  it("answers 404 for an agent that is not the project's, and 400 for an export without an agent", async () => {
    const { service, other } = await world()
    const foreign = await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Theirs' }, key: other.key })
    const theirs = foreign.json<{ data: { id: string } }>().data.id
    for (const id of [theirs, randomUUID()]) {
      const response = await get(service, `/v1/agent-analytics/overview?voiceAgentId=${id}`)
      expect(response.statusCode).toBe(404)
      expect(response.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } })
    }
    const noAgent = await get(service, '/v1/agent-analytics/conversations/export')
    expect(noAgent.statusCode).toBe(400)
  })
})

describe('GET /v1/projects/statistics/chart', () => {
  it("answers the project's jobs, credits and transcription minutes per day, tokens empty", async () => {
    const { service } = await world()
    const project = service.runtime.bootstrap.projectId
    const key = await keyOf(service, project)
    const user = service.runtime.bootstrap.userId
    await service.runtime.store.jobs.insert(
      jobRecord({
        projectId: project,
        apiKeyId: key,
        userId: user,
        usageSeconds: 90,
        totalCost: 3,
        createdAt: at('2026-11-17T09:00:00.000Z'),
      }),
    )
    await service.runtime.store.jobs.insert(
      jobRecord({ projectId: project, apiKeyId: key, userId: user, type: 'TTS', totalCost: 2, createdAt: at('2026-11-17T10:00:00.000Z') }),
    )
    const start = Date.parse('2026-11-16T00:00:00.000Z')
    const end = Date.parse('2026-11-18T23:59:59.999Z')
    const data = await dataOf(service, `/v1/projects/statistics/chart?startPeriod=${start}&endPeriod=${end}&projectId=${project}`)
    // Calls count as jobs too: 1 the 17th (22:30), 4 the 18th; credits of the calls are those jobRecord gives (3 each, completed only).
    expect(data).toEqual({
      requests: [
        { date: '2026-11-16T00:00:00.000Z', value: 0, unit: 'jobs' },
        { date: '2026-11-17T00:00:00.000Z', value: 3, unit: 'jobs' },
        { date: '2026-11-18T00:00:00.000Z', value: 4, unit: 'jobs' },
      ],
      cost: [
        { date: '2026-11-16T00:00:00.000Z', value: 0, unit: 'credits' },
        { date: '2026-11-17T00:00:00.000Z', value: 3 + 2 + 3, unit: 'credits' },
        { date: '2026-11-18T00:00:00.000Z', value: 3 + 3, unit: 'credits' },
      ],
      transcription: [
        { date: '2026-11-16T00:00:00.000Z', value: 0, unit: 'minutes' },
        { date: '2026-11-17T00:00:00.000Z', value: 1.5, unit: 'minutes' },
        { date: '2026-11-18T00:00:00.000Z', value: 0, unit: 'minutes' },
      ],
      tokens: [],
    })
    const other = await get(service, `/v1/projects/statistics/chart?startPeriod=${start}&endPeriod=${end}&projectId=${randomUUID()}`)
    expect(other.statusCode).toBe(404)
    const missing = await get(service, `/v1/projects/statistics/chart?startPeriod=${start}`)
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } })
  })
})
