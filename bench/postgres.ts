/**
 * Team-mode benchmarks on PostgreSQL, the same questions bench/jobs.ts asks SQLite: job lists
 * and search at 1,000,000 jobs through the use case listJobs, the pickup latency from an
 * enqueue on one instance to another instance starting the job (LISTEN/NOTIFY), and jobs run
 * per second by one and by two instances on one database. Needs PostgreSQL's server binaries
 * (a throwaway cluster, test/helpers/postgres-cluster.ts); without them it answers why it was
 * skipped. Runnable alone: `npx tsx bench/postgres.ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { fileURLToPath, pathToFileURL } from 'node:url'
import pg from 'pg'
import { createAiContentJob, listJobs } from '../src/service/ops/jobs'
import { createRuntime, type Runtime, type RuntimeConfig } from '../src/service/runtime'
import type { Repositories } from '../src/store/ports'
import { clientDb, inTransaction, type Db } from '../src/store/postgres/db'
import { PostgresJobsRepository } from '../src/store/postgres/jobs-repository'
import { WORK_CHANNELS, type PostgresStore } from '../src/store/postgres/store'
import type { JobRecord } from '../src/store/records'
import { findPostgresBinaries, startPostgresCluster, type PostgresCluster } from '../test/helpers/postgres-cluster'
import { seedJob } from '../test/helpers/seed-jobs'
import { EndedJobs, JOBS, measureThroughput, percentile, queuePendingCopies, seedFields, THROUGHPUT_JOBS, timeListQueries } from './jobs'
import { freePort, stopChild, waitForLine } from './processes'

const CLI = fileURLToPath(new URL('../out/main/cli.js', import.meta.url))
/** Jobs per INSERT statement (38 parameters each: PostgreSQL takes at most 65 535 per statement). */
const ROWS_PER_STATEMENT = 1_000
/** Jobs per seeding transaction. */
const ROWS_PER_TRANSACTION = 20_000
/** The sealing key every instance of a benchmark shares (VOICEDESK_SECRET_KEY). */
export const BENCH_SECRET_KEY = randomBytes(32)

/** A throwaway cluster, or why the PostgreSQL benchmarks are skipped (no server binaries). */
export async function startBenchCluster(): Promise<{ cluster: PostgresCluster; version: string } | { skipped: string }> {
  if (!findPostgresBinaries()) {
    return {
      skipped:
        "PostgreSQL's initdb and pg_ctl were not found (on PATH or in /usr/lib/postgresql/<version>/bin): the PostgreSQL column was not measured",
    }
  }
  const cluster = await startPostgresCluster()
  const client = new pg.Client({ connectionString: cluster.url })
  await client.connect()
  try {
    const version = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version
    return { cluster, version }
  } finally {
    await client.end()
  }
}

/**
 * The repository's own INSERT for `records`, as one multi-row statement: each record goes
 * through PostgresJobsRepository.insert on a Db that records the statement instead of running
 * it (so the columns, the JSON columns and the search lexemes are exactly the repository's),
 * and the recorded VALUES tuples are joined, their parameters renumbered.
 */
async function multiRowInsert(records: JobRecord[]): Promise<{ text: string; values: unknown[] }> {
  const recorded: { text: string; values: unknown[] }[] = []
  const recording: Db = {
    query: async <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => {
      recorded.push({ text, values: values ?? [] })
      return { rows: [] as R[], rowCount: 1 } as unknown as pg.QueryResult<R>
    },
    atomic: (work) => work(recording),
    snapshot: (work) => work(recording),
  }
  const repository = new PostgresJobsRepository(recording)
  for (const record of records) await repository.insert(record)
  const first = recorded[0]!
  const parts = /^([\s\S]*\bVALUES\s*)(\([\s\S]*\))\s*$/.exec(first.text)
  if (!parts || recorded.some((statement) => statement.text !== first.text))
    throw new Error(`the jobs repository's insert is not one INSERT … VALUES (…): ${first.text}`)
  const width = first.values.length
  const tuples = recorded.map((_, row) => parts[2]!.replace(/\$(\d+)/g, (_match, index: string) => `$${Number(index) + row * width}`))
  return { text: `${parts[1]}${tuples.join(', ')}`, values: recorded.flatMap((statement) => statement.values) }
}

