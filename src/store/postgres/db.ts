import pg from 'pg'

/**
 * Where a repository's statements go: the pool (each statement on whichever connection is
 * free, committed on its own) or the one client of an open transaction.
 */
export interface Db {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>
  /**
   * Runs `work` atomically: in a transaction of its own on a pooled client, or, inside an
   * open transaction, under a savepoint (so a failure undoes only `work`, as SQLite's nested
   * transactions do).
   */
  atomic<T>(work: (db: Db) => Promise<T>): Promise<T>
  /**
   * Runs reads that must agree (a page and its counts) on one snapshot: a REPEATABLE READ,
   * READ ONLY transaction on a pooled client, or the open transaction itself.
   */
  snapshot<T>(work: (db: Db) => Promise<T>): Promise<T>
}

/** bigint (epoch ms, counts) and numeric (sums) as JS numbers, as the records want them: every epoch ms and count fits in 2^53. */
const toNumber = (value: string): number => Number(value)
const NUMBER_TYPES = new Set<number>([pg.types.builtins.INT8, pg.types.builtins.NUMERIC])
export const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    NUMBER_TYPES.has(oid)
      ? toNumber
      : (pg.types.getTypeParser as (oid: number, format?: 'text' | 'binary') => unknown)(oid, format)) as typeof pg.types.getTypeParser,
}

/*
 * PostgreSQL's text cannot hold U+0000, which the contract lets some fields carry (a greeting,
 * a TTS text). Strings cross into the database with NUL written as U+FFFF "0" and U+FFFF as
 * U+FFFF U+FFFF, and come back decoded: reversible, and free for every string without either
 * character (nearly all of them). LIKE patterns and equality see the same encoding, so they
 * still match; no column's order or search depends on the two characters.
 */
const NUL = String.fromCharCode(0)
const ENCODED = /\uFFFF[0\uFFFF]/g

export function encodeText(value: string): string {
  if (!value.includes(NUL) && !value.includes('\uFFFF')) return value
  return value.replaceAll('\uFFFF', '\uFFFF\uFFFF').replaceAll(NUL, '\uFFFF0')
}

export function decodeText(value: string): string {
  return value.includes('\uFFFF') ? value.replace(ENCODED, (pair) => (pair === '\uFFFF0' ? NUL : '\uFFFF')) : value
}

function encodeValues(values: unknown[] | undefined): unknown[] | undefined {
  return values?.map((value) => (typeof value === 'string' ? encodeText(value) : value))
}

function decodeRows<R extends pg.QueryResultRow>(result: pg.QueryResult<R>): pg.QueryResult<R> {
  for (const row of result.rows as Record<string, unknown>[]) {
    for (const key in row) {
      const value = row[key]
      if (typeof value === 'string' && value.includes('\uFFFF')) row[key] = decodeText(value)
    }
  }
  return result
}

/** A query with the NUL-safe text encoding applied both ways (see encodeText). */
export async function query<R extends pg.QueryResultRow>(
  on: pg.ClientBase | pg.Pool,
  text: string,
  values?: unknown[],
): Promise<pg.QueryResult<R>> {
  return decodeRows(await on.query<R>(text, encodeValues(values)))
}

export function clientDb(client: pg.ClientBase): Db {
  let savepoints = 0
  const db: Db = {
    query: (text, values) => query(client, text, values),
    snapshot: (work) => work(db),
    async atomic(work) {
      savepoints += 1
      const name = `atomic_${savepoints}`
      await client.query(`SAVEPOINT ${name}`)
      try {
        const result = await work(db)
        await client.query(`RELEASE SAVEPOINT ${name}`)
        return result
      } catch (error) {
        await client.query(`ROLLBACK TO SAVEPOINT ${name}`)
        throw error
      }
    },
  }
  return db
}

/** Runs `work` in one transaction on a client of `pool`: BEGIN … COMMIT, or ROLLBACK when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    await client.query(begin)
    try {
      const result = await work(client)
      await client.query('COMMIT')
      return result
    } catch (error) {
      try {
        await client.query('ROLLBACK')
      } catch (rollbackError) {
        // The connection itself failed: it goes, not back to the pool.
        broken = rollbackError as Error
      }
      throw error
    }
  } finally {
    client.release(broken)
  }
}

export function poolDb(pool: pg.Pool): Db {
  return {
    query: (text, values) => query(pool, text, values),
    atomic: (work) => inTransaction(pool, (client) => work(clientDb(client))),
    snapshot: (work) => inTransaction(pool, (client) => work(clientDb(client)), 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'),
  }
}
