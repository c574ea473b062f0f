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
  /** Runs `work` in one transaction: all of it is written, or none. */
  transaction<T>(work: () => T): T
  close(): void
}

export function openStore(file: string, options: OpenDatabaseOptions = {}): Store {
  const db = openDatabase(file, options)
  return {
    db,
    accounts: new AccountsRepository(db),
    voiceAgents: new VoiceAgentsRepository(db),
    phoneNumbers: new PhoneNumbersRepository(db),
    settings: new SettingsRepository(db),
    transaction: (work) => db.transaction(work)(),
    close: () => {
      if (db.open) db.close()
    },
  }
}
