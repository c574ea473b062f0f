import { z } from 'zod'
import { JOB_COLUMNS } from '../columns'
import type { AiPart } from '../../shared/api/ai-parts'
import type { JobErrorCode } from '../../shared/api/job-error-codes'
import type { JobStatus, JobType } from '../../shared/api/jobs'
import { readJsonColumn } from '../json-column'
import type { CallListFilter, JobClaimLane, JobsRepository, Page } from '../ports'
import type { JobListQuery, JobOutcome, JobRecord, JobSortField, JobStatisticsRow } from '../records'
import type { Db } from './db'
import { jobSearchLexemes, jobSearchQuery, jobSearchTerms, type SearchTerm } from './search-words'
import { present } from '../../shared/present'

const FIELDS = JOB_COLUMNS
/** Columns read under their record names, so a row is a record but for the JSON columns. */
const SELECT_COLUMNS = FIELDS.map(([field, column]) => `j.${column} AS "${field}"`).join(', ')

const AiPartsColumnSchema = z.array(z.string()) as unknown as z.ZodType<AiPart[]>
const ResponseColumnSchema = z.record(z.string(), z.unknown())

type JobRow = Omit<JobRecord, 'aiParts' | 'jobResponse'> & { aiParts: string | null; jobResponse: string | null }

function toRecord(row: JobRow): JobRecord {
  return {
    ...row,
    aiParts: row.aiParts === null ? null : readJsonColumn(AiPartsColumnSchema, row.aiParts, 'ai_parts'),
    jobResponse: row.jobResponse === null ? null : readJsonColumn(ResponseColumnSchema, row.jobResponse, 'job_response'),
  }
}

function columnValues(record: JobRecord): unknown[] {
  return FIELDS.map(([field]) => {
    if (field === 'aiParts') return record.aiParts === null ? null : JSON.stringify(record.aiParts)
    if (field === 'jobResponse') return record.jobResponse === null ? null : JSON.stringify(record.jobResponse)
    return record[field]
  })
}

const INSERT = `INSERT INTO jobs (${FIELDS.map(([, column]) => column).join(', ')}, search)
  VALUES (${FIELDS.map((_, index) => `$${index + 1}`).join(', ')}, array_to_tsvector($${FIELDS.length + 1}::text[]))`

const SORT_COLUMNS: Record<JobSortField, string> = {
  createdAt: 'j.created_at',
  updatedAt: 'j.updated_at',
  title: 'j.title',
  status: 'j.status',
  type: 'j.type',
  cost: 'j.total_cost',
}

/**
 * The search condition of a page, chosen by the exact count of its matches. PostgreSQL cannot
 * know how many jobs a prefix query matches: `'payment':* & 'late':*` among FAILED jobs was
 * planned as 97 rows and matched 6,503, so it took the GIN index, fetched every match and sorted
 * them for ten rows (92 ms at a million jobs). When matches are dense, walking the sort's own
 * index and testing each job finds the page sooner (5 ms there): about `wanted` × `scope` /
 * `matches` rows are read that way, against `matches` rows through GIN. The walk is asked for
 * by writing the match as the function behind @@ (ts_match_vq, the same test), which no index
 * serves; otherwise the operator stays and the planner chooses.
 */
function pageSearch(tsquery: string, matches: number, scope: number, wanted: number): string {
  return matches * matches >= wanted * scope ? `ts_match_vq(j.search, ${tsquery})` : `j.search @@ ${tsquery}`
}

/** The most words a search prefix is written out as (beyond, GIN matches the prefix itself). */
const MAX_EXPANSION = 64

/** work_mem of a search (see list): an exact bitmap of every page of ~2.5 million jobs. */
const SEARCH_WORK_MEM = '16MB'

/** Deltas a list may find before they are folded into job_counts. */
const COMPACT_AFTER_DELTAS = 256

/**
 * Jobs and their queue. Counts come from job_counts plus its pending deltas (see the migration
 * 0002-jobs), searches from the GIN index over each job's words.
 */
