import BetterSqlite3 from 'better-sqlite3'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { JOB_ERROR_CODES } from '../../src/shared/api/job-error-codes'
import type { AnalyticsRepository, Store } from '../../src/store/ports'
import { PostgresAccountsRepository } from '../../src/store/postgres/accounts-repository'
import { PostgresAnalyticsRepository } from '../../src/store/postgres/analytics-repository'
import { clientDb } from '../../src/store/postgres/db'
import { PostgresJobsRepository } from '../../src/store/postgres/jobs-repository'
import { migrate as migratePostgres } from '../../src/store/postgres/migrate'
import { MIGRATIONS as POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations'
import { openPostgresStore } from '../../src/store/postgres/store'
import type { ConversationFactsRow, JobRecord, JobsByDayRow, ProjectRow } from '../../src/store/records'
import { SqliteAccountsRepository } from '../../src/store/sqlite/accounts-repository'
import { SqliteAnalyticsRepository } from '../../src/store/sqlite/analytics-repository'
import { SqliteJobsRepository } from '../../src/store/sqlite/jobs-repository'
import { migrate as migrateSqlite } from '../../src/store/sqlite/migrate'
import { MIGRATIONS as SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations'
import { openSqliteStore } from '../../src/store/sqlite/store'
import { jobRecord } from '../helpers/job-record'
import { lazyPostgresCluster, P1, P2, seedAccounts } from '../helpers/store-fixtures'
import { makeTempDir } from '../helpers/temp-dir'

/*
 * The analytics rollup (SQLite migration 0012, PostgreSQL 0016) against a direct count: random
 * calls and jobs written, started, saved, completed, failed, deleted and moved in time, then
 * every analytics read over ranges that cut quarter hours anywhere (and local days at odd
 * offsets from UTC) compared with the same figures computed here from the records the store
 * holds. Figures are multiples of 1/4, so every sum is exact in any order: answers must be equal.
 */

const postgresCluster = lazyPostgresCluster()

const ENGINES: { name: string; open: () => Promise<Store> }[] = [
  { name: 'sqlite', open: async () => openSqliteStore(join(makeTempDir(), 'voicedesk.db')) },
  { name: 'postgres', open: async () => openPostgresStore({ url: await (await postgresCluster()).createDatabase() }) },
]

const START = Date.parse('2024-05-01T00:00:00.000Z')
const SPAN = 3 * 86_400_000
const QUARTER = 15 * 60_000
const AGENTS = ['agent-1', 'agent-2', null]
const FIELDS = ['name', 'stars', 'satisfactionRating', 'score', 'missing']

/** A small seeded generator (mulberry32): the same calls on every run and engine. */
function randomOf(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function facts(state: Record<string, unknown>, record: JobRecord) {
  const number = (value: unknown) => (typeof value === 'number' ? value : null)
  const length = (value: unknown) => (Array.isArray(value) ? value.length : null)
  const delays = (state.answerDelays ?? {}) as Record<string, unknown>
  const outcome = state.outcomeResult
  return {
    endReason: typeof state.endReason === 'string' ? state.endReason : null,
    seconds: typeof state.startedAt === 'string' ? record.usageSeconds : null,
    turns: length(state.transcript),
    bargeIns: number(state.bargeIns),
    pokes: number(state.pokes),
    toolCalls: length(state.toolCalls),
    answers: number(delays.answers),
    answerSeconds: number(delays.seconds),
    complete: typeof state.outcomeComplete === 'boolean' ? state.outcomeComplete : null,
    outcome: outcome !== null && typeof outcome === 'object' && !Array.isArray(outcome) ? (outcome as Record<string, unknown>) : null,
  }
}

interface Range {
  from: string
  to: string
}

/** What the reads must answer, counted from the records alone. */
function expected(records: readonly JobRecord[], range: Range) {
  const inRange = records.filter((job) => job.projectId === P1 && job.createdAt >= range.from && job.createdAt < range.to)
  const calls = inRange.filter((job) => job.type === 'CONVERSATION')
  const factRows = (voiceAgentId: string | undefined, quarters: boolean): ConversationFactsRow[] => {
    const groups = new Map<string, ConversationFactsRow>()
    for (const job of calls) {
      if (voiceAgentId !== undefined && job.voiceAgentId !== voiceAgentId) continue
      const kept = facts(job.jobResponse as Record<string, unknown>, job)
      const minutes = quarters ? String(Math.floor(Number(job.createdAt.slice(14, 16)) / 15) * 15).padStart(2, '0') : '00'
      const bucket = `${job.createdAt.slice(0, 14)}${minutes}`
      const key = `${bucket}|${job.status}|${kept.endReason ?? '\u0000'}`
      const row = groups.get(key) ?? {
        ...{ bucket, status: job.status, endReason: kept.endReason, calls: 0, timedCalls: 0, seconds: 0 },
        ...{ shortCalls: 0, mediumCalls: 0, longCalls: 0, turns: 0, bargeIns: 0, pokes: 0, toolCalls: 0 },
        ...{ answers: 0, answerSeconds: 0, outcomeComplete: 0, outcomePartial: 0 },
      }
      groups.set(key, row)
      row.calls += 1
      if (kept.seconds !== null) {
        row.timedCalls += 1
        row.seconds += kept.seconds
        if (kept.seconds < 60) row.shortCalls += 1
        else if (kept.seconds <= 300) row.mediumCalls += 1
        else row.longCalls += 1
      }
      row.turns += kept.turns ?? 0
      row.bargeIns += kept.bargeIns ?? 0
      row.pokes += kept.pokes ?? 0
      row.toolCalls += kept.toolCalls ?? 0
      row.answers += kept.answers ?? 0
      row.answerSeconds += kept.answerSeconds ?? 0
      if (kept.complete === true) row.outcomeComplete += 1
      if (kept.complete === false) row.outcomePartial += 1
    }
    return sortedFacts([...groups.values()])
  }
  const outcomes = calls
    .filter((job) => job.voiceAgentId === 'agent-1')
    .map((job) => facts(job.jobResponse as Record<string, unknown>, job).outcome)
    .filter((outcome) => outcome !== null)
  const ratings = (field: string) => {
    const counts = new Map<number, number>()
    for (const outcome of outcomes) {
      const value = outcome[field]
      if (typeof value === 'number') counts.set(value, (counts.get(value) ?? 0) + 1)
    }
    return [...counts].sort(([a], [b]) => a - b).map(([value, count]) => ({ value, calls: count }))
  }
  const byDay = (offsetMinutes: number): JobsByDayRow[] => {
    const days = new Map<string, JobsByDayRow>()
    for (const job of inRange) {
      const day = new Date(Date.parse(job.createdAt) + offsetMinutes * 60_000).toISOString().slice(0, 10)
      const row = days.get(day) ?? { day, jobs: 0, cost: 0, transcriptionSeconds: 0 }
      days.set(day, row)
      row.jobs += 1
      if (job.status === 'COMPLETED') {
        row.cost += job.totalCost
        if (job.type === 'TRANSCRIPTION') row.transcriptionSeconds += job.usageSeconds ?? 0
      }
    }
    return [...days.values()].sort((a, b) => a.day.localeCompare(b.day))
  }
  return {
    factRows,
    fields: FIELDS.map((field) => ({ field, filled: outcomes.filter((outcome) => (outcome[field] ?? null) !== null).length })),
    ratings,
    byDay,
  }
}

/** UTC rows gathered into local hours or days, as the store's `local` gathers them. */
function localRows(rows: readonly ConversationFactsRow[], offsetMinutes: number, bucket: 'hour' | 'day'): ConversationFactsRow[] {
  const groups = new Map<string, ConversationFactsRow>()
  for (const row of rows) {
    const iso = new Date(Date.parse(`${row.bucket}:00.000Z`) + offsetMinutes * 60_000).toISOString()
    const label = `${iso.slice(0, 10)} ${bucket === 'hour' ? iso.slice(11, 13) : '00'}:00:00`
    const key = `${label}|${row.status}|${row.endReason ?? '\u0000'}`
    const group = groups.get(key)
    if (!group) {
      groups.set(key, { ...row, bucket: label })
      continue
    }
    for (const [field, value] of Object.entries(row)) {
      if (typeof value === 'number')
        (group as unknown as Record<string, number>)[field] = ((group as unknown as Record<string, number>)[field] ?? 0) + value
    }
  }
  return sortedFacts([...groups.values()])
}

function sortedFacts(rows: ConversationFactsRow[]): ConversationFactsRow[] {
  const key = (row: ConversationFactsRow) => `${row.bucket}|${row.status}|${row.endReason ?? '\u0000'}`
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
}

/** A call's state: right kinds mostly, now and then the wrong ones; every number a multiple of 1/4. */
function randomState(random: () => number, createdAt: string): Record<string, unknown> {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T
  const quarterOf = (top: number) => Math.floor(random() * top * 4) / 4
  const state: Record<string, unknown> = {}
  if (random() < 0.85) state.startedAt = createdAt
  else if (random() < 0.5) state.startedAt = 7
  state.endReason = pick(['smart-end', 'silence', 'caller-hangup', 'max-duration', null, 3, ''])
  state.transcript = random() < 0.9 ? Array.from({ length: Math.floor(random() * 6) }, () => ({})) : 'long'
  state.toolCalls = random() < 0.9 ? Array.from({ length: Math.floor(random() * 3) }, () => ({})) : {}
  state.bargeIns = random() < 0.9 ? quarterOf(4) : 'many'
  if (random() < 0.8) state.pokes = quarterOf(3)
  state.answerDelays = random() < 0.9 ? { answers: Math.floor(random() * 5), seconds: quarterOf(6) } : { answers: 'x' }
  if (random() < 0.8) {
    state.outcomeResult =
      random() < 0.95
        ? {
            name: pick(['Sara', null, 'Omar']),
            stars: pick([1, 2, 4, 4.5, null, 'five']),
            satisfactionRating: pick([1, 2, 3, 5, 9, 10, null, 'ten']),
            ...(random() < 0.5 ? { score: quarterOf(10) } : {}),
          }
        : ['not', 'an', 'object']
  }
  if (random() < 0.8) state.outcomeComplete = random() < 0.6
  else if (random() < 0.5) state.outcomeComplete = 'yes'
  return state
}

function randomTime(random: () => number): string {
  // A third fall on a quarter hour's first or last millisecond, or near a day's edge.
  const kind = random()
  let at = START + Math.floor(random() * SPAN)
  if (kind < 0.15) at = Math.floor(at / QUARTER) * QUARTER
  else if (kind < 0.3) at = Math.floor(at / QUARTER) * QUARTER - 1
  else if (kind < 0.35) at = Math.floor(at / 86_400_000) * 86_400_000 + (random() < 0.5 ? -1 : 1) * Math.floor(random() * QUARTER * 2)
  return new Date(Math.max(START, at)).toISOString()
}

function randomRanges(random: () => number): Range[] {
  const iso = (ms: number) => new Date(ms).toISOString()
  const ranges: Range[] = [
    { from: iso(START - 86_400_000), to: iso(START + SPAN + 86_400_000) },
    { from: iso(START + 7 * QUARTER), to: iso(START + 90 * QUARTER) },
    { from: iso(START + 3 * QUARTER + 1), to: iso(START + 3 * QUARTER + 600_000) },
    { from: iso(START + 5 * QUARTER), to: iso(START + 5 * QUARTER) },
    // Local days 3 h behind and 5 h 45 min ahead of UTC.
    { from: iso(START + 3 * 3_600_000), to: iso(START + 2 * 86_400_000 + 3 * 3_600_000) },
    { from: iso(START + 86_400_000 - 345 * 60_000), to: iso(START + 2 * 86_400_000 - 345 * 60_000) },
  ]
  for (let index = 0; index < 4; index += 1) {
    const a = START + Math.floor(random() * SPAN)
    const b = a + Math.floor(random() * SPAN * 0.6)
    ranges.push({ from: iso(a), to: iso(b) })
  }
  return ranges
}

/** Every analytics read over every range, against the count of `records` (the project's jobs). */
async function expectAnswers(analytics: AnalyticsRepository, records: readonly JobRecord[], ranges: readonly Range[], phase: string) {
  for (const range of ranges) {
    const want = expected(records, range)
    const where = `${phase}, ${range.from} to ${range.to}`
    for (const voiceAgentId of [undefined, 'agent-1']) {
      for (const quarterHours of [false, true]) {
        const query = { ...range, quarterHours, ...(voiceAgentId ? { voiceAgentId } : {}) }
        expect(sortedFacts(await analytics.conversationFacts(P1, query)), `${where}, ${voiceAgentId} ${quarterHours}`).toEqual(
          want.factRows(voiceAgentId, quarterHours),
        )
      }
    }
    // Gathered into local hours and days, as the operations ask (quarter hours where local time is a part of an hour away).
    for (const offsetMinutes of [0, -180, 330, 7]) {
      const quarterHours = offsetMinutes % 60 !== 0
      for (const bucket of ['hour', 'day'] as const) {
        const query = { ...range, quarterHours, local: { offsetMinutes, bucket } }
        expect(sortedFacts(await analytics.conversationFacts(P1, query)), `${where}, local ${offsetMinutes} ${bucket}`).toEqual(
          localRows(want.factRows(undefined, quarterHours), offsetMinutes, bucket),
        )
      }
    }
    expect(await analytics.outcomeFields(P1, 'agent-1', FIELDS, range.from, range.to), where).toEqual(want.fields)
    for (const field of ['satisfactionRating', 'score', 'stars']) {
      expect(await analytics.ratingValues(P1, 'agent-1', field, range.from, range.to), `${where}, ${field}`).toEqual(want.ratings(field))
    }
    for (const offset of [0, -180, 345, 330, -7]) {
      expect(await analytics.jobsByDay(P1, range.from, range.to, offset), `${where}, offset ${offset}`).toEqual(want.byDay(offset))
    }
  }
}

/** Calls of two agents (and none), other jobs, a tenth of them another project's. */
function randomJobs(random: () => number, count: number): JobRecord[] {
  return Array.from({ length: count }, () => {
    const createdAt = randomTime(random)
    const kind = random()
    const projectId = random() < 0.1 ? P2 : P1
    const status = (['PENDING', 'COMPLETED', 'FAILED'] as const)[Math.floor(random() * 3)]
    const common = { projectId, apiKeyId: projectId === P1 ? 'key-1' : 'key-2', status, createdAt, updatedAt: createdAt }
    return kind < 0.8
      ? jobRecord({
          ...common,
          type: 'CONVERSATION',
          voiceAgentId: AGENTS[Math.floor(random() * AGENTS.length)] ?? null,
          jobResponse: randomState(random, createdAt),
          usageSeconds: random() < 0.9 ? Math.floor(random() * 400 * 4) / 4 : null,
          totalCost: Math.floor(random() * 8) / 4,
        })
      : jobRecord({
          ...common,
          type: random() < 0.5 ? 'TRANSCRIPTION' : 'TTS',
          usageSeconds: random() < 0.8 ? Math.floor(random() * 100 * 4) / 4 : null,
          totalCost: Math.floor(random() * 12) / 4,
        })
  })
}

describe.each(ENGINES)('analytics rollup against a direct count: $name', (engine) => {
  let store: Store | undefined
  afterAll(async () => {
    await store?.close()
  })

  it('answers as the calls do, through inserts, starts, saves, completions, failures, deletions and moves', async () => {
    const opened = await engine.open()
    store = opened
    await seedAccounts(opened)
    const random = randomOf(27)
    const ranges = randomRanges(random)
    const ids: string[] = []

    const check = async (phase: string) => {
      const records: JobRecord[] = []
      for await (const row of opened.projectData.exportProject(P1)) if (row.kind === 'job') records.push(row.record)
      await expectAnswers(opened.analytics, records, ranges, phase)
    }

    // Calls of two agents (and none), other jobs, and another project's calls.
    for (const record of randomJobs(random, 240)) {
      await opened.jobs.insert(record)
      if (record.type === 'CONVERSATION' && record.status === 'PENDING' && record.projectId === P1) ids.push(record.id)
    }
    await check('inserted')

    // Live calls: started, saved (their state and status change), then completed or failed; some left running.
    for (const [index, id] of ids.entries()) {
      const progress = () => {
        const createdAt = new Date().toISOString()
        return {
          text: 'x',
          jobResponse: randomState(random, createdAt),
          usageSeconds: Math.floor(random() * 400 * 4) / 4,
          totalCost: 1,
        }
      }
      await opened.conversations.start(id, 'host', Date.now() + 60_000, progress(), new Date().toISOString())
      await opened.conversations.save(id, 'host', progress(), Date.now() + 60_000, new Date().toISOString())
      if (index % 3 === 0) await opened.jobs.complete(id, 'host', progress(), new Date().toISOString())
      else if (index % 3 === 1) await opened.jobs.fail(id, 'host', JOB_ERROR_CODES[0], 'failed', new Date().toISOString())
    }
    await check('started, saved, completed and failed')

    // Deletions and moves: the project's rows back without every fifth call, and every seventh moved in time.
    const rows: ProjectRow[] = []
    for await (const row of opened.projectData.exportProject(P1)) rows.push(row)
    let count = 0
    const kept = rows.flatMap((row): ProjectRow[] => {
      if (row.kind !== 'job') return [row]
      count += 1
      if (count % 5 === 0) return []
      if (count % 7 === 0) return [{ kind: 'job', record: { ...row.record, createdAt: randomTime(random) } }]
      return [row]
    })
    await opened.projectData.replaceProject(P1, kept)
    await check('deleted and moved')

    // SQLite loads a project with its summing triggers off and sums it once: they are back for what comes after.
    for (const record of randomJobs(random, 40)) await opened.jobs.insert(record)
    await check('written after a load')

    // A load that fails halfway (a job twice) changes nothing, triggers included.
    const firstJob = kept.find((row) => row.kind === 'job')!
    await expect(opened.projectData.replaceProject(P1, [...kept, firstJob])).rejects.toThrow()
    for (const record of randomJobs(random, 20)) await opened.jobs.insert(record)
    await check('written after a failed load')
  }, 120_000)
})

describe('the analytics-rollup migration', () => {
  const ranges = randomRanges(randomOf(12))

  it('SQLite: sums the jobs already there', async () => {
    const db = new BetterSqlite3(join(makeTempDir(), 'voicedesk.db'))
    try {
      db.pragma('foreign_keys = ON')
      const before = SQLITE_MIGRATIONS.findIndex((migration) => migration.name === 'analytics-rollup')
      expect(before).toBeGreaterThan(0)
      migrateSqlite(db, SQLITE_MIGRATIONS.slice(0, before))
      await seedAccounts({ accounts: new SqliteAccountsRepository(db) } as Pick<Store, 'accounts'> as Store)
      const jobs = new SqliteJobsRepository(db)
      const records = randomJobs(randomOf(12), 200)
      for (const record of records) await jobs.insert(record)
      migrateSqlite(db, SQLITE_MIGRATIONS)
      await expectAnswers(new SqliteAnalyticsRepository(db), records, ranges, 'migrated')
    } finally {
      db.close()
    }
  })

  it('PostgreSQL: sums the jobs already there', async () => {
    const client = new pg.Client({ connectionString: await (await postgresCluster()).createDatabase() })
    await client.connect()
    try {
      const before = POSTGRES_MIGRATIONS.findIndex((migration) => migration.name === 'analytics-rollup')
      expect(before).toBeGreaterThan(0)
      await migratePostgres(client, POSTGRES_MIGRATIONS.slice(0, before))
      const db = clientDb(client)
      await seedAccounts({ accounts: new PostgresAccountsRepository(db) } as Pick<Store, 'accounts'> as Store)
      const jobs = new PostgresJobsRepository(db)
      const records = randomJobs(randomOf(12), 200)
      for (const record of records) await jobs.insert(record)
      await migratePostgres(client, POSTGRES_MIGRATIONS)
      await expectAnswers(new PostgresAnalyticsRepository(db), records, ranges, 'migrated')
    } finally {
      await client.end()
    }
  })
})
