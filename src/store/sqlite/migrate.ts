import type { Database } from 'better-sqlite3'

export interface Migration {
  version: number
  name: string
  sql: string
  /** Work SQL alone cannot say (e.g. making indexes again from their stored definitions), run after `sql` in the same transaction. */
  after?: (db: Database) => void
}

export class DatabaseTooNewError extends Error {
  constructor(found: number, known: number) {
    super(
      `The data folder was written by a newer VoiceDesk (schema ${found}; this build knows up to ${known}). Update VoiceDesk or use another --data-dir.`,
    )
  }
}

/**
 * Applies every migration newer than the database, each in its own transaction, and
 * records it in `schema_migrations`. A database from a newer build is refused, never touched.
 * When none is pending nothing is written (a start on a full disk still opens). Each
 * transaction is IMMEDIATE and checks the version again under the write lock, so two
 * processes starting together on one data folder apply each migration once.
 */
export function migrate(db: Database, migrations: readonly Migration[]): number[] {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").pluck()
  if (!hasTable.get()) {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL
    )`)
  }
  const currentVersion = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').pluck()
  const current = (currentVersion.get() as number | null) ?? 0
  const newest = migrations.at(-1)?.version ?? 0
  if (current > newest) throw new DatabaseTooNewError(current, newest)

  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
  const applied: number[] = []
  for (const migration of migrations) {
    if (migration.version <= current) continue
    const appliedHere = db
      .transaction(() => {
        if (((currentVersion.get() as number | null) ?? 0) >= migration.version) return false // another process did
        db.exec(migration.sql)
        migration.after?.(db)
        record.run(migration.version, migration.name, new Date().toISOString())
        return true
      })
      .immediate()
    if (appliedHere) applied.push(migration.version)
  }
  return applied
}
