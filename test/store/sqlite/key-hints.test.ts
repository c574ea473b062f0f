import BetterSqlite3 from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { generateApiKey, keyHint } from '../../../src/service/ops/api-keys'
import { SqliteAccountsRepository } from '../../../src/store/sqlite/accounts-repository'
import { migrate } from '../../../src/store/sqlite/migrate'
import { MIGRATIONS } from '../../../src/store/sqlite/migrations'
import { makeTempDir } from '../../helpers/temp-dir'

describe('key hints', () => {
  it('show at most the first 6 and the last 4 characters, and less of a short key', () => {
    const key = generateApiKey()
    expect(keyHint(key)).toBe(`${key.slice(0, 6)}…${key.slice(-4)}`)
    expect(keyHint('abcdefghijklmnopqrst')).toBe('abcde…st') // 20 characters: 5 and 2
    expect(keyHint('abcdefgh')).toBe('ab…h')
    expect(keyHint('abc')).toBe('…')
  })

  it('stored by an older build with 7 leading characters are cut to 6 by the migration', async () => {
    const file = join(makeTempDir(), 'voicedesk.db')
    const db = new BetterSqlite3(file)
    const shortHints = MIGRATIONS.findIndex((migration) => migration.name === 'short-key-hints')
    expect(shortHints).toBeGreaterThan(0)
    migrate(db, MIGRATIONS.slice(0, shortHints))
    db.prepare("INSERT INTO projects (id, name, is_default, created_at) VALUES ('p', 'P', 1, 'x')").run()
    db.prepare("INSERT INTO users (id, name, created_at) VALUES ('u', 'U', 'x')").run()
    const accounts = new SqliteAccountsRepository(db)
    await accounts.insertKey({
      id: 'old',
      projectId: 'p',
      userId: 'u',
      name: 'old',
      keyHash: 'h1',
      keyHint: 'vd_AbCd…wXyZ',
      createdAt: 'x',
    })
    await accounts.insertKey({ id: 'new', projectId: 'p', userId: 'u', name: 'new', keyHash: 'h2', keyHint: 'ci_01…ij', createdAt: 'x' })
    migrate(db, MIGRATIONS)
    expect((await accounts.findKey('old'))?.keyHint).toBe('vd_AbC…wXyZ')
    expect((await accounts.findKey('new'))?.keyHint).toBe('ci_01…ij')
    db.close()
  })
})
