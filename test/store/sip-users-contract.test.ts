import BetterSqlite3 from 'better-sqlite3'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Store } from '../../src/store/ports'
import { openPostgresStore } from '../../src/store/postgres/store'
import { openSqliteStore } from '../../src/store/sqlite/store'
import { makeTempDir } from '../helpers/temp-dir'
import { lazyPostgresCluster } from '../helpers/store-fixtures'

/*
 * The storage contract of SIP users (service-wide: no project), on both engines, and the index
 * the SIP line's lookup of a dialled number across projects uses.
 */

const postgresCluster = lazyPostgresCluster()

const ENGINES = [
  { name: 'sqlite', open: async (): Promise<Store> => openSqliteStore(join(makeTempDir(), 'voicedesk.db')) },
  { name: 'postgres', open: async (): Promise<Store> => openPostgresStore({ url: await (await postgresCluster()).createDatabase() }) },
] as const

const HA1 = 'a'.repeat(32)

describe.each(ENGINES)('SIP users on $name', (engine) => {
  const opened: Store[] = []
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close()
  })
  const open = async () => {
    const store = await engine.open()
    opened.push(store)
    return store
  }

  it('adds, lists by name, counts, resets and removes; a taken name is refused without writing', async () => {
    const store = await open()
    expect(await store.sipUsers.count()).toBe(0)
    expect(await store.sipUsers.insert({ name: 'zoe', ha1Md5: HA1, createdAt: 't1', updatedAt: 't1' })).toBe(true)
    expect(await store.sipUsers.insert({ name: '+15550001', ha1Md5: HA1, createdAt: 't2', updatedAt: 't2' })).toBe(true)
    expect(await store.sipUsers.insert({ name: 'zoe', ha1Md5: 'b'.repeat(32), createdAt: 't3', updatedAt: 't3' })).toBe(false)
    expect(await store.sipUsers.count()).toBe(2)
    expect((await store.sipUsers.list()).map((user) => user.name)).toEqual(['+15550001', 'zoe'])
    expect(await store.sipUsers.get('zoe')).toEqual({ name: 'zoe', ha1Md5: HA1, createdAt: 't1', updatedAt: 't1' })
    expect(await store.sipUsers.get('Zoe')).toBeUndefined()
    expect(await store.sipUsers.setPassword('zoe', 'c'.repeat(32), 't4')).toBe(true)
    expect(await store.sipUsers.get('zoe')).toMatchObject({ ha1Md5: 'c'.repeat(32), createdAt: 't1', updatedAt: 't4' })
    expect(await store.sipUsers.setPassword('nobody', HA1, 't5')).toBe(false)
    expect(await store.sipUsers.remove('zoe')).toBe(true)
    expect(await store.sipUsers.remove('zoe')).toBe(false)
    expect(await store.sipUsers.count()).toBe(1)
  })

  it('writes inside a transaction and rolls back with it', async () => {
    const store = await open()
    await expect(
      store.transaction(async (tx) => {
        await tx.sipUsers.insert({ name: 'ann', ha1Md5: HA1, createdAt: 't', updatedAt: 't' })
        expect(await tx.sipUsers.get('ann')).toBeDefined()
        throw new Error('undo')
      }),
    ).rejects.toThrow('undo')
    expect(await store.sipUsers.get('ann')).toBeUndefined()
  })
})

describe('the lookup of a dialled number across projects', () => {
  it('uses an index on SQLite', async () => {
    const file = join(makeTempDir(), 'voicedesk.db')
    await openSqliteStore(file).close()
    const db = new BetterSqlite3(file, { readonly: true })
    const plan = db
      .prepare('EXPLAIN QUERY PLAN SELECT * FROM phone_numbers p WHERE p.number = ? ORDER BY p.created_at, p.id LIMIT 10')
      .all('+15550001') as { detail: string }[]
    db.close()
    expect(plan.map((row) => row.detail).join('\n')).toMatch(/USING INDEX phone_numbers_by_number/)
  })

  it('uses an index on PostgreSQL', async () => {
    const store = await openPostgresStore({ url: await (await postgresCluster()).createDatabase() })
    try {
      const client = await store.pool.connect()
      try {
        await client.query('SET enable_seqscan = off')
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          "EXPLAIN SELECT * FROM phone_numbers p WHERE p.number = '+15550001' ORDER BY p.created_at, p.id LIMIT 10",
        )
        expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/phone_numbers_by_number/)
      } finally {
        client.release()
      }
    } finally {
      await store.close()
    }
  })
})
