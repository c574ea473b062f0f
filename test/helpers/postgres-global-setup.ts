/**
 * Vitest global setup of the `postgres` project: one throwaway PostgreSQL cluster for the whole
 * run (initdb + pg_ctl, see postgres-cluster.ts), its superuser URL provided to the tests as
 * `postgresUrl`. Each test service makes a database of its own in it, copied from a template
 * migrated once here (`postgresTemplate`): a copy takes ~60 ms where an empty database and
 * the migrations took ~700 ms, for every test. Migrations themselves still run from empty in
 * the store contract suite and the team tests (createTestDatabase without `migrated`).
 */
import type { TestProject } from 'vitest/node'
import { openPostgresStore } from '../../src/store/postgres/store'
import { startPostgresCluster } from './postgres-cluster'

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string
    postgresTemplate: string
  }
}

const TEMPLATE = 'vd_migrated_template'

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgresCluster()
  try {
    const store = await openPostgresStore({ url: await cluster.createDatabase(TEMPLATE) })
    await store.close()
  } catch (error) {
    await cluster.stop()
    throw error
  }
  project.provide('postgresUrl', cluster.url)
  project.provide('postgresTemplate', TEMPLATE)
  return () => cluster.stop()
}
