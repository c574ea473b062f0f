import { PostgresAnalyticsRepository } from './analytics-repository'
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { Repositories, Store, StoreTransaction, WorkKind } from '../ports'
import { PostgresAccountsRepository } from './accounts-repository'
import { clientDb, inTransaction, poolDb, TYPES, type Db } from './db'
import { PostgresConversationsRepository } from './conversations-repository'
import { PostgresJobsRepository } from './jobs-repository'
import { migrate } from './migrate'
import { MIGRATIONS } from './migrations'
import { Notifications } from './notifications'
import { PostgresPhoneNumbersRepository } from './phone-numbers-repository'
import { PostgresProjectDataRepository } from './project-data-repository'
import { PostgresSettingsRepository } from './settings-repository'
import { PostgresSipUsersRepository } from './sip-users-repository'
import { PostgresTestRunsRepository } from './test-runs-repository'
import { PostgresVoiceDictionariesRepository } from './voice-dictionaries-repository'
import { PostgresVoiceAgentsRepository } from './voice-agents-repository'
import { PostgresWebhookDeliveriesRepository } from './webhook-deliveries-repository'
import { TransactionGuard } from '../transaction-guard'

/** The channel the schema's triggers NOTIFY when a statement changed rows (see migration 0005). */
export const CHANGES_CHANNEL = 'voicedesk_changes'
/** The channels of Store.announceWork, per kind. */
export const WORK_CHANNELS: Record<WorkKind, string> = { jobs: 'voicedesk_jobs', webhooks: 'voicedesk_webhooks' }

export interface PostgresStoreOptions {
  /** postgres://user:password@host:port/database (libpq's URL form, with its query parameters such as sslmode). */
  url: string
  /** Connections the pool may open (10). A transaction holds one for as long as its work runs. */
  poolSize?: number
  /** How long a statement may wait for a free pooled connection before failing (ms; 30 000). */
  connectionTimeoutMs?: number
  /** First and longest wait before the listening connection reconnects (ms; 50 and 5 000). */
  reconnectDelay?: { min: number; max: number }
}

/** The PostgreSQL store: a pool for statements and transactions, and one connection that listens. */
export interface PostgresStore extends Store {
  readonly engine: 'postgres'
  /** The pool itself, for the media store, tests and tools; the service's use cases never use it. */
  readonly pool: pg.Pool
  /** True while the listening connection is up (changeVersion and onWork see other instances). */
  readonly listening: boolean
  /** The server process of the listening connection, while it is up (tests, diagnostics). */
  readonly listenerProcessId: number | undefined
}

/** Repository methods that only read: every other one may write, and moves changeVersion once it settled. */
const READS = new Set([
  'findActiveForAgent',
  'conversationFacts',
  'outcomeFields',
  'ratingValues',
  'exportConversations',
  'jobsByDay',
  'findSuite',
  'findRun',
  'listRuns',
  'findDefaultProject',
  'findProject',
  'findLocalUserId',
  'findActiveKeyByHash',
  'findKeyByHash',
  'findKey',
  'listKeys',
  'findInProject',
  'findByNumber',
  'findById',
  'findByPreviewToken',
  'newestFromSource',
  'pendingLeaseOwners',
  'nextRunAfter',
  'queueCounts',
  'statistics',
  'list',
  'get',
  'nextDueAt',
  'attemptsOf',
  'count',
])

/** Writing methods whose answer says that nothing was written (a claim that found nothing, a lost lease): those do not move changeVersion. */
const WROTE_NOTHING: Record<string, (answer: unknown) => boolean> = {
  claimNext: (answer) => answer === undefined,
  claimDue: (answer) => Array.isArray(answer) && answer.length === 0,
  complete: (answer) => answer === undefined,
  fail: (answer) => answer === undefined,
  start: (answer) => answer === undefined,
  save: (answer) => answer === false,
  requeueAbandoned: (answer) => answer === 0,
  retryLater: (answer) => answer === false,
  revokeKey: (answer) => answer === false,
  remove: (answer) => answer === false,
  releaseLeasesOf: (answer) => answer === 0,
  redeliver: (answer) => typeof answer !== 'object',
  saveRun: (answer) => answer === false,
  failAbandonedRuns: (answer) => answer === 0,
  update: (answer) => answer === false,
  setActive: (answer) => answer === false,
  insert: (answer) => answer === false,
  setPassword: (answer) => answer === false,
}

function repositoriesOn(db: Db): Repositories {
  const jobs = new PostgresJobsRepository(db)
  return {
    accounts: new PostgresAccountsRepository(db),
    voiceAgents: new PostgresVoiceAgentsRepository(db),
    phoneNumbers: new PostgresPhoneNumbersRepository(db),
    sipUsers: new PostgresSipUsersRepository(db),
    jobs,
    conversations: new PostgresConversationsRepository(db, jobs),
    settings: new PostgresSettingsRepository(db),
    webhookDeliveries: new PostgresWebhookDeliveriesRepository(db),
    testRuns: new PostgresTestRunsRepository(db),
    voiceDictionaries: new PostgresVoiceDictionariesRepository(db),
    analytics: new PostgresAnalyticsRepository(db),
  }
}

/**
 * Wraps each repository's writing methods so that `wrote` is called once they settled: when
 * they failed too (a failed write may have half-happened inside a transaction), but not when
 * their answer says they wrote nothing.
 */
