import type { z } from 'zod'
import { readJsonColumn } from '../json-column'
import type { SettingsRepository } from '../ports'
import type { Db } from './db'

/** Operator settings as JSON text under stable keys (text, not jsonb: the stored bytes are what was written). */
export class PostgresSettingsRepository implements SettingsRepository {
  constructor(private readonly db: Db) {}

  async get<T extends z.ZodType>(key: string, schema: T): Promise<z.infer<T> | undefined> {
    const { rows } = await this.db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key])
    return rows[0] && readJsonColumn(schema, rows[0].value, `setting ${key}`)
  }

  async set(key: string, value: unknown): Promise<void> {
    await this.db.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
      key,
      JSON.stringify(value),
    ])
  }

  async delete(key: string): Promise<void> {
    await this.db.query('DELETE FROM settings WHERE key = $1', [key])
  }
}