/** Seeds `count` jobs (seedFields, as on SQLite) with the repository's INSERT, ROWS_PER_STATEMENT per statement. */
async function seedPostgresJobs(
  runtime: Runtime,
  pool: pg.Pool,
  count: number,
  fieldsOf: (index: number) => Partial<JobRecord>,
): Promise<void> {
  // seedJob builds the record exactly as on SQLite and hands it to this "repository", which keeps it.
  let batch: JobRecord[] = []
  const keeping = { jobs: { insert: async (record: JobRecord) => void batch.push(record) } } as unknown as Repositories
  const started = performance.now()
  for (let first = 0; first < count; first += ROWS_PER_TRANSACTION) {
    const last = Math.min(count, first + ROWS_PER_TRANSACTION)
    await inTransaction(pool, async (client) => {
      const db = clientDb(client)
      for (let start = first; start < last; start += ROWS_PER_STATEMENT) {
        batch = []
        for (let index = start; index < Math.min(last, start + ROWS_PER_STATEMENT); index += 1)
          await seedJob(runtime, fieldsOf(index), keeping)
        const { text, values } = await multiRowInsert(batch)
        await db.query(text, values)
      }
    })
    if (last % 200_000 === 0 || last === count)
      console.log(`postgres: seeded ${last} jobs (${Math.round((performance.now() - started) / 1000)} s)`)
  }
}

/** `voicedesk serve --database-url` (the built CLI): a team-mode instance in a process of its own. */
export async function spawnTeamInstance(url: string, apiKey: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort()
  const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--database-url', url], {
    env: { ...process.env, VOICEDESK_API_KEY: apiKey, VOICEDESK_SECRET_KEY: BENCH_SECRET_KEY.toString('base64') },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await waitForLine(child, /listening on (http:\/\/\S+)/)
  return { child, base: `http://127.0.0.1:${port}` }
}

/**
 * Jobs run per second by `instances` serve processes on the database: pending copies of
 * `template` are queued unannounced, then one NOTIFY on the jobs channel (what an enqueue on
 * another instance sends) wakes them all, and the clock stops when none is pending any more
 * (polled every 20 ms: a bound on the error of runs that take seconds).
 */
