/**
 * A project's data out and back in (Store.projectData) at SNAPSHOT_JOBS jobs (100,000), on
 * SQLite and on PostgreSQL (a throwaway cluster; skipped, with the reason, without its
 * binaries): the import into an empty project, the export (streamed into a JSON-lines file,
 * one row a line, as an archive carries them), the replace of the full project by that file
 * (a restore: every row deleted, every row inserted, in one transaction) and the reset. Also
 * the heap retained during the export and the replace (sampled after a full collection every
 * 10,000 rows): rows stream, the project never sits in memory. Runnable alone: `npx tsx bench/run.ts snapshot`.
 */
import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { once } from 'node:events'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { Store } from '../src/store/ports'
import { openPostgresStore } from '../src/store/postgres/store'
import type { ProjectRow } from '../src/store/records'
import { openSqliteStore } from '../src/store/sqlite/store'
import { jobRecord } from '../test/helpers/job-record'
import { seedFields } from './jobs'
import { startBenchCluster } from './postgres'

export const SNAPSHOT_JOBS = Number(process.env.BENCH_SNAPSHOT_JOBS ?? 100_000)
const PROJECT = 'project-bench'
const KEY = 'key-bench'
const USER = 'user-bench'

async function prepare(store: Store): Promise<void> {
  await store.accounts.insertProject({ id: PROJECT, name: 'Bench', isDefault: true, createdAt: new Date().toISOString() })
  await store.accounts.insertLocalUser(USER, 'Local', new Date().toISOString())
  await store.accounts.insertKey({
    id: KEY,
    projectId: PROJECT,
    userId: USER,
    name: 'bench',
    keyHash: randomBytes(16).toString('hex'),
    keyHint: 'vd_…',
    createdAt: new Date().toISOString(),
  })
}

/** The project's rows, made as they come: jobs as the job benchmarks seed them, every tenth with a delivery and an attempt. */
export function* generatedRows(count: number): Generator<ProjectRow> {
  const fields = seedFields({ apiKeyId: KEY })
  const deliveries: ProjectRow[] = []
  const attempts: ProjectRow[] = []
  for (let index = 0; index < count; index += 1) {
    const record = jobRecord({
      id: `job-${index}`,
      projectId: PROJECT,
      userId: USER,
      mediaFile: index % 3 === 0 ? `media-${index}.mp3` : null,
      ...fields(index),
    })
    yield { kind: 'job', record }
    if (index % 10 === 0) {
      const id = `delivery-${index}`
      deliveries.push({
        kind: 'delivery',
        record: {
          id,
          projectId: PROJECT,
          event: 'job.completed',
          jobId: record.id,
          url: 'https://example.test/hook',
          authKey: null,
          authSecret: null,
          payload: JSON.stringify({ event: 'job.completed', data: { id: record.id } }),
          status: 'DELIVERED',
          attempts: 1,
          roundAttempts: 1,
          nextAttemptAt: null,
          leaseOwner: null,
          leaseExpiresAt: null,
          lastStatusCode: 200,
          lastError: null,
          createdAt: record.createdAt,
          updatedAt: record.createdAt,
          deliveredAt: record.createdAt,
        },
      })
      attempts.push({
        kind: 'attempt',
        record: {
          deliveryId: id,
          attempt: 1,
          startedAt: record.createdAt,
          statusCode: 200,
          latencyMs: 12,
          error: null,
          responseExcerpt: 'ok',
        },
      })
    }
  }
  yield* deliveries
  yield* attempts
}

async function exportToFile(store: Store, file: string, heap: RetainedHeap): Promise<number> {
  const out = createWriteStream(file)
  let rows = 0
  for await (const row of store.projectData.exportProject(PROJECT)) {
    rows += 1
    heap.sample(rows)
    if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
  return rows
}

async function* rowsOfFile(file: string, heap: RetainedHeap): AsyncGenerator<ProjectRow> {
  let rows = 0
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    heap.sample((rows += 1))
    yield JSON.parse(line) as ProjectRow
  }
}