export class PostgresJobsRepository implements JobsRepository {
  constructor(private readonly db: Db) {}

  async insert(record: JobRecord): Promise<void> {
    await this.db.query(INSERT, [...columnValues(record), jobSearchLexemes(record.title, record.text)])
  }

  async findInProject(id: string, projectId: string): Promise<JobRecord | undefined> {
    return this.one(`SELECT ${SELECT_COLUMNS} FROM jobs j WHERE j.id = $1 AND j.project_id = $2`, [id, projectId])
  }

  async findById(id: string): Promise<JobRecord | undefined> {
    return this.one(`SELECT ${SELECT_COLUMNS} FROM jobs j WHERE j.id = $1`, [id])
  }

  async findByPreviewToken(token: string): Promise<JobRecord | undefined> {
    return this.one(`SELECT ${SELECT_COLUMNS} FROM jobs j WHERE j.preview_token = $1`, [token])
  }

  /** The newest AI-content job made from `sourceId`. */
  async newestFromSource(sourceId: string, projectId: string): Promise<JobRecord | undefined> {
    return this.one(
      `SELECT ${SELECT_COLUMNS} FROM jobs j WHERE j.relevant_job_id = $1 AND j.project_id = $2 AND j.type = 'AI_CONTENT'
        ORDER BY j.created_at DESC, j.id DESC LIMIT 1`,
      [sourceId, projectId],
    )
  }

  /**
   * Leases the oldest runnable job to `owner` until `leaseUntil` (ms), counting its attempt. One
   * statement: the pick locks its row and skips rows another claim holds (SKIP LOCKED), so
   * concurrent claims take different jobs instead of waiting for each other; a row another
   * claim changed before the lock is checked again and passed over when no longer runnable.
   */
  async claimNext(owner: string, now: number, leaseUntil: number, lane?: JobClaimLane): Promise<JobRecord | undefined> {
    if (lane) return this.claimInLane(owner, now, leaseUntil, lane)
    return this.one(
      `UPDATE jobs j SET lease_owner = $1, lease_expires_at = $3, attempts = attempts + 1
        WHERE j.seq = (SELECT seq FROM jobs WHERE status = 'PENDING' AND run_after <= $2 AND (lease_owner IS NULL OR lease_expires_at < $2)
          ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING ${SELECT_COLUMNS}`,
      [owner, now, leaseUntil],
    )
  }

  /**
   * A lane's claim (see JobsRepository.claimNext), one statement as the plain claim: the oldest
   * runnable job of the lane whose project has none of the lane's jobs running on any runner;
   * else the oldest whose project holds fewer than `perProject` of them under `owner`. Claims of
   * one owner and lane come one at a time (its worker loop), so that cap is exact.
   */
  private claimInLane(owner: string, now: number, leaseUntil: number, lane: JobClaimLane): Promise<JobRecord | undefined> {
    const runnable = `status = 'PENDING' AND run_after <= $2 AND (lease_owner IS NULL OR lease_expires_at < $2) AND type = ANY($4::text[])`
    const running = `status = 'PENDING' AND lease_owner IS NOT NULL AND lease_expires_at >= $2 AND type = ANY($4::text[])`
    return this.one(
      `UPDATE jobs j SET lease_owner = $1, lease_expires_at = $3, attempts = attempts + 1
        WHERE j.seq = coalesce(
          (SELECT seq FROM jobs WHERE ${runnable} AND project_id NOT IN (SELECT project_id FROM jobs WHERE ${running})
            ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED),
          (SELECT seq FROM jobs WHERE ${runnable}
            AND project_id NOT IN (SELECT project_id FROM jobs WHERE ${running} AND lease_owner = $1 GROUP BY project_id HAVING count(*) >= $5)
            ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED))
        RETURNING ${SELECT_COLUMNS}`,
      [owner, now, leaseUntil, lane.types, lane.perProject],
    )
  }

