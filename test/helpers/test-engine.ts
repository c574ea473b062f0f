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

/**
 * A new database in the run's cluster, its name unique to this file's process; answers its URL.
 * Empty, or with `migrated` a copy of the template the global setup migrated (the schema only, no rows).
 * FILE_COPY: with fsync off, copying a small template is ~4 times quicker than PostgreSQL 15's default WAL_LOG.
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<string> {
  const adminUrl = inject('postgresUrl')
  databases += 1
  const name = `vd_${process.pid}_${databases}_${randomBytes(3).toString('hex')}`
  const template = options.migrated ? ` TEMPLATE ${inject('postgresTemplate')}` : ''
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(`CREATE DATABASE ${name}${template} STRATEGY FILE_COPY`)
  } finally {
    await client.end()
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}
