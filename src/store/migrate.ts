import type { Database } from 'better-sqlite3'

export interface Migration {
  version: number
  name: string
  sql: string
}

export class DatabaseTooNewError extends Error {
  constructor(found: number, known: number) {
    super(`The data folder was written by a newer VoiceDesk (schema ${found}; this build knows up to ${known}). Update VoiceDesk or use another --data-dir.`)
  }
}

/**
 * Applies every migration newer than the database, each in its own transaction, and
 * records it in `schema_migrations`. A database from a newer build is refused, never touched.
 */
export function migrate(db: Database, migrations: readonly Migration[]): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL
  )`)
  const current = (db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null }).version ?? 0
  const newest = migrations.at(-1)?.version ?? 0
  if (current > newest) throw new DatabaseTooNewError(current, newest)

  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
  const applied: number[] = []
  for (const migration of migrations) {
    if (migration.version <= current) continue
    db.transaction(() => {
      db.exec(migration.sql)
      record.run(migration.version, migration.name, new Date().toISOString())
    })()
    applied.push(migration.version)
  }
  return applied
}