  /**
   * Ends a job the owner still holds and answers it as ended (RETURNING); undefined when the lease
   * was lost. A job whose work made its text (a transcript) gets that text and its search words.
   */
  async complete(id: string, owner: string, outcome: JobOutcome, updatedAt: string): Promise<JobRecord | undefined> {
    const values = [id, owner, JSON.stringify(outcome.jobResponse), outcome.usageSeconds, outcome.totalCost, updatedAt]
    if (outcome.text === undefined) {
      return this.one(
        `UPDATE jobs j SET status = 'COMPLETED', job_response = $3, usage_seconds = $4, total_cost = $5, progress = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = $6
          WHERE j.id = $1 AND j.lease_owner = $2 AND j.status IN ('PENDING', 'IN_PROGRESS')
          RETURNING ${SELECT_COLUMNS}`,
        values,
      )
    }
    const { rows } = await this.db.query<{ title: string }>('SELECT title FROM jobs WHERE id = $1', [id])
    return this.one(
      `UPDATE jobs j SET status = 'COMPLETED', job_response = $3, usage_seconds = $4, total_cost = $5, progress = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = $6,
          text = $7, search = array_to_tsvector($8::text[])
        WHERE j.id = $1 AND j.lease_owner = $2 AND j.status IN ('PENDING', 'IN_PROGRESS')
        RETURNING ${SELECT_COLUMNS}`,
      [...values, outcome.text, jobSearchLexemes(rows[0]?.title ?? '', outcome.text)],
    )
  }

  async fail(id: string, owner: string, code: JobErrorCode, message: string, updatedAt: string): Promise<JobRecord | undefined> {
    return this.one(
      `UPDATE jobs j SET status = 'FAILED', error_code = $3, error_message = $4, progress = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = $5
        WHERE j.id = $1 AND j.lease_owner = $2 AND j.status IN ('PENDING', 'IN_PROGRESS')
        RETURNING ${SELECT_COLUMNS}`,
      [id, owner, code, message, updatedAt],
    )
  }