function tracked(repositories: Repositories, wrote: () => void): Repositories {
  const wrap = <R extends object>(repository: R): R => {
    const wrapped: Record<string, unknown> = {}
    for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(repository))) {
      const method = (repository as Record<string, unknown>)[name] as ((...args: unknown[]) => Promise<unknown>) | undefined
      if (name === 'constructor' || typeof method !== 'function') continue
      wrapped[name] = READS.has(name)
        ? method.bind(repository)
        : async (...args: unknown[]) => {
            let failed = false
            let answer: unknown
            try {
              answer = await method.apply(repository, args)
              return answer
            } catch (error) {
              failed = true
              throw error
            } finally {
              if (failed || !WROTE_NOTHING[name]?.(answer)) wrote()
            }
          }
    }
    return wrapped as R
  }
  return Object.fromEntries(
    Object.entries(repositories).map(([name, repository]) => [name, wrap(repository as object)]),
  ) as unknown as Repositories
}

/**
 * Opens the store on a PostgreSQL database: applies pending migrations (under an advisory
 * lock, so instances starting together migrate once), then starts listening for other
 * instances' changes and work.
 *
 * changeVersion() is `<own writes>:<others' commits>`: the first moves as soon as a write of
 * this process settled (a transaction's when it committed), the second when the listening
 * connection hears voicedesk_changes, which triggers NOTIFY on commit of any statement that
 * changed a row, naming the writing instance in its payload (this store's own commits come
 * back too, and are skipped: they moved the first part already). While
 * the listening connection is down the version changes on every call, so no cache is
 * trusted until it listens again (it moves once more then: changes may have been missed).
 *
 * onWork / announceWork: NOTIFY on voicedesk_jobs / voicedesk_webhooks with this store's
 * instance id as payload. PostgreSQL delivers a notification to every listening connection,
 * the sender's own included; the listener skips those carrying its own id (the service
 * announces its own work to itself), so `listener` hears other instances only. Another store
 * opened in the same process is another instance and does hear it. Nothing polls.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const instanceId = randomUUID()
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 30_000,
    keepAlive: true,
    application_name: 'voicedesk',
    // Every pooled connection names this instance from its start, for the change triggers' payload.
    options: `-c voicedesk.instance=${instanceId}`,
    types: TYPES,
  })
  // An idle pooled connection that drops (server restart) is discarded by the pool; without a listener its error would end the process.
  pool.on('error', () => {})
  let notifications: Notifications | undefined
  try {
    const client = await pool.connect()
    try {
      await migrate(client, MIGRATIONS)
    } finally {
      client.release()
    }

    let ownWrites = 0
    let otherCommits = 0
    let unheard = 0
    const workListeners: Record<WorkKind, Set<() => void>> = { jobs: new Set(), webhooks: new Set() }
    const kindOfChannel = new Map(Object.entries(WORK_CHANNELS).map(([kind, channel]) => [channel, kind as WorkKind]))
    const listener = new Notifications({
      connectionString: options.url,
      channels: [CHANGES_CHANNEL, ...Object.values(WORK_CHANNELS)],
      reconnectDelay: options.reconnectDelay,
      onListening: () => (otherCommits += 1),
      onNotification: (channel, payload) => {
        if (channel === CHANGES_CHANNEL) {
          // This instance's own commits moved ownWrites already.
          if (payload !== instanceId) otherCommits += 1
          return
        }
        const kind = kindOfChannel.get(channel)
        if (!kind || payload === instanceId) return
        for (const workListener of [...workListeners[kind]]) {
          try {
            workListener()
          } catch {
            // A listener's failure is its own; the others still hear.
          }
        }
      },
    })
    notifications = listener
    await listener.start()

    const guard = new TransactionGuard()
    // Called from a transaction's work, these would run on another connection, outside it: the guard refuses.
    const outside = guard.guard(tracked(repositoriesOn(poolDb(pool)), () => (ownWrites += 1)))
    let closed = false
    return {
      engine: 'postgres',
      pool,
      get listening() {
        return listener.listening
      },
      get listenerProcessId() {
        return listener.processId
      },
      ...outside,
      projectData: new PostgresProjectDataRepository(pool),
      changeVersion: () => (listener.listening ? `${ownWrites}:${otherCommits}` : `${ownWrites}:${otherCommits}:unheard-${(unheard += 1)}`),
      async transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
        guard.check('transaction')
        let wrote = false
        try {
          // Only transaction() makes repositories on a transaction's client into the handle.
          return await inTransaction(pool, (client) =>
            guard.run(() => work(tracked(repositoriesOn(clientDb(client)), () => (wrote = true)) as StoreTransaction)),
          )
        } finally {
          // After COMMIT (or ROLLBACK: nothing changed then, but a failed COMMIT may not say whether it happened).
          if (wrote) ownWrites += 1
        }
      },
      onWork(kind, workListener) {
        workListeners[kind].add(workListener)
        return () => workListeners[kind].delete(workListener)
      },
      announceWork(kind) {
        if (closed) return
        // Fire and forget: a lost announcement only delays another instance until its own timer.
        pool.query('SELECT pg_notify($1, $2)', [WORK_CHANNELS[kind], instanceId]).catch(() => {})
      },
      async close() {
        if (closed) return
        closed = true
        await listener.close()
        await pool.end()
      },
    }
  } catch (error) {
    await notifications?.close()
    await pool.end().catch(() => {})
    throw error
  }
}
