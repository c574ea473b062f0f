/**
 * A project's data out and back in (Store.projectData) at SNAPSHOT_JOBS jobs (100,000), on
 * SQLite and on PostgreSQL (a throwaway cluster; skipped, with the reason, without its
 * binaries): the import into an empty project, the export (streamed into a JSON-lines file,
 * one row a line, as an archive carries them), the replace of the full project by that file
 * (a restore: every row deleted, every row inserted, in one transaction) and the reset. Also
 * the heap's growth over the export and the replace: rows stream, the project never sits in
 * memory. Runnable alone: `npx tsx bench/run.ts snapshot`.
 */
import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { once } from 'node:events'
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
    const record = jobRecord({ id: `job-${index}`, projectId: PROJECT, userId: USER, mediaFile: index % 3 === 0 ? `media-${index}.mp3` : null, ...fields(index) })
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
      attempts.push({ kind: 'attempt', record: { deliveryId: id, attempt: 1, startedAt: record.createdAt, statusCode: 200, latencyMs: 12, error: null, responseExcerpt: 'ok' } })
    }
  }
  yield* deliveries
  yield* attempts
}

async function exportToFile(store: Store, file: string): Promise<number> {
  const out = createWriteStream(file)
  let rows = 0
  for await (const row of store.projectData.exportProject(PROJECT)) {
    rows += 1
    if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
  return rows
}

async function* rowsOfFile(file: string): AsyncGenerator<ProjectRow> {
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) yield JSON.parse(line) as ProjectRow
}

const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(2))
const heapMb = () => process.memoryUsage().heapUsed / 1024 / 1024

/** Samples the heap while `work` runs; answers its result, and the heap's peak growth over its start (MB). */
async function withHeapPeak<T>(work: () => Promise<T>): Promise<{ result: T; heapGrowthMb: number }> {
  global.gc?.()
  const start = heapMb()
  let peak = start
  const timer = setInterval(() => (peak = Math.max(peak, heapMb())), 20)
  try {
    const result = await work()
    peak = Math.max(peak, heapMb())
    return { result, heapGrowthMb: Math.round(peak - start) }
  } finally {
    clearInterval(timer)
  }
}

async function measure(store: Store, folder: string) {
  await prepare(store)
  let since = performance.now()
  const imported = await store.projectData.replaceProject(PROJECT, generatedRows(SNAPSHOT_JOBS))
  const importSeconds = seconds(since)
  const file = join(folder, `${store.engine}.jsonl`)
  since = performance.now()
  const exported = await withHeapPeak(() => exportToFile(store, file))
  const exportSeconds = seconds(since)
  since = performance.now()
  const replaced = await withHeapPeak(() => store.projectData.replaceProject(PROJECT, rowsOfFile(file)))
  const replaceSeconds = seconds(since)
  if (JSON.stringify(replaced.result.counts) !== JSON.stringify(imported.counts))
    throw new Error(`replace wrote ${JSON.stringify(replaced.result.counts)}, not ${JSON.stringify(imported.counts)}`)
  since = performance.now()
  await store.projectData.replaceProject(PROJECT, [])
  const resetSeconds = seconds(since)
  return {
    rows: exported.result,
    counts: imported.counts,
    fileMb: Math.round(statSync(file).size / 1024 / 1024),
    importIntoEmptySeconds: importSeconds,
    exportSeconds,
    exportHeapGrowthMb: exported.heapGrowthMb,
    replaceFullProjectSeconds: replaceSeconds,
    replaceHeapGrowthMb: replaced.heapGrowthMb,
    resetSeconds,
  }
}

export async function benchSnapshot(): Promise<object> {
  const folder = mkdtempSync(join(tmpdir(), 'voicedesk-bench-snapshot-'))
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
      method: `${SNAPSHOT_JOBS} jobs (bench/jobs.ts seedFields: 24-word texts), a delivery and an attempt per ten jobs; Store.projectData: import = replaceProject into the empty project from generated rows; export = exportProject into a JSON-lines file; replace = replaceProject of the full project from that file, read line by line; reset = replaceProject(id, [])`,
      sqlite,
      postgres,
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}
