import type { Database } from 'better-sqlite3'
import { AccountsRepository } from './accounts-repository'
import { openDatabase, type OpenDatabaseOptions } from './open-database'
import { PhoneNumbersRepository } from './phone-numbers-repository'
import { SettingsRepository } from './settings-repository'
import { VoiceAgentsRepository } from './voice-agents-repository'

/** The migrated database and its repositories, opened once per runtime. */
export interface Store {
  db: Database
  accounts: AccountsRepository
  voiceAgents: VoiceAgentsRepository
  phoneNumbers: PhoneNumbersRepository
  settings: SettingsRepository
  /**
   * Changes whenever any row was written, by this connection or by another process
   * (another `voicedesk` on the same data folder): the key for caches of derived reads.
   */
  changeVersion(): string
  /** Runs `work` in one transaction: all of it is written, or none. */
  transaction<T>(work: () => T): T
  close(): void
}

export function openStore(file: string, options: OpenDatabaseOptions = {}): Store {
  const db = openDatabase(file, options)
  // total_changes() counts this connection's writes; data_version moves on other connections' commits.
  const version = db.prepare("SELECT total_changes() || ':' || (SELECT data_version FROM pragma_data_version)").pluck()
  return {
    db,
    accounts: new AccountsRepository(db),
    voiceAgents: new VoiceAgentsRepository(db),
    phoneNumbers: new PhoneNumbersRepository(db),
    settings: new SettingsRepository(db),
    changeVersion: () => version.get() as string,
    transaction: (work) => db.transaction(work)(),
    close: () => {
      if (db.open) db.close()
    },
  }
}
