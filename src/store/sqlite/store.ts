import { SqliteAnalyticsRepository } from './analytics-repository'
import type { Database } from 'better-sqlite3'
import type { Repositories, Store, StoreTransaction } from '../ports'
import { SqliteAccountsRepository } from './accounts-repository'
import { ConnectionTurns } from './connection-turns'
import { SqliteConversationsRepository } from './conversations-repository'
import { SqliteJobsRepository } from './jobs-repository'
import { openDatabase, type OpenDatabaseOptions } from './open-database'
import { SqlitePhoneNumbersRepository } from './phone-numbers-repository'
import { SqliteProjectDataRepository } from './project-data-repository'
import { SqliteSettingsRepository } from './settings-repository'
import { SqliteSipUsersRepository } from './sip-users-repository'
import { SqliteTestRunsRepository } from './test-runs-repository'
import { SqliteVoiceDictionariesRepository } from './voice-dictionaries-repository'
import { SqliteVoiceAgentsRepository } from './voice-agents-repository'
import { SqliteWebhookDeliveriesRepository } from './webhook-deliveries-repository'
import { StoreUsedInsideTransactionError, TransactionGuard } from '../transaction-guard'

/** How soon a commit by another process on the same file shows in changeVersion(). */
export const OTHER_WRITERS_CHECK_MS = 10

/** The SQLite store: one connection, synchronous underneath, its answers resolved at once. */
export interface SqliteStore extends Store {
  readonly engine: 'sqlite'
  /**
   * The connection itself, for tests and tools that inspect the file; the service never uses it.
   * A write through it moves changeVersion only once a store call or transaction follows.
   */
  readonly db: Database
}

/**
 * Wraps every method of `repository` so that, while a transaction holds the connection, a call
 * from outside it waits for its turn instead of landing inside the transaction (one connection
 * carries one transaction). When no transaction is open, the call runs at once (no other check
 * on the hot path). A call from the transaction's own work would wait for itself: it rejects
 * with StoreUsedInsideTransactionError instead.
 */
function outsideTransactions<R extends object>(
  repositoryName: string,
  repository: R,
  turns: ConnectionTurns,
  guard: TransactionGuard,
  afterCall: () => void,
): R {
  const wrapped: Record<string, unknown> = {}
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(repository))) {
    const method = (repository as Record<string, unknown>)[name]
    if (name === 'constructor' || typeof method !== 'function') continue
    // The methods run their statements before they return (none awaits between two): after the call, whatever it wrote is written.
    const call = (args: unknown[]): unknown => {
      try {
        return (method as (...args: unknown[]) => unknown).apply(repository, args)
      } finally {
        afterCall()
      }
    }
    const waitForTurn = (args: unknown[]): unknown =>
      guard.inside ? Promise.reject(new StoreUsedInsideTransactionError(`${repositoryName}.${name}`)) : turns.run(() => call(args))
    wrapped[name] = (...args: unknown[]) => (turns.busy ? waitForTurn(args) : call(args))
  }
  return wrapped as R
}

export function openSqliteStore(file: string, options: OpenDatabaseOptions = {}): SqliteStore {
  const db = openDatabase(file, options)
  const turns = new ConnectionTurns()
  // total_changes() counts this connection's writes and touches no page, but a statement costs
  // each request 1–2 µs (two caches ask per GET): it is asked again only after a store call or a
  // transaction, through which every write of the service goes, and always while a transaction
  // holds the connection. data_version moves on other connections' commits but reads the WAL
  // index under two file locks (17–30 µs under load on a VM), so it is asked at most once per
  // OTHER_WRITERS_CHECK_MS.
  const ownWritesStatement = db.prepare('SELECT total_changes()').pluck()
  const otherWritesStatement = db.prepare('PRAGMA data_version').pluck()
  let ownWritesSeen: number | undefined
  let otherWrites = 0
  let otherWritesCheckedAt = Number.NEGATIVE_INFINITY
  // The last version given and the counts it was made of: the same counts give the same string, not a new one per call.
  let version = ''
  let versionOwn = -1
  let versionOther = -1
  const forgetOwnWrites = () => {
    ownWritesSeen = undefined
  }
  const ownWrites = (): number => {
    if (ownWritesSeen !== undefined) return ownWritesSeen
    const count = ownWritesStatement.get() as number
    // Not kept while the connection is held: the transaction may write before it ends (it forgets then).
    if (!turns.busy) ownWritesSeen = count
    return count
  }
  const changeVersion = () => {
    const now = performance.now()
    if (now - otherWritesCheckedAt >= OTHER_WRITERS_CHECK_MS) {
      otherWrites = otherWritesStatement.get() as number
      otherWritesCheckedAt = now
    }
    const own = ownWrites()
    if (own !== versionOwn || otherWrites !== versionOther) {
      version = `${own}:${otherWrites}`
      versionOwn = own
      versionOther = otherWrites
    }
    return version
  }
  const jobs = new SqliteJobsRepository(db)
  const repositories: Repositories = {
    accounts: new SqliteAccountsRepository(db),
    voiceAgents: new SqliteVoiceAgentsRepository(db),
    phoneNumbers: new SqlitePhoneNumbersRepository(db),
    sipUsers: new SqliteSipUsersRepository(db),
    jobs,
    conversations: new SqliteConversationsRepository(db, jobs),
    settings: new SqliteSettingsRepository(db),
    webhookDeliveries: new SqliteWebhookDeliveriesRepository(db),
    testRuns: new SqliteTestRunsRepository(db),
    voiceDictionaries: new SqliteVoiceDictionariesRepository(db),
    analytics: new SqliteAnalyticsRepository(db),
  }
  // The one connection's repositories are the handle: only transaction() gives them out so.
  const inTransaction = repositories as StoreTransaction
  const guard = new TransactionGuard()
  const outside = Object.fromEntries(
    Object.entries(repositories).map(([name, repository]) => [
      name,
      outsideTransactions(name, repository as object, turns, guard, forgetOwnWrites),
    ]),
  ) as unknown as Repositories
  // IMMEDIATE takes the write lock as the transaction begins, waiting up to the busy timeout:
  // one that read first and upgraded later would fail with SQLITE_BUSY_SNAPSHOT when another
  // process wrote meanwhile.
  const begin = db.prepare('BEGIN IMMEDIATE')
  const commit = db.prepare('COMMIT')
  const rollback = db.prepare('ROLLBACK')
  const transaction = <T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> => {
    // Nested in another's work, it would wait for that one to end: for ever.
    if (guard.inside) return Promise.reject(new StoreUsedInsideTransactionError('transaction'))
    return turns.run(async () => {
      begin.run()
      try {
        const result = await guard.run(() => work(inTransaction))
        commit.run()
        return result
      } catch (error) {
        // A failed COMMIT (a full disk, a busy reader) leaves the transaction open: it is rolled back whole.
        if (db.inTransaction) rollback.run()
        throw error
      } finally {
        forgetOwnWrites()
      }
    })
  }
  return {
    engine: 'sqlite',
    db,
    ...outside,
    projectData: new SqliteProjectDataRepository({ db, turns, transaction: (work) => transaction(() => work()), openOptions: options }),
    changeVersion,
    transaction,
    // Another process on the same file is not told: its workers find queued work on their own timers.
    onWork: () => () => {},
    announceWork: () => {},
    close: async () => {
      await turns.idle()
      if (db.open) db.close()
    },
  }
}