async function processThroughput(url: string, store: PostgresStore, template: JobRecord, count: number, instances: number) {
  const children: ChildProcess[] = []
  try {
    for (let index = 0; index < instances; index += 1)
      children.push((await spawnTeamInstance(url, 'vd_bench_postgres_key_0123456789abcdef')).child)
    await queuePendingCopies(store, template, count)
    const started = performance.now()
    await store.pool.query('SELECT pg_notify($1, $2)', [WORK_CHANNELS.jobs, 'bench'])
    for (;;) {
      const { rows } = await store.pool.query<{ pending: number }>(`SELECT count(*) AS pending FROM jobs WHERE status = 'PENDING'`)
      if (Number(rows[0]!.pending) === 0) break
      if (children.some((child) => child.exitCode !== null)) throw new Error('a serve instance exited during the throughput run')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const seconds = (performance.now() - started) / 1000
    const { rows } = await store.pool.query<{ failed: number }>(
      `SELECT count(*) AS failed FROM jobs WHERE type = 'AI_CONTENT' AND status = 'FAILED' AND relevant_job_id = $1`,
      [template.relevantJobId],
    )
    if (Number(rows[0]!.failed) > 0) throw new Error(`${rows[0]!.failed} AI-content jobs failed`)
    return { instances, jobs: count, seconds: Math.round(seconds * 1000) / 1000, jobsPerSecond: Math.round(count / seconds) }
  } finally {
    for (const child of children) await stopChild(child)
  }
}

/**
 * Updates of jobs rows and how many were HOT (no index entry written), from pg_stat_user_tables;
 * with `since`, the difference. Waits a moment first: backends report their counts within a second.
 */
async function jobUpdates(store: PostgresStore, since?: { updates: number; hot: number }): Promise<{ updates: number; hot: number }> {
  await new Promise((resolve) => setTimeout(resolve, 1_500))
  const { rows } = await store.pool.query<{ updates: number; hot: number }>(
    `SELECT n_tup_upd AS updates, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relname = 'jobs'`,
  )
  const now = rows[0]!
  return since ? { updates: now.updates - since.updates, hot: now.hot - since.hot } : now
}

function config(url: string, jobs: RuntimeConfig['jobs']): RuntimeConfig {
  return { database: { url }, secretKey: BENCH_SECRET_KEY, fixedApiKey: 'vd_bench_postgres_key_0123456789abcdef', jobs }
}

/**
 * Lists and search at JOBS jobs, pickup across two instances, throughput of one and two
 * instances; with `listsOnly`, the seeding and the lists and search alone (`tsx bench/run.ts
 * postgres-lists`). `database` names the database made for it in the cluster.
 */
export async function benchPostgresJobs(
  cluster: PostgresCluster,
  { listsOnly = false, database = 'bench_jobs' } = {},
): Promise<Record<string, unknown>> {
  const url = await cluster.createDatabase(database)
  // Instance A: lists and enqueues; its runner takes nothing (concurrency 0), so B and C run every job.
  const runtimes: Runtime[] = []
  const a = await createRuntime(config(url, { concurrency: 0 }))
  runtimes.push(a)
  try {
    const store = a.store as PostgresStore
    const caller = {
      projectId: a.bootstrap.projectId,
      apiKeyId: (await store.accounts.listKeys(a.bootstrap.projectId))[0]!.id,
      userId: a.bootstrap.userId,
    }
    const seedStarted = performance.now()
    await seedPostgresJobs(a, store.pool, JOBS, seedFields(caller))
    const seedSeconds = (performance.now() - seedStarted) / 1000
    // As SQLite's ANALYZE: fresh statistics (and the GIN index's pending entries merged) before measuring.
    const vacuumStarted = performance.now()
    await store.pool.query('VACUUM ANALYZE jobs')
    const vacuumSeconds = (performance.now() - vacuumStarted) / 1000
    const list = (body: Parameters<typeof listJobs>[3], range?: Parameters<typeof listJobs>[5]) =>
      listJobs(a.context, caller, caller.projectId, body, {}, range)
    const results: Record<string, unknown> = {
      jobs: JOBS,
      seedSeconds: Math.round(seedSeconds * 10) / 10,
      seedMethod: `the jobs repository's INSERT (search lexemes included), ${ROWS_PER_STATEMENT} rows per statement, ${ROWS_PER_TRANSACTION} per transaction; then VACUUM ANALYZE`,
      vacuumAnalyzeSeconds: Math.round(vacuumSeconds * 10) / 10,
      ...(await timeListQueries(list)),
      targets: 'p99 under 20 ms filtered, under 100 ms search',
    }
    console.log('postgres lists', results)
    if (listsOnly) return results

    // Pickup: enqueued on A, started by B, woken by A's NOTIFY (A's runner takes nothing).
    let pickupHook: (instance: string) => void = () => {}
    const ended = new EndedJobs()
    const b = await createRuntime(config(url, { onJobStarted: () => pickupHook('B'), onJobEnded: () => ended.ended('B') }))
    runtimes.push(b)
    const source = (
      await store.jobs.list(caller.projectId, { type: 'TRANSCRIPTION', sort: 'createdAt', direction: 'desc', limit: 1, offset: 0 })
    ).records[0]!
    const pickups: number[] = []
    const takenBy: Record<string, number> = {}
    for (let index = 0; index < 100; index += 1) {
      let enqueuedAt = 0
      const started = new Promise<number>((resolve) => {
        pickupHook = (instance) => {
          takenBy[instance] = (takenBy[instance] ?? 0) + 1
          resolve(performance.now() - enqueuedAt)
        }
      })
      const done = ended.until(ended.total + 1)
      enqueuedAt = performance.now()
      await createAiContentJob(a.context, caller, source.id, { aiParts: ['summary'] })
      pickups.push(await started)
      await done
    }
    pickupHook = () => {}
    results.pickupAcrossInstancesMs = {
      method:
        'createAiContentJob on instance A (runner concurrency 0) to onJobStarted on instance B, woken by NOTIFY; both in this process, one database',
      runs: pickups.length,
      p50: percentile(pickups, 50),
      p99: percentile(pickups, 99),
      takenBy,
      target: 'p50 under 10 ms',
    }
    console.log('postgres pickup', results.pickupAcrossInstancesMs)

    // Throughput: the same AI-content jobs as on SQLite. First B alone, in this process as SQLite's is;
    // then serve processes, one and two: instances in one process would share one event loop.
    const template = (await store.jobs.newestFromSource(source.id, caller.projectId))!
    const updatesBefore = await jobUpdates(store)
    const inProcess = await measureThroughput(store, template, THROUGHPUT_JOBS, [b], ended)
    await b.stop()
    const one = await processThroughput(url, store, template, THROUGHPUT_JOBS, 1)
    const two = await processThroughput(url, store, template, THROUGHPUT_JOBS, 2)
    results.throughput = {
      method: `${THROUGHPUT_JOBS} AI-content jobs (offline engine, summary of 24 words) queued at once, unannounced, through A; run by instances of concurrency 2 each on one database`,
      oneInstanceInThisProcess: { ...inProcess, clock: "wake to the last job's onJobEnded" },
      oneInstance: { ...one, clock: "one NOTIFY to no job pending (polled every 20 ms); each instance a 'serve --database-url' process" },
      twoInstances: two,
      twoToOneRatio: Number((two.jobsPerSecond / one.jobsPerSecond).toFixed(3)),
      // Each job is claimed (HOT when no index names what a claim sets) and then ended (status changes: never HOT).
      jobUpdates: await jobUpdates(store, updatesBefore),
    }
    console.log('postgres throughput', results.throughput)
    return results
  } finally {
    for (const runtime of runtimes.reverse()) await runtime.stop()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = await startBenchCluster()
  if ('skipped' in started) {
    console.log(started.skipped)
  } else {
    try {
      console.log(JSON.stringify({ postgres: started.version, ...(await benchPostgresJobs(started.cluster)) }, null, 2))
    } finally {
      await started.cluster.stop()
    }
  }
}
