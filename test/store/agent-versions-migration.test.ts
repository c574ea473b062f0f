import BetterSqlite3 from 'better-sqlite3'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { PostgresAccountsRepository } from '../../src/store/postgres/accounts-repository'
import { clientDb } from '../../src/store/postgres/db'
import { migrate as migratePostgres } from '../../src/store/postgres/migrate'
import { MIGRATIONS as POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations'
import { PostgresVoiceAgentsRepository } from '../../src/store/postgres/voice-agents-repository'
import { migrate as migrateSqlite } from '../../src/store/sqlite/migrate'
import { MIGRATIONS as SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations'
import { SqliteVoiceAgentsRepository } from '../../src/store/sqlite/voice-agents-repository'
import { agentRecord, at, lazyPostgresCluster, P1 } from '../helpers/store-fixtures'
import { makeTempDir } from '../helpers/temp-dir'

/*
 * The agent-versions migration on a database that already holds agents: each gets version 1,
 * its state then (source `migration`), on both engines; numbering goes on from there.
 */

const postgresCluster = lazyPostgresCluster()

describe('the agent-versions migration', () => {
  it('SQLite: gives every existing agent version 1, exactly its state', async () => {
    const db = new BetterSqlite3(join(makeTempDir(), 'voicedesk.db'))
    db.pragma('foreign_keys = ON')
    const before = SQLITE_MIGRATIONS.findIndex((migration) => migration.name === 'agent-versions')
    expect(before).toBeGreaterThan(0)
    migrateSqlite(db, SQLITE_MIGRATIONS.slice(0, before))
    db.prepare(`INSERT INTO projects (id, name, is_default, created_at) VALUES ('${P1}', 'P', 1, 'x')`).run()
    db.prepare("INSERT INTO users (id, name, created_at) VALUES ('user-1', 'U', 'x')").run()
    db.prepare(
      `INSERT INTO api_keys (id, project_id, user_id, name, key_hash, key_hint, created_at) VALUES ('key-1', '${P1}', 'user-1', 'k', 'h', 'x…y', 'x')`,
    ).run()
    // Written as the schema before it holds an agent (the repository's statements already name the versions table).
    db.prepare(
      `INSERT INTO voice_agents (id, project_id, api_key_id, agent_name, lang, poke_messages, real_time, silence_threshold, interrupt,
        voice_id, tools, params, outcome_response_shape, created_at, updated_at)
       VALUES ('agent-old', '${P1}', 'key-1', 'Old desk', 'ar', '["هل ما زلت معي؟"]', 0, 9, 1, 'voice-1', '{"smartCallEnd":true}', '{"a":"b"}',
        '{"type":"object"}', '${at(1)}', '${at(2)}')`,
    ).run()

    migrateSqlite(db, SQLITE_MIGRATIONS)

    const agents = new SqliteVoiceAgentsRepository(db)
    const agent = await agents.findInProject('agent-old', P1)
    expect(agent).toMatchObject({ agentName: 'Old desk', realTime: false, tools: { smartCallEnd: true } })
    expect(await agents.findVersion('agent-old', P1, 1)).toEqual({ ...agent, version: 1, source: 'migration', versionedAt: at(2) })
    expect(await agents.addVersion({ ...(agent ?? agentRecord()), agentName: 'New desk' }, 'update', at(3))).toBe(2)
    db.close()
  })

  it('PostgreSQL: gives every existing agent version 1, exactly its state', async () => {
    const url = await (await postgresCluster()).createDatabase()
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      const before = POSTGRES_MIGRATIONS.findIndex((migration) => migration.name === 'agent-versions')
      expect(before).toBeGreaterThan(0)
      await migratePostgres(client, POSTGRES_MIGRATIONS.slice(0, before))
      const db = clientDb(client)
      const accounts = new PostgresAccountsRepository(db)
      await accounts.insertProject({ id: P1, name: 'Default', isDefault: true, createdAt: at(0) })
      await accounts.insertLocalUser('user-1', 'Local', at(0))
      await accounts.insertKey({ id: 'key-1', projectId: P1, userId: 'user-1', name: 'k', keyHash: 'h', keyHint: 'x…y', createdAt: at(0) })
      const agents = new PostgresVoiceAgentsRepository(db)
      const old = agentRecord({ id: 'agent-old', lang: 'ar', agentName: 'مكتب', createdAt: at(1), updatedAt: at(2) })
      await agents.insert(old)

      await migratePostgres(client, POSTGRES_MIGRATIONS)

      expect(await agents.findVersion('agent-old', P1, 1)).toEqual({ ...old, version: 1, source: 'migration', versionedAt: at(2) })
      expect(await agents.addVersion({ ...old, agentName: 'New desk' }, 'update', at(3))).toBe(2)
    } finally {
      await client.end()
    }
  })
})
