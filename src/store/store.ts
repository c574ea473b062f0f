import type { Database } from 'better-sqlite3'
import { AccountsRepository } from './accounts-repository'
import { JobsRepository } from './jobs-repository'
import { openDatabase, type OpenDatabaseOptions } from './open-database'
import { PhoneNumbersRepository } from './phone-numbers-repository'
import { SettingsRepository } from './settings-repository'
import { VoiceAgentsRepository } from './voice-agents-repository'
import { WebhookDeliveriesRepository } from './webhook-deliveries-repository'

/** How soon a commit by another process on the same file shows in changeVersion(). */
export const OTHER_WRITERS_CHECK_MS = 1

/** The migrated database and its repositories, opened once per runtime. */
export interface Store {
  db: Database
  accounts: AccountsRepository
  voiceAgents: VoiceAgentsRepository
  phoneNumbers: PhoneNumbersRepository
  jobs: JobsRepository
  settings: SettingsRepository
  webhookDeliveries: WebhookDeliveriesRepository
  /**
   * Changes whenever this connection wrote a row, and within OTHER_WRITERS_CHECK_MS of a
   * commit by another connection (another `voicedesk` on the same data folder): the key
   * for caches of derived reads.
   */
  changeVersion(): string
  /**
   * Runs `work` in one transaction: all of it is written, or none. The transaction takes the
   * write lock as it begins (IMMEDIATE), waiting up to the busy timeout: one that read first
   * and upgraded later would fail with SQLITE_BUSY_SNAPSHOT when another process wrote meanwhile.
   */
  transaction<T>(work: () => T): T
  close(): void
}

export function openStore(file: string, options: OpenDatabaseOptions = {}): Store {
  const db = openDatabase(file, options)
  // total_changes() counts this connection's writes and touches no page (0.1 µs). data_version
  // moves on other connections' commits but reads the WAL index (1 µs and more under load),
  // so it is asked at most once per OTHER_WRITERS_CHECK_MS.
  const ownWrites = db.prepare('SELECT total_changes()').pluck()
  const otherWritesStatement = db.prepare('PRAGMA data_version').pluck()
  let otherWrites = 0
  let otherWritesCheckedAt = Number.NEGATIVE_INFINITY
  const changeVersion = () => {
    const now = performance.now()
    if (now - otherWritesCheckedAt >= OTHER_WRITERS_CHECK_MS) {
      otherWrites = otherWritesStatement.get() as number
      otherWritesCheckedAt = now
    }
    return `${ownWrites.get() as number}:${otherWrites}`
  }
  return {
    db,
    accounts: new AccountsRepository(db),
    voiceAgents: new VoiceAgentsRepository(db),
    phoneNumbers: new PhoneNumbersRepository(db),
    jobs: new JobsRepository(db),
    settings: new SettingsRepository(db),
    webhookDeliveries: new WebhookDeliveriesRepository(db),
    changeVersion,
    transaction: (work) => db.transaction(work).immediate(),
    close: () => {
      if (db.open) db.close()
    },
  }
}
