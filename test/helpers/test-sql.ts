import type { Statement } from 'better-sqlite3'
import pg from 'pg'
import type { Runtime } from '../../src/service/runtime'
import type { PostgresStore } from '../../src/store/postgres/store'
import type { SqliteStore } from '../../src/store/sqlite/store'

/**
 * Plain SQL on the database under a runtime, whichever the engine, for tests that look at
 * stored rows (is a secret sealed?) or change them behind the service's back. Placeholders
 * are `?`. On PostgreSQL it uses a connection of its own: another instance, as far as the
 * service can tell (its writes reach the service's caches by NOTIFY, not as its own).
 */
export interface TestSql {
  all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>
  run(sql: string, ...params: unknown[]): Promise<void>
  close(): Promise<void>
}

export async function testSqlOf(runtime: Runtime): Promise<TestSql> {
  const { store } = runtime
  if (store.engine === 'sqlite') {
    const { db } = store as SqliteStore
    // Prepared once per text: fuzz tests read the same tables after thousands of requests.
    const statements = new Map<string, Statement>()
    const prepared = (sql: string) => statements.get(sql) ?? statements.set(sql, db.prepare(sql)).get(sql)!
    return {
      all: async <T>(sql: string, ...params: unknown[]) => prepared(sql).all(...params) as T[],
      run: async (sql, ...params) => void prepared(sql).run(...params),
      close: async () => {},
    }
  }
  const client = new pg.Client({ connectionString: (store as PostgresStore).pool.options.connectionString })
  await client.connect()
  let index = 0
  const numbered = (sql: string) => sql.replace(/\?/g, () => `$${(index += 1)}`)
  return {
    all: async <T>(sql: string, ...params: unknown[]) => {
      index = 0
      return (await client.query(numbered(sql), params)).rows as T[]
    },
    run: async (sql, ...params) => {
      index = 0
      await client.query(numbered(sql), params)
    },
    close: () => client.end(),
  }
}
