import type { TestRunRecord } from './records'

/** A test run as both engines store it: results as JSON text, rewritten whole as the run goes on. */
export interface RunRow {
  id: string
  project_id: string
  agent_id: string
  agent_version: number | null
  status: TestRunRecord['status']
  error: string | null
  concurrency: number
  repeat: number
  results: string
  lease_until: number | null
  created_at: string
  updated_at: string
}

export function toRun(row: RunRow): TestRunRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    agentId: row.agent_id,
    agentVersion: row.agent_version,
    status: row.status,
    error: row.error,
    concurrency: row.concurrency,
    repeat: row.repeat,
    results: JSON.parse(row.results) as unknown[],
    leaseUntil: row.lease_until,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** A run's values in the column order of RunRow, for an INSERT on either engine. */
export function runRowValues(run: TestRunRecord): unknown[] {
  return [
    run.id,
    run.projectId,
    run.agentId,
    run.agentVersion,
    run.status,
    run.error,
    run.concurrency,
    run.repeat,
    JSON.stringify(run.results),
    run.leaseUntil,
    run.createdAt,
    run.updatedAt,
  ]
}