  /** Gives the job back to the queue, to run again from `runAfter` (ms). */
  async retryLater(id: string, owner: string, runAfter: number, code: JobErrorCode, message: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE jobs SET lease_owner = NULL, lease_expires_at = NULL, run_after = $3, error_code = $4, error_message = $5
        WHERE id = $1 AND lease_owner = $2 AND status = 'PENDING'`,
      [id, owner, runAfter, code, message],
    )
    return rowCount === 1
  }

  /** Gives the job back without counting the attempt (the runner stopped, the job did not fail). */
  /** Extends a held job's lease to `leaseUntil` (ms) and records its progress; false when the owner no longer holds it. */
  async heartbeat(id: string, owner: string, leaseUntil: number, progress?: number): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE jobs SET lease_expires_at = $3, progress = coalesce($4, progress) WHERE id = $1 AND lease_owner = $2 AND status = 'PENDING'`,
      [id, owner, leaseUntil, progress ?? null],
    )
    return rowCount === 1
  }

  async release(id: string, owner: string): Promise<void> {
    await this.db.query(
      `UPDATE jobs SET lease_owner = NULL, lease_expires_at = NULL, attempts = greatest(attempts - 1, 0)
        WHERE id = $1 AND lease_owner = $2 AND status = 'PENDING'`,
      [id, owner],
    )
  }

  async pendingLeaseOwners(): Promise<string[]> {
    const { rows } = await this.db.query<{ owner: string }>(
      `SELECT DISTINCT lease_owner AS owner FROM jobs WHERE status = 'PENDING' AND lease_owner IS NOT NULL`,
    )
    return rows.map((row) => row.owner)
  }

  async namingMedia(names: readonly string[]): Promise<Set<string>> {
    const { rows } = await this.db.query<{ name: string }>('SELECT media_file AS name FROM jobs WHERE media_file = ANY($1::text[])', [
      names,
    ])
    return new Set(rows.map((row) => row.name))
  }

  async releaseLeasesOf(owner: string): Promise<number> {
    const { rowCount } = await this.db.query(
      `UPDATE jobs SET lease_owner = NULL, lease_expires_at = NULL WHERE status = 'PENDING' AND lease_owner = $1`,
      [owner],
    )
    return rowCount ?? 0
  }

  /** When the earliest waiting job (of `types`) may run (ms), later than `after` when given, if any waits. */
  async nextRunAfter(types?: readonly JobType[], after?: number): Promise<number | undefined> {
    // A leased job falls due again when its lease runs out (its worker may have died).
    const { rows } = await this.db.query<{ at: number | null }>(
      `SELECT min(due) AS at FROM (SELECT CASE WHEN lease_owner IS NULL THEN run_after ELSE greatest(run_after, lease_expires_at + 1) END AS due
        FROM jobs WHERE status = 'PENDING' AND ($1::text[] IS NULL OR type = ANY($1::text[]))) pending WHERE $2::bigint IS NULL OR due > $2::bigint`,
      [types ?? null, after ?? null],
    )
    return rows[0]?.at ?? undefined
  }

  /** Unfinished jobs of every project: those a runner holds now, and those waiting for one. */
  async queueCounts(): Promise<{ running: number; waiting: number }> {
    const { rows } = await this.db.query<{ running: number; waiting: number }>(
      `SELECT count(lease_owner) AS running, count(*) - count(lease_owner) AS waiting FROM jobs WHERE status = 'PENDING'`,
    )
    return rows[0] ?? { running: 0, waiting: 0 }
  }

  /** Jobs, credits and media seconds of a project's jobs created since `since` (ISO 8601; '' for all), per type and status. */
  async statistics(projectId: string, since: string, until = '~'): Promise<JobStatisticsRow[]> {
    const { rows } = await this.db.query<JobStatisticsRow>(
      `SELECT type, status, count(*) AS jobs, coalesce(sum(total_cost), 0) AS cost, coalesce(sum(usage_seconds), 0) AS seconds
        FROM jobs WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY type, status ORDER BY type, status`,
      [projectId, since, until],
    )
    return rows
  }

  async listCalls(projectId: string, filter: CallListFilter, limit: number, offset: number): Promise<Page<JobRecord>> {
    const where = `j.project_id = $1 AND j.type = 'CONVERSATION'`
    const filters = `AND ($2::text IS NULL OR j.voice_agent_id = $2) AND ($3::text[] IS NULL OR j.status = ANY($3))
      AND j.created_at >= $4 AND j.created_at <= $5`
    const values = [
      projectId,
      filter.voiceAgentId ?? null,
      filter.statuses?.length ? filter.statuses : null,
      filter.createdFrom ?? '',
      filter.createdTo ?? '~',
    ]
    const page = await this.db.query<JobRow>(
      `SELECT ${SELECT_COLUMNS} FROM jobs j WHERE ${where} ${filters} ORDER BY j.created_at DESC, j.id DESC LIMIT $6 OFFSET $7`,
      [...values, limit, offset],
    )
    const counts = await this.db.query<{ total: string; filtered: string }>(
      `SELECT count(*) AS total, count(*) FILTER (WHERE true ${filters}) AS filtered FROM jobs j WHERE ${where}`,
      values,
    )
    return {
      records: page.rows.map(toRecord),
      total: Number(counts.rows[0]?.total ?? 0),
      filtered: Number(counts.rows[0]?.filtered ?? 0),
    }
  }

  /**
   * A page of a project's jobs with the counts lists show, all read on one snapshot. Totals
   * and filtered counts without a search or id come from job_counts and its deltas (a few
   * rows whatever the number of jobs); a search counts its matches through the GIN index, which
   * holds project, status, type and words (so its bitmap is exactly the matches: see the
   * migration 0006), with its prefixes written as words (searchQuery), and that exact count
   * then chooses how the page is found (see pageSearch).
   */
  async list(projectId: string, query: JobListQuery): Promise<Page<JobRecord>> {
    const searching = Boolean(query.words?.length)
    const { page, deltas } = await this.db.snapshot(async (db) => {
      const { rows: counts } = await db.query<{ type: JobType; status: JobStatus; count: number; deltas: number }>(
        `SELECT type, status, sum(count) AS count, sum(deltas) AS deltas FROM (
          SELECT type, status, count, 0 AS deltas FROM job_counts WHERE project_id = $1
          UNION ALL SELECT type, status, delta, 1 FROM job_count_deltas WHERE project_id = $1) c
        GROUP BY type, status`,
        [projectId],
      )
      const deltas = counts.reduce((sum, row) => sum + row.deltas, 0)
      const total = counts.reduce((sum, row) => sum + row.count, 0)
      const search = searching && query.words ? await this.searchQuery(db, query.words) : undefined
      if (searching && search === undefined) return { page: { records: [], total, filtered: 0 }, deltas }
      // The jobs the status and type filters alone select: exact, from the counts.
      const scope = counts
        .filter((row) => (!query.status || row.status === query.status) && (!query.type || row.type === query.type))
        .reduce((sum, row) => sum + row.count, 0)
      const values: unknown[] = [projectId]
      const bind = (value: unknown) => `$${values.push(value)}`
      const conditions = [`j.project_id = $1`]
      if (query.status) conditions.push(`j.status = ${bind(query.status)}`)
      if (query.type) conditions.push(`j.type = ${bind(query.type)}`)
      if (query.id) conditions.push(`j.id = ${bind(query.id)}`)
      if (query.createdFrom) conditions.push(`j.created_at >= ${bind(query.createdFrom)}`)
      if (query.createdTo) conditions.push(`j.created_at < ${bind(query.createdTo)}`)
      const ranged = query.createdFrom !== undefined || query.createdTo !== undefined
      const tsqueryParameter = search ? bind(search.tsquery) : ''
      const where = conditions.join(' AND ')
      let filtered = scope
      // job_counts and job_search know nothing of dates: a range is counted in jobs, between its bounds in a created_at index.
      if (query.id || searching || ranged) {
        // A search's bitmap must stay exact (one bit per row): past work_mem it turns lossy, whole
        // pages whose every row is tested again. With 4 MB (the default) half of the 65,712 pages
        // holding a word in 10 % of a million jobs went lossy (282,685 rows rechecked). SET LOCAL:
        // until this snapshot's transaction ends (the caller's, when it runs inside one).
        if (searching) await db.query(`SET LOCAL work_mem = '${SEARCH_WORK_MEM}'`)
        if (search?.wordIds && !query.id && !ranged) {
          // Counted in job_search (see the migration 0008): the same jobs, in a table a fifth the size.
          const countValues: unknown[] = [projectId]
          const countBind = (value: unknown) => `$${countValues.push(value)}`
          // job_search holds codes (0008): a project's from projects, a status's and a type's by function.
          const countConditions = [`s.project = (SELECT p.code FROM projects p WHERE p.id = $1)`]
          if (query.status) countConditions.push(`s.status = job_status_code(${countBind(query.status)})`)
          if (query.type) countConditions.push(`s.type = job_type_code(${countBind(query.type)})`)
          for (const ids of search.wordIds) countConditions.push(`s.words && ${countBind(ids)}::integer[]`)
          filtered =
            (
              await db.query<{ count: number }>(
                `SELECT count(*) AS count FROM job_search s WHERE ${countConditions.join(' AND ')}`,
                countValues,
              )
            ).rows[0]?.count ?? 0
        } else {
          const matching = searching ? `${where} AND j.search @@ ${tsqueryParameter}::tsquery` : where
          filtered =
            (await db.query<{ count: number }>(`SELECT count(*) AS count FROM jobs j WHERE ${matching}`, [...values])).rows[0]?.count ?? 0
        }
      }
      // Nothing to show on this page: no second read.
      if (filtered === 0 || query.offset >= filtered) return { page: { records: [], total, filtered }, deltas }
      const pageWhere = searching
        ? `${where} AND ${pageSearch(`${tsqueryParameter}::tsquery`, filtered, scope, query.offset + query.limit)}`
        : where
      const direction = query.direction === 'asc' ? 'ASC' : 'DESC'
      const order = `${SORT_COLUMNS[query.sort]} ${direction}, j.created_at ${direction}, j.id ${direction}`
      const { rows } = await db.query<JobRow>(
        `SELECT ${SELECT_COLUMNS} FROM jobs j WHERE ${pageWhere} ORDER BY ${order} LIMIT ${bind(query.limit)} OFFSET ${bind(query.offset)}`,
        values,
      )
      return { page: { records: rows.map(toRecord), total, filtered }, deltas }
    })
    if (deltas > COMPACT_AFTER_DELTAS) await this.compactCounts()
    return page
  }

  /**
   * A search as its words (job_words, on the list's snapshot): its tsquery with each prefix
   * written as the words it stands for, and, when no prefix stands for more than MAX_EXPANSION
   * words, each term's word ids (the terms job_search counts by: a job matches when its words
   * meet every term's ids). Undefined when a term matches no word (no job can match: nothing
   * to count) or when the search has no term at all.
   */
  private async searchQuery(db: Db, words: string[]): Promise<{ tsquery: string; wordIds?: number[][] } | undefined> {
    const terms = jobSearchTerms(words)
    if (terms.length === 0) return undefined
    const keyOf = (term: SearchTerm) => `${term.prefix ? '*' : '='}${term.word}`
    const distinct = [...new Map(terms.map((term) => [keyOf(term), term])).values()]
    // One scalar parameter per term: PostgreSQL turns word ^@ 'pay' into the key range ['pay', 'paz').
    const { rows } = await db.query<{ words: string[]; ids: number[] }>(
      distinct
        .map(
          (
            term,
            index,
          ) => `(SELECT ${index} AS n, coalesce(array_agg(word ORDER BY word), '{}') AS words, coalesce(array_agg(id ORDER BY word), '{}') AS ids
            FROM (SELECT word, id FROM job_words WHERE word ${term.prefix ? '^@' : '='} $${index + 1} ORDER BY word LIMIT ${MAX_EXPANSION + 1}) w)`,
        )
        .join(' UNION ALL ') + ' ORDER BY n',
      distinct.map((term) => term.word),
    )
    const expansions = new Map<string, string[]>()
    const idsOf = new Map<string, number[]>()
    let countable = true
    for (const [index, term] of distinct.entries()) {
      // One row per term: the query's UNION ALL has one SELECT (an aggregate) per term.
      const row = present(rows[index], `the words of search term ${index}`)
      if (row.words.length === 0) return undefined
      if (row.words.length > MAX_EXPANSION) countable = false
      else {
        if (term.prefix) expansions.set(term.word, row.words)
        idsOf.set(keyOf(term), row.ids)
      }
    }
    const tsquery = jobSearchQuery(words, expansions)
    return countable
      ? { tsquery, wordIds: [...new Set(terms.map(keyOf))].map((key) => present(idsOf.get(key), `the word ids of ${key}`)) }
      : { tsquery }
  }

  /**
   * Folds the deltas into job_counts, in one statement (a count read sees it before or after,
   * never half-way). Deltas another compaction is folding are skipped (SKIP LOCKED), and the
   * counters are upserted in one order, so two compactions never wait on each other in a cycle.
   */
  async compactCounts(): Promise<void> {
    await this.db.query(`WITH moved AS (
        DELETE FROM job_count_deltas WHERE seq IN (SELECT seq FROM job_count_deltas FOR UPDATE SKIP LOCKED)
        RETURNING project_id, type, status, delta)
      INSERT INTO job_counts (project_id, type, status, count)
        SELECT project_id, type, status, sum(delta) FROM moved GROUP BY project_id, type, status ORDER BY project_id, type, status
      ON CONFLICT (project_id, type, status) DO UPDATE SET count = job_counts.count + excluded.count`)
  }

  private async one(text: string, values: unknown[]): Promise<JobRecord | undefined> {
    const { rows } = await this.db.query<JobRow>(text, values)
    return rows[0] && toRecord(rows[0])
  }
}
