import type { ConversationState } from '../../shared/api/conversations'
import type { ConversationsRepository } from '../ports'
import type { ConversationProgress, JobRecord } from '../records'
import type { Db } from './db'
import type { PostgresJobsRepository } from './jobs-repository'
import { jobSearchLexemes } from './search-words'

/** Live calls in the jobs table (see ConversationsRepository); a call's search words follow its transcript. */
export class PostgresConversationsRepository implements ConversationsRepository {
  constructor(
    private readonly db: Db,
    private readonly jobs: PostgresJobsRepository,
  ) {}

  async start(
    id: string,
    owner: string,
    leaseUntil: number,
    progress: ConversationProgress,
    updatedAt: string,
  ): Promise<JobRecord | undefined> {
    // run_after follows the lease, so a call is never due while its owner renews it.
    const { rowCount } = await this.db.query(
      `UPDATE jobs SET status = 'IN_PROGRESS', lease_owner = $2, lease_expires_at = $3, run_after = $3,
          text = $4, job_response = $5, usage_seconds = $6, total_cost = $7, updated_at = $8,
          search = array_to_tsvector($9::text[])
        WHERE id = $1 AND type = 'CONVERSATION' AND status = 'PENDING' AND lease_owner IS NULL`,
      [id, owner, leaseUntil, ...this.progressValues(progress), updatedAt, await this.lexemesOf(id, progress.text)],
    )
    return rowCount === 1 ? this.jobs.findById(id) : undefined
  }

  async save(id: string, owner: string, progress: ConversationProgress, leaseUntil: number, updatedAt: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE jobs SET lease_expires_at = $3, run_after = $3,
          text = $4, job_response = $5, usage_seconds = $6, total_cost = $7, updated_at = $8,
          search = array_to_tsvector($9::text[])
        WHERE id = $1 AND lease_owner = $2 AND status = 'IN_PROGRESS'`,
      [id, owner, leaseUntil, ...this.progressValues(progress), updatedAt, await this.lexemesOf(id, progress.text)],
    )
    return rowCount === 1
  }

  async requeueAbandoned(now: number): Promise<number> {
    const { rowCount } = await this.db.query(
      `UPDATE jobs SET status = 'PENDING', lease_owner = NULL, lease_expires_at = NULL, run_after = $1
        WHERE status = 'IN_PROGRESS' AND lease_expires_at < $1`,
      [now],
    )
    return rowCount ?? 0
  }

  async setRecording(id: string, recording: ConversationState['recording'], updatedAt: string): Promise<boolean> {
    // job_response is text holding JSON: changed as jsonb, kept as text.
    const change =
      recording === undefined ? `job_response::jsonb - 'recording'` : `jsonb_set(job_response::jsonb, '{recording}', to_jsonb($3::text))`
    const { rowCount } = await this.db.query(
      `UPDATE jobs SET job_response = (${change})::text, updated_at = $2 WHERE id = $1 AND type = 'CONVERSATION' AND job_response IS NOT NULL`,
      recording === undefined ? [id, updatedAt] : [id, updatedAt, recording],
    )
    return rowCount === 1
  }

  private progressValues(progress: ConversationProgress): unknown[] {
    return [progress.text, JSON.stringify(progress.jobResponse), progress.usageSeconds, progress.totalCost]
  }

  /** The call's title is fixed at conversation-init; its words and the transcript's are what a search finds. */
  private async lexemesOf(id: string, text: string): Promise<string[]> {
    const { rows } = await this.db.query<{ title: string }>('SELECT title FROM jobs WHERE id = $1', [id])
    return jobSearchLexemes(rows[0]?.title ?? '', text)
  }
}
