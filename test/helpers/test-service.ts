import { randomBytes } from 'node:crypto'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from 'better-sqlite3'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { DATABASE_FILE } from '../../src/service/compose/data-folder'
import { createProject } from '../../src/service/ops/api-keys'
import { createRuntime, type Runtime, type RuntimeConfig } from '../../src/service/runtime'
import { openDatabase } from '../../src/store/sqlite/open-database'
import type { SqliteStore } from '../../src/store/sqlite/store'
import { JobReadSchema, type Job } from '../../src/shared/api/jobs'
import { createTestDatabase, onPostgres } from './test-engine'
import { makeTempDir } from './temp-dir'
import { afterEveryFile, afterEveryTest } from './after-every'

export const TEST_KEY = 'vd_test_0123456789abcdefghijklmnopqrstuv'

const running: Runtime[] = []

afterEveryTest(async () => {
  for (const runtime of running.splice(0)) await runtime.stop()
})

export interface CallOptions {
  body?: unknown
  /** Sent as is, for malformed bodies. */
  rawBody?: string
  key?: string | null
  headers?: Record<string, string>
}

export interface TestService {
  runtime: Runtime
  dataDir: string
  key: string
  call(method: InjectOptions['method'], url: string, options?: CallOptions): Promise<LightMyRequestResponse>
  /** A second project with its own key, to check isolation. */
  otherProject(): Promise<{ projectId: string; key: string }>
}

/** In the postgres project: the database and sealing key standing for each data folder, so a restart on a folder finds its data. */
const teamDatabases = new Map<string, { url: string; secretKey: Buffer }>()

async function teamStorageFor(dataDir: string): Promise<Pick<RuntimeConfig, 'database' | 'secretKey'>> {
  let storage = teamDatabases.get(dataDir)
  if (!storage) {
    storage = { url: await createTestDatabase({ migrated: true }), secretKey: randomBytes(32) }
    teamDatabases.set(dataDir, storage)
  }
  return { database: { url: storage.url }, secretKey: storage.secretKey }
}

/**
 * A SQLite database with every migration applied and nothing else, made once per file (a
 * runtime's start then finds nothing to migrate): migrating an empty file took ~14 ms of CPU of
 * the ~95 a runtime's start and stop take, for hundreds of tests. The migrations themselves
 * still run from empty in the store's own tests (test/store: open-database, the store contract,
 * the migration tests) and wherever a runtime starts without this helper (the CLI, the desktop
 * app, startLiveSqliteService).
 */
let sqliteTemplate: { dir: string; file: string } | undefined
afterEveryFile(() => {
  if (sqliteTemplate) rmSync(sqliteTemplate.dir, { recursive: true, force: true })
  sqliteTemplate = undefined
})

function migratedSqliteFile(): string {
  if (!sqliteTemplate) {
    const dir = mkdtempSync(join(tmpdir(), 'voicedesk-sqlite-template-'))
    const file = join(dir, DATABASE_FILE)
    const db = openDatabase(file)
    // One self-contained file (no WAL beside it) to copy; the runtime turns WAL on again.
    db.pragma('journal_mode = DELETE')
    db.close()
    sqliteTemplate = { dir, file }
  }
  return sqliteTemplate.file
}

/** A new temp folder for a runtime; on SQLite with the migrated database in it already. */
function freshDataDir(config: Partial<RuntimeConfig>): string {
  const dir = makeTempDir()
  if (!onPostgres && !config.database) copyFileSync(migratedSqliteFile(), join(dir, DATABASE_FILE))
  return dir
}

/**
 * A real runtime on a real, migrated SQLite file in a fresh temp folder (in the `postgres`
 * project: a fresh PostgreSQL database instead), stopped after the test. Requests go through
 * Fastify's `inject`: the whole HTTP pipeline without a socket.
 */
export async function startTestService(config: Partial<RuntimeConfig> = {}): Promise<TestService> {
  const dataDir = config.dataDir ?? freshDataDir(config)
  const storage = onPostgres && !config.database ? await teamStorageFor(dataDir) : {}
  const runtime = await createRuntime({ dataDir, fixedApiKey: TEST_KEY, ...storage, ...config })
  running.push(runtime)
  const key = config.fixedApiKey ?? TEST_KEY
  return {
    runtime,
    dataDir,
    key,
    call: (method, url, options = {}) => {
      const headers: Record<string, string> = { ...options.headers }
      const useKey = options.key === undefined ? key : options.key
      if (useKey !== null) headers.authorization = `Token ${useKey}`
      let payload: string | undefined
      if (options.rawBody !== undefined) payload = options.rawBody
      else if (options.body !== undefined) payload = JSON.stringify(options.body)
      if (payload !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
        headers['content-type'] = 'application/json'
      }
      return runtime.app.inject({ method, url, headers, payload })
    },
    otherProject: () => createProject(runtime.context, 'Other project'),
  }
}

/** The SQLite connection under a runtime's store, for tests that inspect or damage the file itself. */
export function sqliteDatabaseOf(runtime: Runtime): Database {
  if (runtime.store.engine !== 'sqlite') throw new Error('This test inspects the SQLite file; it runs on SQLite only')
  return (runtime.store as SqliteStore).db
}

/** Polls `GET /v1/jobs` until the job leaves PENDING (the runner works in the same process), and answers the job as read. */
export async function waitForJobEnd(service: TestService, id: string, timeoutMs = 30_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const job = JobReadSchema.parse((await service.call('GET', `/v1/jobs?jobId=${id}`)).json())
    if (job.data.status !== 'PENDING') return job.data
    if (Date.now() > deadline) throw new Error(`job ${id} still PENDING after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
