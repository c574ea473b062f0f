import type { TestRunsRepository } from '../ports'
import type { TestRunProgress, TestRunRecord, TestSuiteRecord } from '../records'
import { runRowValues, toRun, type RunRow } from '../test-run-rows'
import type { Db } from './db'

const RUN_COLUMNS =
  'id, project_id, agent_id, agent_version, status, error, concurrency, repeat, results, lease_until, created_at, updated_at'

/** Agent test suites and runs (ports.ts, TestRunsRepository). JSON as text: the stored bytes are what was written. */
export class PostgresTestRunsRepository implements TestRunsRepository {
  constructor(private readonly db: Db) {}

  async putSuite(record: TestSuiteRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO agent_test_suites (agent_id, project_id, suite, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (agent_id) DO UPDATE SET suite = excluded.suite, updated_at = excluded.updated_at`,
      [record.agentId, record.projectId, JSON.stringify(record.suite), record.updatedAt],
    )
  }

  async findSuite(agentId: string, projectId: string): Promise<TestSuiteRecord | undefined> {
    const { rows } = await this.db.query<{ suite: string; updated_at: string }>(
      'SELECT suite, updated_at FROM agent_test_suites WHERE agent_id = $1 AND project_id = $2',
      [agentId, projectId],
    )
    const row = rows[0]
    return row && { agentId, projectId, suite: JSON.parse(row.suite) as unknown, updatedAt: row.updated_at }
  }

  async insertRun(run: TestRunRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO agent_test_runs (${RUN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      runRowValues(run),
    )
  }

  async saveRun(id: string, progress: TestRunProgress): Promise<boolean> {
    const { status, error, results, leaseUntil, updatedAt } = progress
    const { rowCount } = await this.db.query(
      `UPDATE agent_test_runs SET status = $1, error = $2, results = $3, lease_until = $4, updated_at = $5 WHERE id = $6 AND status = 'RUNNING'`,
      [status, error, JSON.stringify(results), leaseUntil, updatedAt, id],
    )
    return rowCount === 1
  }

  async findRun(id: string, projectId: string): Promise<TestRunRecord | undefined> {
    const { rows } = await this.db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM agent_test_runs WHERE id = $1 AND project_id = $2`, [
      id,
      projectId,
    ])
    return rows[0] && toRun(rows[0])
  }

  async listRuns(agentId: string, projectId: string, limit: number): Promise<TestRunRecord[]> {
    const { rows } = await this.db.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM agent_test_runs WHERE agent_id = $1 AND project_id = $2 ORDER BY created_at DESC, seq DESC LIMIT $3`,
      [agentId, projectId, limit],
    )
    return rows.map(toRun)
  }

  async failAbandonedRuns(now: number, error: string, updatedAt: string): Promise<number> {
    const { rowCount } = await this.db.query(
      `UPDATE agent_test_runs SET status = 'FAILED', error = $1, lease_until = NULL, updated_at = $2
       WHERE status = 'RUNNING' AND (lease_until IS NULL OR lease_until < $3)`,
      [error, updatedAt, now],
    )
    return rowCount ?? 0
  }
}
