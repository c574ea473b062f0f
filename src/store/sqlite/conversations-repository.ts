import type { Database, Statement } from 'better-sqlite3'
import type { ConversationState } from '../../shared/api/conversations'
import type { ConversationsRepository } from '../ports'
import type { ConversationProgress, JobRecord } from '../records'
import type { SqliteJobsRepository } from './jobs-repository'

/** Live calls in the jobs table (see ConversationsRepository). */
export class SqliteConversationsRepository implements ConversationsRepository {
  private readonly statements: {
    start: Statement
    save: Statement
    requeueAbandoned: Statement
    setRecording: Statement
    removeRecording: Statement
  }

  constructor(
    db: Database,
    private readonly jobs: SqliteJobsRepository,
  ) {
    this.statements = {
      // run_after follows the lease, so a call is never due while its owner renews it.
      start:
        db.prepare(`UPDATE jobs SET status = 'IN_PROGRESS', lease_owner = @owner, lease_expires_at = @leaseUntil, run_after = @leaseUntil,
          text = @text, job_response = @jobResponse, usage_seconds = @usageSeconds, total_cost = @totalCost, updated_at = @updatedAt
        WHERE id = @id AND type = 'CONVERSATION' AND status = 'PENDING' AND lease_owner IS NULL`),
      save: db.prepare(`UPDATE jobs SET lease_expires_at = @leaseUntil, run_after = @leaseUntil,
          text = @text, job_response = @jobResponse, usage_seconds = @usageSeconds, total_cost = @totalCost, updated_at = @updatedAt
        WHERE id = @id AND lease_owner = @owner AND status = 'IN_PROGRESS'`),
      requeueAbandoned: db.prepare(`UPDATE jobs SET status = 'PENDING', lease_owner = NULL, lease_expires_at = NULL, run_after = @now
        WHERE seq IN (SELECT seq FROM jobs INDEXED BY jobs_in_progress WHERE status = 'IN_PROGRESS' AND lease_expires_at < @now)`),
      setRecording: db.prepare(`UPDATE jobs SET job_response = json_set(job_response, '$.recording', @recording), updated_at = @updatedAt
        WHERE id = @id AND type = 'CONVERSATION' AND json_valid(job_response)`),
      removeRecording: db.prepare(`UPDATE jobs SET job_response = json_remove(job_response, '$.recording'), updated_at = @updatedAt
        WHERE id = @id AND type = 'CONVERSATION' AND json_valid(job_response)`),
    }
  }

  async start(
    id: string,
    owner: string,
    leaseUntil: number,
    progress: ConversationProgress,
    updatedAt: string,
  ): Promise<JobRecord | undefined> {
    const started =
      this.statements.start.run({ id, owner, leaseUntil, updatedAt, ...progress, jobResponse: JSON.stringify(progress.jobResponse) })
        .changes === 1
    return started ? this.jobs.findById(id) : undefined
  }

  async save(id: string, owner: string, progress: ConversationProgress, leaseUntil: number, updatedAt: string): Promise<boolean> {
    return (
      this.statements.save.run({ id, owner, leaseUntil, updatedAt, ...progress, jobResponse: JSON.stringify(progress.jobResponse) })
        .changes === 1
    )
  }

  async requeueAbandoned(now: number): Promise<number> {
    return this.statements.requeueAbandoned.run({ now }).changes
  }

  async setRecording(id: string, recording: ConversationState['recording'], updatedAt: string): Promise<boolean> {
    const statement = recording === undefined ? this.statements.removeRecording : this.statements.setRecording
    return statement.run({ id, updatedAt, ...(recording === undefined ? {} : { recording }) }).changes === 1
  }
}
