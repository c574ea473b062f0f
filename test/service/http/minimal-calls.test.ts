import { describe, expect, it } from 'vitest'
import { MinimalCallListEnvelopeSchema } from '../../../src/shared/api/calls'
import { conversationNotStarted } from '../../../src/service/ops/conversations'
import { seedJob } from '../../helpers/seed-jobs'
import { startTestService, type TestService } from '../../helpers/test-service'

const LIST = '/v1/voice-agents/conversations/minimal-list'

async function addAgent(service: TestService, agentName: string, key?: string) {
  const response = await service.call('POST', '/v1/voice-agents', { body: { agentName, params: { name: 'Lina' } }, key })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as { id: string; agentName: string }
}

/** A finished call of `agent`, created at `createdAt`, that lasted `seconds`. */
function seedCall(
  service: TestService,
  agent: { id: string; agentName: string },
  createdAt: string,
  seconds: number,
  status = 'COMPLETED',
) {
  const startedAt = createdAt
  const endedAt = new Date(Date.parse(createdAt) + seconds * 1000).toISOString()
  return seedJob(service.runtime, {
    type: 'CONVERSATION',
    status: status as 'COMPLETED',
    title: `Call with ${agent.agentName}`,
    voiceAgentId: agent.id,
    agentDetails: agent.agentName,
    usageSeconds: seconds,
    jobResponse: { ...conversationNotStarted('offline'), startedAt, endedAt, endReason: 'caller-hangup', params: { name: 'Omar' } },
    createdAt,
    updatedAt: endedAt,
  })
}

async function list(service: TestService, query = '', key?: string) {
  const response = await service.call('GET', `${LIST}${query}`, { key })
  expect(response.statusCode, response.body).toBe(200)
  return MinimalCallListEnvelopeSchema.parse(response.json()).data
}

describe('GET /v1/voice-agents/conversations/minimal-list', () => {
  it("lists the project's calls newest first, in the reference's shape, filtered and paged", async () => {
    const service = await startTestService()
    const support = await addAgent(service, 'Support')
    const sales = await addAgent(service, 'Sales')
    await seedCall(service, support, '2026-01-01T10:00:00.000Z', 35)
    await seedCall(service, sales, '2026-01-02T10:00:00.000Z', 12.5, 'FAILED')
    await seedCall(service, support, '2026-01-03T10:00:00.000Z', 60)
    const started = await service.call('POST', '/v1/voice-agents/conversation-init', { body: { voiceAgentId: sales.id } })
    const pendingId = started.json().data.jobId as string
    await seedJob(service.runtime, { type: 'TTS', title: 'Not a call' })

    const all = await list(service)
    expect(all.total).toBe(4)
    expect(all.filtered).toBe(4)
    expect(all.calls[0]).toMatchObject({ id: pendingId, status: 'PENDING', duration: 0, channelType: 'Web', callParams: { name: 'Lina' } })
    expect(all.calls.slice(1).map((call) => call.createdAt)).toEqual([
      '2026-01-03T10:00:00.000Z',
      '2026-01-02T10:00:00.000Z',
      '2026-01-01T10:00:00.000Z',
    ])
    expect(all.calls[3]).toEqual({
      id: expect.any(String),
      createdAt: '2026-01-01T10:00:00.000Z',
      status: 'COMPLETED',
      voiceAgentId: support.id,
      agentName: 'Support',
      duration: 35,
      channelType: 'Web',
      callParams: { name: 'Omar' },
    })

    const bySupport = await list(service, `?voiceAgentId=${support.id}`)
    expect(bySupport).toMatchObject({ total: 4, filtered: 2 })
    expect(bySupport.calls.every((call) => call.voiceAgentId === support.id)).toBe(true)

    const twoStatuses = await list(service, '?status=FAILED&status=PENDING')
    expect(twoStatuses.calls.map((call) => call.status).sort()).toEqual(['FAILED', 'PENDING'])
    expect((await list(service, '?status=NO_ANSWER')).filtered).toBe(0)

    const range = await list(service, `?startTime=${Date.parse('2026-01-02T00:00:00Z')}&endTime=${Date.parse('2026-01-03T10:00:00Z')}`)
    expect(range.calls.map((call) => call.createdAt)).toEqual(['2026-01-03T10:00:00.000Z', '2026-01-02T10:00:00.000Z'])

    const page1 = await list(service, '?perPage=3&page=1')
    const page2 = await list(service, '?perPage=3&page=2')
    expect(page1.calls).toHaveLength(3)
    expect(page2.calls).toHaveLength(1)
    expect(new Set([...page1.calls, ...page2.calls].map((call) => call.id)).size).toBe(4)
  })

  const invalid: [string, string, string][] = [
    ['a page of 0', '?page=0', 'query.page'],
    ['more than 200 per page', '?perPage=201', 'query.perPage'],
    ['an unknown status', '?status=DONE', 'query.status'],
    ['a time that is not a number', '?startTime=yesterday', 'query.startTime'],
    ['an end before the start', '?startTime=2000&endTime=1000', 'query.endTime'],
    ['an agent id that is not a UUID', '?voiceAgentId=agent-1', 'query.voiceAgentId'],
    ['a page given twice', '?page=1&page=2', 'query.page'],
  ]
  it.each(invalid)('refuses %s with a 400 naming the parameter', async (_label, query, path) => {
    const service = await startTestService()
    const response = await service.call('GET', `${LIST}${query}`)
    expect(response.statusCode, response.body).toBe(400)
    expect(response.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } })
    expect(response.json().error.details.map((detail: { path: string }) => detail.path)).toContain(path)
  })

  it("answers 404 for an unknown agent and never shows another project's calls", async () => {
    const service = await startTestService()
    const mine = await addAgent(service, 'Mine')
    await seedCall(service, mine, '2026-01-01T10:00:00.000Z', 10)
    const other = await service.otherProject()
    const theirs = await list(service, '', other.key)
    expect(theirs).toEqual({ total: 0, filtered: 0, calls: [] })
    const response = await service.call('GET', `${LIST}?voiceAgentId=${mine.id}`, { key: other.key })
    expect(response.statusCode).toBe(404)
    expect(response.json().error.code).toBe('NOT_FOUND')
    expect((await service.call('GET', LIST, { key: null })).statusCode).toBe(401)
  })

  it('answers hostile text in the query with a clear 400, and many lists at once agree', async () => {
    const service = await startTestService()
    const agent = await addAgent(service, 'Busy')
    for (let index = 0; index < 12; index += 1)
      await seedCall(service, agent, new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(), index)
    const hostile = await service.call(
      'GET',
      `${LIST}?voiceAgentId=${encodeURIComponent("' OR 1=1 --")}&status=${encodeURIComponent('COMPLETED)--')}`,
    )
    expect(hostile.statusCode).toBe(400)
    const pages = await Promise.all(Array.from({ length: 12 }, (_, index) => list(service, `?perPage=1&page=${index + 1}`)))
    expect(new Set(pages.map((page) => page.calls[0]!.id)).size).toBe(12)
    expect(pages.every((page) => page.total === 12)).toBe(true)
  })
})
