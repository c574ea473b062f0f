import type { Database, Statement } from 'better-sqlite3'
import type { SettingsRepository } from '../ports'
import type { z } from 'zod'
import { readJsonColumn } from '../json-column'

/** Operator settings as JSON values under stable keys. */
export class SqliteSettingsRepository implements SettingsRepository {
  private readonly statements: { get: Statement; set: Statement; delete: Statement }

  constructor(db: Database) {
    this.statements = {
      get: db.prepare('SELECT value FROM settings WHERE key = ?'),
      set: db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      delete: db.prepare('DELETE FROM settings WHERE key = ?'),
    }
  }

  async get<T extends z.ZodType>(key: string, schema: T): Promise<z.infer<T> | undefined> {
    const row = this.statements.get.get(key) as { value: string } | undefined
    return row && readJsonColumn(schema, row.value, `setting ${key}`)
  }

  async set(key: string, value: unknown): Promise<void> {
    this.statements.set.run(key, JSON.stringify(value))
  }

  async delete(key: string): Promise<void> {
    this.statements.delete.run(key)
  }
}
