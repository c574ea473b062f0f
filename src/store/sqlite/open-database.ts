import BetterSqlite3, { type Database } from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { migrate } from './migrate'
import { MIGRATIONS } from './migrations'

export interface OpenDatabaseOptions {
  /**
   * Path of a better_sqlite3.node built for the host runtime. Node uses the addon npm
   * built; Electron passes the copy built against its own ABI (see README, "SQLite in two runtimes").
   */
  nativeBinding?: string
}

/** Opens (creating if needed) and migrates the store at `file`. */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const db = new BetterSqlite3(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
  try {
    db.pragma('journal_mode = WAL')
    // WAL + NORMAL: a commit survives a process crash; only an OS crash may lose the last few.
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 5000')
    migrate(db, MIGRATIONS)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}
