/**
 * Job benchmarks on SQLite: the list and search at 1,000,000 jobs, the pickup latency from
 * enqueue to the runner starting the job, and jobs run per second. The seeded jobs, the list
 * queries and the throughput measurement are shared with bench/postgres.ts, so both stores
 * answer the same questions. Runnable alone: `npx tsx bench/jobs.ts`.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createAiContentJob, listJobs } from '../src/service/ops/jobs'
import { createRuntime, type Runtime } from '../src/service/runtime'
import type { Store } from '../src/store/ports'
import type { SqliteStore } from '../src/store/sqlite/store'
import type { JobRecord } from '../src/store/records'
import { seedJob } from '../test/helpers/seed-jobs'

export const JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000)
const QUERIES = 200
/** AI-content jobs run per throughput measurement. */
export const THROUGHPUT_JOBS = Number(process.env.BENCH_THROUGHPUT_JOBS ?? 2_000)

const WORDS = `account address agent answer appointment balance billing booking call callback cancel card case change
charge check claim clinic confirm contract customer date delivery delay dentist discount doctor driver email error estimate
feedback flight follow form hotel insurance invoice issue late lead list manager meeting message order package password
payment phone plan policy price problem product quote refund renewal repair report request reservation return room route
schedule service shipment signup status subscription support survey table technician ticket transfer trial upgrade visit
warranty window`.split(/\s+/)

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 1000) / 1000
}

export async function timeQueries(run: () => Promise<unknown>): Promise<{ p50: number; p99: number; max: number }> {
  for (let warm = 0; warm < 10; warm += 1) await run()
  const times: number[] = []
  for (let index = 0; index < QUERIES; index += 1) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: percentile(times, 100) }
}

/**
 * The fields of seeded job `index`, as finished jobs: a type in turn, three in four COMPLETED,
 * a title of three words (every thousandth has the rare word `escalation`), a text of 24, the
 * words skewed to the list's start. Deterministic: every call of seedFields starts the same
 * sequence, so SQLite and PostgreSQL hold the same jobs. Call it for indexes 0, 1, 2… in order.
 */
export function seedFields(caller: { apiKeyId: string }): (index: number) => Partial<JobRecord> {
  const types = ['TRANSCRIPTION', 'TRANSLATION', 'TTS', 'AI_CONTENT'] as const
  const statuses = ['COMPLETED', 'COMPLETED', 'COMPLETED', 'FAILED'] as const
  const base = Date.parse('2024-01-01T00:00:00.000Z')
  let seed = 42
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
  const word = () => WORDS[Math.floor(random() * random() * WORDS.length)]!
  return (index) => {
    const at = new Date(base + index * 20_000).toISOString()
    return {
      apiKeyId: caller.apiKeyId,
      type: types[index % 4]!,
      status: statuses[Math.floor(random() * 4)]!,
      title: `${word()} ${word()} ${index % 1000 === 0 ? 'escalation' : word()}`,
      text: Array.from({ length: 24 }, word).join(' '),
      usageSeconds: 10,
      totalCost: 1 + (index % 7),
      createdAt: at,
      updatedAt: at,
    }
  }
}

/**
 * Ranges of creation times as the monitor's date filter sends them (seedFields makes a job every
 * 20 s from 2024-01-01): one day (4,320 jobs) and 30 days (129,600 jobs), well inside the seeded span.
 */
const ONE_DAY = { createdFrom: '2024-02-10T00:00:00.000Z', createdTo: '2024-02-11T00:00:00.000Z' }
const THIRTY_DAYS = { createdFrom: '2024-02-01T00:00:00.000Z', createdTo: '2024-03-02T00:00:00.000Z' }

/** The list and search queries measured on each store, through the use case listJobs (`list`; its `range` is the operator's date filter). */
export async function timeListQueries(
  list: (body: Parameters<typeof listJobs>[3], range?: Parameters<typeof listJobs>[5]) => Promise<unknown>,
) {
  return {
    firstPageOneDayMs: await timeQueries(() => list({ take: 10, skip: 1 }, ONE_DAY)),
    firstPageThirtyDaysMs: await timeQueries(() => list({ take: 10, skip: 1 }, THIRTY_DAYS)),
    firstPageOneDayFilteredByStatusMs: await timeQueries(() => list({ status: 'FAILED', take: 10, skip: 1 }, ONE_DAY)),
    searchCommonWordOneDayMs: await timeQueries(() => list({ search: 'refund', take: 10, skip: 1 }, ONE_DAY)),
    firstPageMs: await timeQueries(() => list({ take: 10, skip: 1 })),
    firstPageFilteredByStatusMs: await timeQueries(() => list({ status: 'FAILED', take: 10, skip: 1 })),
    firstPageFilteredByTypeAndStatusMs: await timeQueries(() => list({ type: 'TTS', status: 'COMPLETED', take: 10, skip: 1 })),
    firstPageSortedByTitleMs: await timeQueries(() => list({ sort: { field: 'title', direction: 'asc' }, take: 10, skip: 1 })),
    searchCommonWordMs: await timeQueries(() => list({ search: 'refund', take: 10, skip: 1 })),
    searchRareWordMs: await timeQueries(() => list({ search: 'escalation', take: 10, skip: 1 })),
    searchTwoWordsFilteredMs: await timeQueries(() => list({ search: 'payment late', status: 'FAILED', take: 10, skip: 1 })),
  }
}

/** Counts jobs ended through the runtimes' onJobEnded hooks, per instance; `until(n)` resolves once n ended in all. */
export class EndedJobs {
  total = 0
  readonly byInstance: Record<string, number> = {}
  private waiting: { target: number; resolve: () => void } | undefined