const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(2))

// A full collection on demand, so samples see what is retained, not garbage not yet collected.
setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void

/** The heap a streamed pass retains: sampled after a full collection every SAMPLE_ROWS rows; answers the peak growth over its start (MB). */
class RetainedHeap {
  private readonly start: number
  private peak: number
  constructor() {
    collect()
    this.start = this.peak = process.memoryUsage().heapUsed
  }
  sample(rows: number): void {
    if (rows % SAMPLE_ROWS !== 0) return
    collect()
    this.peak = Math.max(this.peak, process.memoryUsage().heapUsed)
  }
  get growthMb(): number {
    return Math.round((this.peak - this.start) / 1024 / 1024)
  }
}
const SAMPLE_ROWS = 10_000

async function measure(store: Store, folder: string) {
  await prepare(store)
  let since = performance.now()
  const imported = await store.projectData.replaceProject(PROJECT, generatedRows(SNAPSHOT_JOBS))
  const importSeconds = seconds(since)
  const file = join(folder, `${store.engine}.jsonl`)
  const exportHeap = new RetainedHeap()
  since = performance.now()
  const exported = await exportToFile(store, file, exportHeap)
  const exportSeconds = seconds(since)
  const replaceHeap = new RetainedHeap()
  since = performance.now()
  const replaced = await store.projectData.replaceProject(PROJECT, rowsOfFile(file, replaceHeap))
  const replaceSeconds = seconds(since)
  if (JSON.stringify(replaced.counts) !== JSON.stringify(imported.counts))
    throw new Error(`replace wrote ${JSON.stringify(replaced.counts)}, not ${JSON.stringify(imported.counts)}`)
  since = performance.now()
  await store.projectData.replaceProject(PROJECT, [])
  const resetSeconds = seconds(since)
  return {
    rows: exported,
    counts: imported.counts,
    fileMb: Math.round(statSync(file).size / 1024 / 1024),
    importIntoEmptySeconds: importSeconds,
    exportSeconds,
    exportRetainedHeapGrowthMb: exportHeap.growthMb,
    replaceFullProjectSeconds: replaceSeconds,
    replaceRetainedHeapGrowthMb: replaceHeap.growthMb,
    resetSeconds,
  }
}

export async function benchSnapshot(): Promise<object> {
  const folder = mkdtempSync(join(tmpdir(), 'voicedesk-bench-snapshot-'))
  // What else kept the machine busy: timings on a shared machine move with it.
  const loadAtStart = loadavg().map((load) => Number(load.toFixed(2)))
  try {
    const sqliteStore = openSqliteStore(join(folder, 'voicedesk.db'))
    let sqlite: object
    try {
      sqlite = await measure(sqliteStore, folder)
    } finally {
      await sqliteStore.close()
    }
    console.log('sqlite', JSON.stringify(sqlite))
    let postgres: object
    const started = await startBenchCluster()
    if ('skipped' in started) postgres = { skipped: started.skipped }
    else {
      try {
        const store = await openPostgresStore({ url: await started.cluster.createDatabase() })
        try {
          postgres = { server: started.version, ...(await measure(store, folder)) }
        } finally {
          await store.close()
        }
      } finally {
        await started.cluster.stop()
      }
    }
    console.log('postgres', JSON.stringify(postgres))
    return {
      method: `${SNAPSHOT_JOBS} jobs (bench/jobs.ts seedFields: 24-word texts), a delivery and an attempt per ten jobs; Store.projectData: import = replaceProject into the empty project from generated rows; export = exportProject into a JSON-lines file; replace = replaceProject of the full project from that file, read line by line; reset = replaceProject(id, []); retained heap: peak heapUsed over its start, sampled after a full GC every ${SAMPLE_ROWS} rows`,
      machine: {
        cores: cpus().length,
        loadAverageAtStart: loadAtStart,
        loadAverageAtEnd: loadavg().map((load) => Number(load.toFixed(2))),
      },
      sqlite,
      postgres,
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}
