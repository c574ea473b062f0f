/**
 * Vitest global setup of the `postgres` project: one throwaway PostgreSQL cluster for the whole
 * run (initdb + pg_ctl, see postgres-cluster.ts), its superuser URL provided to the tests as
 * `postgresUrl`. Each test service makes a database of its own in it.
 */
import type { TestProject } from 'vitest/node'
import { startPostgresCluster } from './postgres-cluster'

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgresCluster()
  project.provide('postgresUrl', cluster.url)
  return () => cluster.stop()
}