  ended(instance: string): void {
    this.total += 1
    this.byInstance[instance] = (this.byInstance[instance] ?? 0) + 1
    if (this.waiting && this.total >= this.waiting.target) this.waiting.resolve()
  }

  until(target: number): Promise<void> {
    if (this.total >= target) return Promise.resolve()
    return new Promise((resolve) => (this.waiting = { target, resolve }))
  }
}

/**
 * Writes `count` pending copies of the AI-content job `template` in one transaction through
 * `store`, without announcing them: no runner knows of them until it is woken.
 */
export async function queuePendingCopies(store: Store, template: JobRecord, count: number): Promise<void> {
  const at = new Date().toISOString()
  await store.transaction(async (tx) => {
    for (let index = 0; index < count; index += 1) {
      await tx.jobs.insert({
        ...template,
        id: randomUUID(),
        previewToken: randomBytes(24).toString('base64url'),
        status: 'PENDING',
        jobResponse: null,
        errorCode: null,
        errorMessage: null,
        attempts: 0,
        leaseOwner: null,
        leaseExpiresAt: null,
        runAfter: 0,
        createdAt: at,
        updatedAt: at,
      })
    }
  })
}

/**
 * Jobs run per second by runtimes in this process: `count` pending AI-content jobs (the offline
 * engine is cheap, so the queue itself is measured) are queued unannounced, then every worker
 * is woken at once, and the clock stops when the last one ended (counted by `ended`).
 */
export async function measureThroughput(store: Store, template: JobRecord, count: number, workers: Runtime[], ended: EndedJobs) {
  await queuePendingCopies(store, template, count)
  const before = { ...ended.byInstance }
  const done = ended.until(ended.total + count)
  const started = performance.now()
  for (const worker of workers) worker.runner.wake()
  await done
  const seconds = (performance.now() - started) / 1000
  return {
    jobs: count,
    seconds: Math.round(seconds * 1000) / 1000,
    jobsPerSecond: Math.round(count / seconds),
    byInstance: Object.fromEntries(
      Object.entries(ended.byInstance).map(([instance, total]) => [instance, total - (before[instance] ?? 0)]),
    ),
  }
}

/** Set per pickup measurement; the runner calls them through the runtime's job hooks. */
let pickupHook: () => void = () => {}
let endHook: () => void = () => {}

/** `listsOnly`: the seeded lists and searches alone (`npx tsx bench/run.ts jobs-lists`), without pickup and throughput. */
export async function benchJobs({ listsOnly = false } = {}): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-jobs-'))
  const runtime = await createRuntime({
    dataDir,
    fixedApiKey: 'vd_bench_jobs_key_0123456789abcdef',
    jobs: { onJobStarted: () => pickupHook(), onJobEnded: () => endHook() },
  })
  try {
    const caller = {
      projectId: runtime.bootstrap.projectId,
      apiKeyId: (await runtime.store.accounts.listKeys(runtime.bootstrap.projectId))[0]!.id,
      userId: runtime.bootstrap.userId,
    }
    // Seed in one transaction, as finished jobs (the runner has nothing to pick up).
    const seedStarted = performance.now()
    const fieldsOf = seedFields(caller)
    await runtime.store.transaction(async (tx) => {
      for (let index = 0; index < JOBS; index += 1) await seedJob(runtime, fieldsOf(index), tx)
    })
    const seedSeconds = (performance.now() - seedStarted) / 1000
    // The file itself, not through test/helpers/test-service.ts: that module registers vitest hooks, which throw outside vitest.
    const sqlite = runtime.store as SqliteStore
    sqlite.db.exec('ANALYZE')
    const { context } = runtime
    const list = (body: Parameters<typeof listJobs>[3], range?: Parameters<typeof listJobs>[5]) =>
      listJobs(context, caller, caller.projectId, body, {}, range)

    const results: Record<string, unknown> = {
      jobs: JOBS,
      seedSeconds: Math.round(seedSeconds * 10) / 10,
      ...(await timeListQueries(list)),
      targets: 'p99 under 10 ms filtered, under 50 ms search',
    }
    if (listsOnly) return results

    // Pickup: from the enqueue call to the runner starting the job, with the runner idle.
    const source = (
      await runtime.store.jobs.list(caller.projectId, { type: 'TRANSCRIPTION', sort: 'createdAt', direction: 'desc', limit: 1, offset: 0 })
    ).records[0]!
    const pickups: number[] = []
    for (let index = 0; index < 100; index += 1) {
      let enqueuedAt = 0
      const started = new Promise<number>((resolve) => {
        pickupHook = () => resolve(performance.now() - enqueuedAt)
      })
      const ended = new Promise<void>((resolve) => {
        endHook = resolve
      })
      enqueuedAt = performance.now()
      await createAiContentJob(context, caller, source.id, { aiParts: ['summary'] })
      pickups.push(await started)
      await ended
    }
    results.pickupLatencyMs = { runs: pickups.length, p50: percentile(pickups, 50), p99: percentile(pickups, 99), target: 'p50 under 5 ms' }

    // Throughput: AI-content jobs like the last one, with the runner's default concurrency.
    const template = (await runtime.store.jobs.newestFromSource(source.id, caller.projectId))!
    const ended = new EndedJobs()
    endHook = () => ended.ended('sqlite')
    results.throughput = {
      method: `${THROUGHPUT_JOBS} AI-content jobs (offline engine, summary of 24 words) queued at once, one instance, one project (2 at a time: its share of the runner's quick lane): wake to the last job's end`,
      ...(await measureThroughput(runtime.store, template, THROUGHPUT_JOBS, [runtime], ended)),
    }
    return results
  } finally {
    await runtime.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchJobs(), null, 2))
}
