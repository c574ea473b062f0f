import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Store } from '../../src/store/ports'
import { openPostgresStore } from '../../src/store/postgres/store'
import type { JobRecord, ProjectRow } from '../../src/store/records'
import { openSqliteStore } from '../../src/store/sqlite/store'
import { jobRecord } from '../helpers/job-record'
import { makeTempDir } from '../helpers/temp-dir'
import { lazyPostgresCluster, P1, P2, seedAccounts } from '../helpers/store-fixtures'

/*
 * The analytics part of the storage port, on both engines: what a call kept is counted from its
 * state as written (insert, start, save, complete), follows an export and an import, reads as
 * null when a hand-written state holds the wrong kinds (never failing the write), and never
 * mixes projects.
 */

const postgresCluster = lazyPostgresCluster()

const ENGINES: { name: string; open: () => Promise<Store> }[] = [
  { name: 'sqlite', open: async () => openSqliteStore(join(makeTempDir(), 'voicedesk.db')) },
  { name: 'postgres', open: async () => openPostgresStore({ url: await (await postgresCluster()).createDatabase() }) },
]

const DAY = { from: '2024-05-01T00:00:00.000Z', to: '2024-05-02T00:00:00.000Z' }

function call(fields: Partial<JobRecord> & { state?: Record<string, unknown> }): JobRecord {
  const { state, ...rest } = fields
  return jobRecord({
    projectId: P1,
    type: 'CONVERSATION',
    status: 'COMPLETED',
    voiceAgentId: 'agent-1',
    jobResponse: state ?? {},
    usageSeconds: 30,
    createdAt: '2024-05-01T10:00:00.000Z',
    updatedAt: '2024-05-01T10:00:00.000Z',
    ...rest,
  })
}

const STATE = {
  startedAt: '2024-05-01T10:00:00.000Z',
  endReason: 'smart-end',
  transcript: [{}, {}, {}],
  toolCalls: [{}],
  bargeIns: 2,
  pokes: 1,
  answerDelays: { answers: 2, seconds: 1.5 },
  outcomeResult: { name: 'Sara', day: null, stars: 4 },
  outcomeComplete: true,
}

