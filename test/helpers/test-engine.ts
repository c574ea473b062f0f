import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { inject } from 'vitest'

/**
 * Which storage engine this test run uses: SQLite always; PostgreSQL in the vitest project
 * `postgres` (VOICEDESK_TEST_ENGINE=postgres), which runs the HTTP suite again on a real
 * PostgreSQL cluster started by postgres-global-setup.ts.
 */
export const TEST_ENGINE: 'sqlite' | 'postgres' = process.env.VOICEDESK_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite'
export const onPostgres = TEST_ENGINE === 'postgres'

let databases = 0

/** A new, empty database in the run's cluster; answers its URL. */
export async function createTestDatabase(): Promise<string> {
  const adminUrl = inject('postgresUrl')
  databases += 1
  const name = `vd_${process.pid}_${databases}_${randomBytes(3).toString('hex')}`
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(`CREATE DATABASE ${name}`)
  } finally {
    await client.end()
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}
