import type pg from 'pg'

export interface Migration {
  version: number
  name: string
  sql: string
}

export class SchemaTooNewError extends Error {
  constructor(found: number, known: number) {
    super(
      `The PostgreSQL database was migrated by a newer VoiceDesk (schema ${found}; this build knows up to ${known}). Update VoiceDesk or point it at another database.`,
    )
  }
}

/** The advisory lock every migrating instance takes: a fixed key, "voicedesk" in ASCII. */
const MIGRATION_LOCK = 0x766f696365646573n

/**
 * Applies every migration newer than the database, each in its own transaction, and records
 * it in `schema_migrations`. A database from a newer build is refused, never touched; when
 * none is pending nothing is written. Each transaction takes `pg_advisory_xact_lock` first and
 * reads the version again under it, so instances starting together apply each migration once
 * (the others wait, then find it applied).
 */
export async function migrate(client: pg.ClientBase, migrations: readonly Migration[]): Promise<number[]> {
  const newest = migrations.at(-1)?.version ?? 0
  const currentVersion = async (): Promise<number> => {
    const exists = await client.query<{ table: string | null }>("SELECT to_regclass('schema_migrations')::text AS table")
    if ((exists.rows[0]?.table ?? null) === null) return 0
    return (await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations')).rows[0]?.version ?? 0
  }
  const current = await currentVersion()
  if (current > newest) throw new SchemaTooNewError(current, newest)
  const applied: number[] = []
  for (const migration of migrations) {
    if (migration.version <= current) continue
    await client.query('BEGIN')
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()])
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL
      )`)
      const now = await currentVersion()
      if (now > newest) throw new SchemaTooNewError(now, newest)
      if (now < migration.version) {
        await client.query(migration.sql)
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          new Date().toISOString(),
        ])
        applied.push(migration.version)
      }
      await client.query('COMMIT')
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {})
      throw error
    }
  }
  return applied
}