describe.each(ENGINES)('analytics repository: $name', (engine) => {
  const opened: Store[] = []
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close()
  })
  async function open(): Promise<Store> {
    const store = await engine.open()
    opened.push(store)
    await seedAccounts(store)
    return store
  }
  const query = { ...DAY, quarterHours: false }

  it("counts what a call's state says, per bucket, status and end reason, of one project", async () => {
    const store = await open()
    await store.jobs.insert(call({ state: STATE }))
    await store.jobs.insert(
      call({ state: { ...STATE, endReason: 'silence', outcomeComplete: false }, usageSeconds: 400, createdAt: '2024-05-01T10:30:00.000Z' }),
    )
    await store.jobs.insert(call({ projectId: P2, apiKeyId: 'key-2', state: STATE }))
    await store.jobs.insert(call({ state: STATE, createdAt: '2024-05-02T00:00:00.000Z' }))
    await store.jobs.insert(jobRecord({ projectId: P1, createdAt: '2024-05-01T11:00:00.000Z' }))
    const rows = await store.analytics.conversationFacts(P1, query)
    const common = { bucket: '2024-05-01T10:00', status: 'COMPLETED', calls: 1, timedCalls: 1, turns: 3, bargeIns: 2, pokes: 1 }
    expect(rows).toEqual([
      {
        ...common,
        endReason: 'silence',
        seconds: 400,
        shortCalls: 0,
        mediumCalls: 0,
        longCalls: 1,
        toolCalls: 1,
        answers: 2,
        answerSeconds: 1.5,
        outcomeComplete: 0,
        outcomePartial: 1,
      },
      {
        ...common,
        endReason: 'smart-end',
        seconds: 30,
        shortCalls: 1,
        mediumCalls: 0,
        longCalls: 0,
        toolCalls: 1,
        answers: 2,
        answerSeconds: 1.5,
        outcomeComplete: 1,
        outcomePartial: 0,
      },
    ])
    expect(await store.analytics.conversationFacts(P1, { ...query, voiceAgentId: 'agent-2' })).toEqual([])
    expect(await store.analytics.outcomeFields(P1, 'agent-1', ['name', 'day', 'stars', 'missing'], DAY.from, DAY.to)).toEqual([
      { field: 'name', filled: 2 },
      { field: 'day', filled: 0 },
      { field: 'stars', filled: 2 },
      { field: 'missing', filled: 0 },
    ])
    expect(await store.analytics.ratingValues(P1, 'agent-1', 'stars', DAY.from, DAY.to)).toEqual([{ value: 4, calls: 2 }])
    const exported = await store.analytics.exportConversations(P1, { ...DAY, limit: 10, status: 'COMPLETED' })
    expect(exported.map((row) => [row.endReason, row.seconds, row.outcomeComplete, row.outcome])).toEqual([
      ['smart-end', 30, true, '{"name":"Sara","day":null,"stars":4}'],
      ['silence', 400, false, '{"name":"Sara","day":null,"stars":4}'],
    ])
    expect(await store.analytics.jobsByDay(P1, DAY.from, '2024-05-03T00:00:00.000Z', 0)).toEqual([
      { day: '2024-05-01', jobs: 3, cost: 9, transcriptionSeconds: 42 },
      { day: '2024-05-02', jobs: 1, cost: 3, transcriptionSeconds: 0 },
    ])
  })

  it('follows the state as a live call writes it, and after an export and an import', async () => {
    const store = await open()
    await store.jobs.insert(call({ id: 'live', status: 'PENDING', state: {}, usageSeconds: null }))
    expect((await store.analytics.conversationFacts(P1, query))[0]).toMatchObject({ status: 'PENDING', endReason: null, timedCalls: 0 })
    const progress = (state: Record<string, unknown>, usageSeconds: number) => ({
      text: 'x',
      jobResponse: state,
      usageSeconds,
      totalCost: 1,
    })
    await store.conversations.start('live', 'host', 10_000, progress({ ...STATE, endReason: null, bargeIns: 0 }, 1), DAY.from)
    expect((await store.analytics.conversationFacts(P1, query))[0]).toMatchObject({ status: 'IN_PROGRESS', bargeIns: 0, seconds: 1 })
    await store.conversations.save('live', 'host', progress({ ...STATE, endReason: null, bargeIns: 5 }, 9), 10_000, DAY.from)
    expect((await store.analytics.conversationFacts(P1, query))[0]).toMatchObject({ bargeIns: 5, seconds: 9 })
    await store.jobs.complete('live', 'host', { jobResponse: { ...STATE, bargeIns: 6 }, usageSeconds: 12, totalCost: 1 }, DAY.from)
    const ended = await store.analytics.conversationFacts(P1, query)
    expect(ended).toEqual([expect.objectContaining({ status: 'COMPLETED', endReason: 'smart-end', bargeIns: 6, seconds: 12 })])
    const rows: ProjectRow[] = []
    for await (const row of store.projectData.exportProject(P1)) rows.push(row)
    await store.projectData.replaceProject(P1, [])
    expect(await store.analytics.conversationFacts(P1, query)).toEqual([])
    await store.projectData.replaceProject(P1, rows)
    expect(await store.analytics.conversationFacts(P1, query)).toEqual(ended)
  })

  it('reads values of the wrong kind as nothing, and writes the call all the same', async () => {
    const store = await open()
    const odd = { startedAt: 7, endReason: 3, transcript: 'long', toolCalls: {}, bargeIns: 'many', pokes: 1.5, outcomeComplete: 'yes' }
    await store.jobs.insert(call({ state: odd, text: 'zero \u0000 byte' }))
    await store.jobs.insert(call({ state: { ...STATE, transcript: [{ content: 'a \u0000 b' }] } }))
    const rows = await store.analytics.conversationFacts(P1, query)
    expect(rows.reduce((total, row) => total + row.calls, 0)).toBe(2)
    const odds = rows.find((row) => row.endReason !== 'smart-end')
    expect(odds).toMatchObject({ timedCalls: 0, turns: 0, toolCalls: 0, outcomeComplete: 0, outcomePartial: 0 })
  })
})
