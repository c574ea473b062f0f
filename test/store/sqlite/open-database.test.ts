import BetterSqlite3 from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DatabaseTooNewError, migrate } from '../../../src/store/sqlite/migrate'
import { MIGRATIONS } from '../../../src/store/sqlite/migrations'
import { openDatabase } from '../../../src/store/sqlite/open-database'
import { makeTempDir } from '../../helpers/temp-dir'

describe('openDatabase', () => {
  it('creates the folder, turns on WAL and foreign keys, and applies every migration once', () => {
    const file = join(makeTempDir(), 'nested', 'voicedesk.db')
    const db = openDatabase(file)
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    const applied = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all()
    expect(applied).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })))
    db.close()

    const reopened = openDatabase(file)
    expect(reopened.prepare('SELECT COUNT(*) AS count FROM schema_migrations').get()).toEqual({ count: MIGRATIONS.length })
    reopened.close()
  })

  it('enforces foreign keys: a number cannot point at an agent that does not exist', () => {
    const db = openDatabase(join(makeTempDir(), 'voicedesk.db'))
    expect(() =>
      db
        .prepare(
          `INSERT INTO phone_numbers (id, project_id, api_key_id, user_id, number, label, type, provider_account_sid,
          provider_auth_token, voice_agent_id, created_at, updated_at) VALUES ('n', 'p', 'k', 'u', '+1', 'l', 'TELEPHONY', 's', 't', 'a', 'x', 'x')`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY/)
    db.close()
  })

  it('refuses a database written by a newer build, and leaves it untouched', () => {
    const file = join(makeTempDir(), 'voicedesk.db')
    openDatabase(file).close()
    const raw = new BetterSqlite3(file)
    raw.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 'x')").run()
    raw.close()
    expect(() => openDatabase(file)).toThrow(DatabaseTooNewError)
    const after = new BetterSqlite3(file)
    expect(after.prepare('SELECT MAX(version) AS version FROM schema_migrations').get()).toEqual({ version: 999 })
    after.close()
  })

  it('rolls a failing migration back whole', () => {
    const db = new BetterSqlite3(':memory:')
    const broken = [
      ...MIGRATIONS,
      { version: MIGRATIONS.length + 1, name: 'broken', sql: 'CREATE TABLE half (id TEXT); INSERT INTO nowhere VALUES (1);' },
    ]
    expect(() => migrate(db, broken)).toThrow(/no such table: nowhere/)
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined()
    expect(db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get()).toEqual({ version: MIGRATIONS.length })
    db.close()
  })
})
