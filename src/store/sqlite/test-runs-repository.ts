import type { Database, Statement } from 'better-sqlite3'
import type { TestRunsRepository } from '../ports'
import type { TestRunProgress, TestRunRecord, TestSuiteRecord } from '../records'
import { runRowValues, toRun, type RunRow } from '../test-run-rows'

/** Agent test suites and runs (ports.ts, TestRunsRepository). Results are JSON text, rewritten whole as a run goes on. */
export class SqliteTestRunsRepository implements TestRunsRepository {
  private readonly statements: Record<
    'putSuite' | 'findSuite' | 'insertRun' | 'saveRun' | 'findRun' | 'listRuns' | 'failAbandoned',
    Statement
  >

  constructor(db: Database) {
    this.statements = {
      putSuite: db.prepare(
        `INSERT INTO agent_test_suites (agent_id, project_id, suite, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (agent_id) DO UPDATE SET suite = excluded.suite, updated_at = excluded.updated_at`,
      ),
      findSuite: db.prepare('SELECT suite, updated_at FROM agent_test_suites WHERE agent_id = ? AND project_id = ?'),
      insertRun: db.prepare(
        `INSERT INTO agent_test_runs (id, project_id, agent_id, agent_version, status, error, concurrency, repeat, results, lease_until,
           created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      saveRun: db.prepare(
        `UPDATE agent_test_runs SET status = ?, error = ?, results = ?, lease_until = ?, updated_at = ? WHERE id = ? AND status = 'RUNNING'`,
      ),
      findRun: db.prepare('SELECT * FROM agent_test_runs WHERE id = ? AND project_id = ?'),
      listRuns: db.prepare(
        'SELECT * FROM agent_test_runs WHERE agent_id = ? AND project_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
      ),
      failAbandoned: db.prepare(
        `UPDATE agent_test_runs SET status = 'FAILED', error = ?, lease_until = NULL, updated_at = ?
         WHERE status = 'RUNNING' AND (lease_until IS NULL OR lease_until < ?)`,
      ),
    }
  }

  async putSuite(record: TestSuiteRecord): Promise<void> {
    this.statements.putSuite.run(record.agentId, record.projectId, JSON.stringify(record.suite), record.updatedAt)
  }

  async findSuite(agentId: string, projectId: string): Promise<TestSuiteRecord | undefined> {
    const row = this.statements.findSuite.get(agentId, projectId) as { suite: string; updated_at: string } | undefined
    return row && { agentId, projectId, suite: JSON.parse(row.suite) as unknown, updatedAt: row.updated_at }
  }

  async insertRun(run: TestRunRecord): Promise<void> {
    this.statements.insertRun.run(...runRowValues(run))
  }

  async saveRun(id: string, progress: TestRunProgress): Promise<boolean> {
    const { status, error, results, leaseUntil, updatedAt } = progress
    return this.statements.saveRun.run(status, error, JSON.stringify(results), leaseUntil, updatedAt, id).changes === 1
  }

  async findRun(id: string, projectId: string): Promise<TestRunRecord | undefined> {
    const row = this.statements.findRun.get(id, projectId) as RunRow | undefined
    return row && toRun(row)
  }

  async listRuns(agentId: string, projectId: string, limit: number): Promise<TestRunRecord[]> {
    return (this.statements.listRuns.all(agentId, projectId, limit) as RunRow[]).map(toRun)
  }

  async failAbandonedRuns(now: number, error: string, updatedAt: string): Promise<number> {
    return this.statements.failAbandoned.run(error, updatedAt, now).changes
  }
}
