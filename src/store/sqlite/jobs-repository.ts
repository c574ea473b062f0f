import type { Database, Statement } from 'better-sqlite3'
import { JOB_COLUMNS } from '../columns'
import type { CallListFilter, JobClaimLane, JobsRepository, Page } from '../ports'
import type { JobRecord, JobSortField, JobListQuery, JobOutcome, JobStatisticsRow } from '../records'
import { z } from 'zod'
import type { AiPart } from '../../shared/api/ai-parts'
import type { JobErrorCode } from '../../shared/api/job-error-codes'
import { JOB_TYPES, type JobStatus, type JobType } from '../../shared/api/jobs'
import { readJsonColumn } from '../json-column'
import { present } from '../../shared/present'

const FIELDS = JOB_COLUMNS
/** Columns read under their record names, so a row is a record but for the JSON columns. */
const SELECT_COLUMNS = FIELDS.map(([field, column]) => `j.${column} AS ${field}`).join(', ')
/** The same, unqualified: what an UPDATE … RETURNING answers. */
const RETURNING_COLUMNS = FIELDS.map(([field, column]) => `${column} AS ${field}`).join(', ')

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

function toRow(record: JobRecord): JobRow {
  return {
    ...record,
    aiParts: record.aiParts === null ? null : JSON.stringify(record.aiParts),
    jobResponse: record.jobResponse === null ? null : JSON.stringify(record.jobResponse),
  }
}

const SORT_COLUMNS: Record<JobSortField, string> = {
  createdAt: 'j.created_at',
  updatedAt: 'j.updated_at',
  title: 'j.title',
  status: 'j.status',
  type: 'j.type',
  cost: 'j.total_cost',
}

/**
 * The FTS5 query of a search: the words (quoted, so FTS5 syntax such as AND, NEAR or *
 * typed by a person is never interpreted) in title or text, and the scope tokens.
 */
function matchQuery(projectId: string, query: JobListQuery, onlyProjectWithJobs: boolean): string {
  // The project token matches every job of a project; when no other project has jobs it
  // narrows nothing and only slows the count, so it is left out.
  const scope = onlyProjectWithJobs ? [] : [`"p${projectId.replaceAll('-', '')}"`]
  if (query.status) scope.push(`"s${query.status.toLowerCase()}"`)
  if (query.type) scope.push(`"t${query.type.toLowerCase().replaceAll('_', '')}"`)
  // A single letter matches as a word only: as a prefix it would match most of the index.
  const terms = present(query.words, 'the search words').map((word) => ([...word].length > 1 ? `"${word}"*` : `"${word}"`))
  const words = `{title text} : (${terms.join(' AND ')})`
  return scope.length > 0 ? `scope : (${scope.join(' AND ')}) AND ${words}` : words
}

/** Whether a list asks for a range of creation times. */
const isRanged = (query: JobListQuery) => query.createdFrom !== undefined || query.createdTo !== undefined

export class SqliteJobsRepository implements JobsRepository {
  private readonly statements: {
    insert: Statement
    findInProject: Statement
    findById: Statement
    findByPreviewToken: Statement
    newestFromSource: Statement
    claimNext: Statement
    complete: Statement
    fail: Statement
    retryLater: Statement
    heartbeat: Statement
    release: Statement
    leaseOwners: Statement
    namingMedia: Statement
    releaseOwner: Statement
    nextRunAfter: Statement
    queueCounts: Statement
    counts: Statement
    projectsWithJobs: Statement
    statistics: Statement
    listCalls: Statement
    countCalls: Statement
    seqRange: Statement
  }
  private readonly listStatements = new Map<string, { page: Statement; count?: Statement }>()
  /** One prepared claim and next-run read per lane (its types), made once. */
  private readonly laneStatements = new Map<string, { claim: Statement; nextRunAfter: Statement }>()

  constructor(private readonly db: Database) {
    const columns = FIELDS.map(([, column]) => column).join(', ')
    const values = FIELDS.map(([field]) => `@${field}`).join(', ')
    this.statements = {
      insert: db.prepare(`INSERT INTO jobs (${columns}) VALUES (${values})`),
      findInProject: db.prepare(`SELECT ${SELECT_COLUMNS} FROM jobs j WHERE j.id = ? AND j.project_id = ?`),
      findById: db.prepare(`SELECT ${SELECT_COLUMNS} FROM jobs j WHERE j.id = ?`),
      findByPreviewToken: db.prepare(`SELECT ${SELECT_COLUMNS} FROM jobs j WHERE j.preview_token = ?`),
      newestFromSource: db.prepare(`SELECT ${SELECT_COLUMNS} FROM jobs j
        WHERE j.relevant_job_id = ? AND j.project_id = ? AND j.type = 'AI_CONTENT' ORDER BY j.created_at DESC, j.id DESC LIMIT 1`),
      // One statement: the pick and the lease are one atomic compare-and-swap.
      claimNext: db.prepare(`UPDATE jobs SET lease_owner = @owner, lease_expires_at = @leaseUntil, attempts = attempts + 1
        WHERE seq = (SELECT seq FROM jobs INDEXED BY jobs_pending WHERE status = 'PENDING' AND run_after <= @now
          AND (lease_owner IS NULL OR lease_expires_at < @now) ORDER BY created_at, id LIMIT 1)
        RETURNING id`),
      complete: db.prepare(`UPDATE jobs SET status = 'COMPLETED', job_response = @jobResponse, usage_seconds = @usageSeconds,
          total_cost = @totalCost, text = coalesce(@text, text), progress = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = @updatedAt
        WHERE id = @id AND lease_owner = @owner AND status IN ('PENDING', 'IN_PROGRESS')
        RETURNING ${RETURNING_COLUMNS}`),
      fail: db.prepare(`UPDATE jobs SET status = 'FAILED', error_code = @code, error_message = @message,
          progress = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = @updatedAt
        WHERE id = @id AND lease_owner = @owner AND status IN ('PENDING', 'IN_PROGRESS')
        RETURNING ${RETURNING_COLUMNS}`),
      retryLater: db.prepare(`UPDATE jobs SET lease_owner = NULL, lease_expires_at = NULL, run_after = @runAfter,
          error_code = @code, error_message = @message
        WHERE id = @id AND lease_owner = @owner AND status = 'PENDING'`),
      heartbeat: db.prepare(`UPDATE jobs SET lease_expires_at = @leaseUntil, progress = coalesce(@progress, progress)
        WHERE id = @id AND lease_owner = @owner AND status = 'PENDING'`),
      release: db.prepare(`UPDATE jobs SET lease_owner = NULL, lease_expires_at = NULL, attempts = max(attempts - 1, 0)
        WHERE id = ? AND lease_owner = ? AND status = 'PENDING'`),
      leaseOwners: db
        .prepare(`SELECT DISTINCT lease_owner FROM jobs INDEXED BY jobs_pending WHERE status = 'PENDING' AND lease_owner IS NOT NULL`)
        .pluck(),
      // media_file is UNIQUE (indexed): one lookup per name of the JSON array.
      namingMedia: db.prepare(`SELECT media_file FROM jobs WHERE media_file IN (SELECT value FROM json_each(?))`).pluck(),
      releaseOwner: db.prepare(`UPDATE jobs SET lease_owner = NULL, lease_expires_at = NULL WHERE status = 'PENDING' AND lease_owner = ?`),
      // A leased job falls due again when its lease runs out (its worker may have died).
      nextRunAfter: db
        .prepare(
          `SELECT min(CASE WHEN lease_owner IS NULL THEN run_after ELSE max(run_after, lease_expires_at + 1) END)
            FROM jobs INDEXED BY jobs_pending WHERE status = 'PENDING'`,
        )
        .pluck(),
      queueCounts: db.prepare(`SELECT count(lease_owner) AS running, count(*) - count(lease_owner) AS waiting
        FROM jobs INDEXED BY jobs_pending WHERE status = 'PENDING'`),
      counts: db.prepare('SELECT type, status, count FROM job_counts WHERE project_id = ? AND count > 0'),
      projectsWithJobs: db.prepare('SELECT COUNT(DISTINCT project_id) FROM job_counts WHERE count > 0').pluck(),
      // A range of jobs_by_created: the project's jobs created since a time ('' for all of them).
      statistics: db.prepare(`SELECT type, status, count(*) AS jobs, total(total_cost) AS cost, total(usage_seconds) AS seconds
        FROM jobs INDEXED BY jobs_by_created WHERE project_id = ? AND created_at >= ? AND created_at < ? GROUP BY type, status`),
      // A project's calls, newest first, with the minimal list's filters (each optional).
      listCalls: db.prepare(`SELECT ${SELECT_COLUMNS} FROM jobs j INDEXED BY jobs_by_type
        WHERE j.project_id = @projectId AND j.type = 'CONVERSATION' AND (@voiceAgentId IS NULL OR j.voice_agent_id = @voiceAgentId)
          AND (@statuses IS NULL OR j.status IN (SELECT value FROM json_each(@statuses)))
          AND j.created_at >= @createdFrom AND j.created_at <= @createdTo
        ORDER BY j.created_at DESC, j.id DESC LIMIT @limit OFFSET @offset`),
      countCalls: db
        .prepare(
          `SELECT count(*) FROM jobs j INDEXED BY jobs_by_type
        WHERE j.project_id = @projectId AND j.type = 'CONVERSATION' AND (@voiceAgentId IS NULL OR j.voice_agent_id = @voiceAgentId)
          AND (@statuses IS NULL OR j.status IN (SELECT value FROM json_each(@statuses)))
          AND j.created_at >= @createdFrom AND j.created_at <= @createdTo`,
        )
        .pluck(),
      // The first and last seq of a project's jobs created in a range (no bound: '' and '~', around every ISO time), read off jobs_by_created alone.
      seqRange: db.prepare(`SELECT min(seq) AS first, max(seq) AS last FROM jobs INDEXED BY jobs_by_created
        WHERE project_id = @projectId AND created_at >= coalesce(@createdFrom, '') AND created_at < coalesce(@createdTo, '~')`),
    }
  }

  async insert(record: JobRecord): Promise<void> {
    this.statements.insert.run(toRow(record))
  }

  async findInProject(id: string, projectId: string): Promise<JobRecord | undefined> {
    const row = this.statements.findInProject.get(id, projectId) as JobRow | undefined
    return row && toRecord(row)
  }

  async findById(id: string): Promise<JobRecord | undefined> {
    const row = this.statements.findById.get(id) as JobRow | undefined
    return row && toRecord(row)
  }

  async findByPreviewToken(token: string): Promise<JobRecord | undefined> {
    const row = this.statements.findByPreviewToken.get(token) as JobRow | undefined
    return row && toRecord(row)
  }

  /** The newest AI-content job made from `sourceId`. */
  async newestFromSource(sourceId: string, projectId: string): Promise<JobRecord | undefined> {
    const row = this.statements.newestFromSource.get(sourceId, projectId) as JobRow | undefined
    return row && toRecord(row)
  }

  /** Leases a runnable job to `owner` until `leaseUntil` (ms), or answers undefined: the oldest, or the lane's choice (see JobsRepository). */
  async claimNext(owner: string, now: number, leaseUntil: number, lane?: JobClaimLane): Promise<JobRecord | undefined> {
    const claimed = (
      lane
        ? this.laneStatementsFor(lane.types).claim.get({ owner, now, leaseUntil, perProject: lane.perProject })
        : this.statements.claimNext.get({ owner, now, leaseUntil })
    ) as { id: string } | undefined
    return claimed && this.findById(claimed.id)
  }

  /** Ends a job the owner still holds and answers it as ended (RETURNING); undefined when the lease was lost. */
  async complete(id: string, owner: string, outcome: JobOutcome, updatedAt: string): Promise<JobRecord | undefined> {
    const row = this.statements.complete.get({
      id,
      owner,
      updatedAt,
      ...outcome,
      jobResponse: JSON.stringify(outcome.jobResponse),
      text: outcome.text ?? null,
    }) as JobRow | undefined
    return row && toRecord(row)
  }

  async fail(id: string, owner: string, code: JobErrorCode, message: string, updatedAt: string): Promise<JobRecord | undefined> {
    const row = this.statements.fail.get({ id, owner, code, message, updatedAt }) as JobRow | undefined
    return row && toRecord(row)
  }

  /** Gives the job back to the queue, to run again from `runAfter` (ms). */
  async retryLater(id: string, owner: string, runAfter: number, code: JobErrorCode, message: string): Promise<boolean> {
    return this.statements.retryLater.run({ id, owner, runAfter, code, message }).changes === 1
  }

  /** Extends a held job's lease to `leaseUntil` (ms) and records its progress; false when the owner no longer holds it. */
  async heartbeat(id: string, owner: string, leaseUntil: number, progress?: number): Promise<boolean> {
    return this.statements.heartbeat.run({ id, owner, leaseUntil, progress: progress ?? null }).changes === 1
  }

  /** Gives the job back without counting the attempt (the runner stopped, the job did not fail). */
  async release(id: string, owner: string): Promise<void> {
    this.statements.release.run(id, owner)
  }

  async pendingLeaseOwners(): Promise<string[]> {
    return this.statements.leaseOwners.all() as string[]
  }

  async namingMedia(names: readonly string[]): Promise<Set<string>> {
    return new Set(this.statements.namingMedia.all(JSON.stringify(names)) as string[])
  }

  async releaseLeasesOf(owner: string): Promise<number> {
    return this.statements.releaseOwner.run(owner).changes
  }

  /** When the earliest waiting job (of `types`) may run (ms), later than `after` when given, if any waits. */
  async nextRunAfter(types?: readonly JobType[], after?: number): Promise<number | undefined> {
    const next =
      types || after !== undefined
        ? this.laneStatementsFor(types ?? JOB_TYPES).nextRunAfter.get({ after: after ?? null })
        : this.statements.nextRunAfter.get()
    return (next as number | null) ?? undefined
  }

  /**
   * A lane's claim, one statement (one atomic compare-and-swap, as the plain claim): the oldest
   * runnable job of the lane whose project has none of the lane's jobs running on any runner;
   * else the oldest whose project holds fewer than @perProject of them under @owner. A lease
   * that ran out is not running (its job is claimable again).
   */
  private laneStatementsFor(types: readonly JobType[]): { claim: Statement; nextRunAfter: Statement } {
    const key = types.join(',')
    let statements = this.laneStatements.get(key)
    if (statements) return statements
    if (!types.every((type) => (JOB_TYPES as readonly string[]).includes(type))) throw new Error(`Unknown job type in ${key}`)
    const inLane = `type IN (${types.map((type) => `'${type}'`).join(', ')})`
    const runnable = `status = 'PENDING' AND run_after <= @now AND (lease_owner IS NULL OR lease_expires_at < @now) AND ${inLane}`
    const running = `status = 'PENDING' AND lease_owner IS NOT NULL AND lease_expires_at >= @now AND ${inLane}`
    statements = {
      claim: this.db.prepare(`UPDATE jobs SET lease_owner = @owner, lease_expires_at = @leaseUntil, attempts = attempts + 1
        WHERE seq = coalesce(
          (SELECT seq FROM jobs INDEXED BY jobs_pending WHERE ${runnable}
            AND project_id NOT IN (SELECT project_id FROM jobs INDEXED BY jobs_pending WHERE ${running})
            ORDER BY created_at, id LIMIT 1),
          (SELECT seq FROM jobs INDEXED BY jobs_pending WHERE ${runnable}
            AND project_id NOT IN (SELECT project_id FROM jobs INDEXED BY jobs_pending WHERE ${running} AND lease_owner = @owner
              GROUP BY project_id HAVING count(*) >= @perProject)
            ORDER BY created_at, id LIMIT 1))
        RETURNING id`),
      nextRunAfter: this.db
        .prepare(
          `SELECT min(due) FROM (SELECT CASE WHEN lease_owner IS NULL THEN run_after ELSE max(run_after, lease_expires_at + 1) END AS due
            FROM jobs INDEXED BY jobs_pending WHERE status = 'PENDING' AND ${inLane}) WHERE @after IS NULL OR due > @after`,
        )
        .pluck(),
    }
    this.laneStatements.set(key, statements)
    return statements
  }

  /** Unfinished jobs of every project: those a runner holds now, and those waiting for one. */
  async queueCounts(): Promise<{ running: number; waiting: number }> {
    return this.statements.queueCounts.get() as { running: number; waiting: number }
  }

  /** Jobs, credits and media seconds of a project's jobs created since `since` (ISO 8601; '' for all), per type and status. */
  async statistics(projectId: string, since: string, until = '~'): Promise<JobStatisticsRow[]> {
    return this.statements.statistics.all(projectId, since, until) as JobStatisticsRow[]
  }

  async listCalls(projectId: string, filter: CallListFilter, limit: number, offset: number): Promise<Page<JobRecord>> {
    const bound = {
      projectId,
      voiceAgentId: filter.voiceAgentId ?? null,
      statuses: filter.statuses?.length ? JSON.stringify(filter.statuses) : null,
      createdFrom: filter.createdFrom ?? '',
      createdTo: filter.createdTo ?? '~',
    }
    const rows = this.statements.listCalls.all({ ...bound, limit, offset }) as JobRow[]
    const total = this.statements.countCalls.get({
      ...bound,
      voiceAgentId: null,
      statuses: null,
      createdFrom: '',
      createdTo: '~',
    }) as number
    return { records: rows.map(toRecord), total, filtered: this.statements.countCalls.get(bound) as number }
  }

  /**
   * A page of a project's jobs with the counts lists show. Totals and filtered counts come
   * from job_counts, and searches from the FTS index, so a page stays a few milliseconds
   * at a million jobs. A search sorted by creation walks the index in seq order (the order
   * jobs were created in); other sorts of a search order all its matches.
   */
  async list(projectId: string, query: JobListQuery): Promise<{ records: JobRecord[]; total: number; filtered: number }> {
    const counts = this.statements.counts.all(projectId) as { type: JobType; status: JobStatus; count: number }[]
    const total = counts.reduce((sum, row) => sum + row.count, 0)
    const bound = {
      projectId,
      status: query.status ?? null,
      type: query.type ?? null,
      id: query.id ?? null,
      createdFrom: query.createdFrom ?? null,
      createdTo: query.createdTo ?? null,
      limit: query.limit,
      offset: query.offset,
    }
    const { page, count } = this.listStatementsFor(query)
    if (query.id || isRanged(query)) {
      // One id matches at most one job, and job_counts knows nothing of dates: count with the page's own conditions
      // (a range is read between its bounds in jobs_by_created, jobs_by_status or jobs_by_type).
      const match = query.words?.length ? matchQuery(projectId, query, false) : null
      let seqs = { first: null as number | null, last: null as number | null }
      if (match !== null && isRanged(query)) {
        // A search in a range asks FTS5 for the matches between the range's first and last seq only, not for every match.
        seqs = this.statements.seqRange.get(bound) as typeof seqs
        if (seqs.first === null) return { records: [], total, filtered: 0 }
      }
      const rows = page.all({ ...bound, match, ...seqs }) as JobRow[]
      return {
        records: rows.map(toRecord),
        total,
        filtered: present(count, 'the count of a listing by id or range').get({ ...bound, match, ...seqs }) as number,
      }
    }
    if (query.words?.length) {
      const onlyProjectWithJobs = (this.statements.projectsWithJobs.get() as number) <= 1 && total > 0
      const match = matchQuery(projectId, query, onlyProjectWithJobs)
      const rows = page.all({ ...bound, match }) as JobRow[]
      return { records: rows.map(toRecord), total, filtered: present(count, 'the count of a search').get({ match }) as number }
    }
    const rows = page.all(bound) as JobRow[]
    const filtered = counts
      .filter((row) => (!query.status || row.status === query.status) && (!query.type || row.type === query.type))
      .reduce((sum, row) => sum + row.count, 0)
    return { records: rows.map(toRecord), total, filtered }
  }

  /** One prepared page (and count) per shape of query: sort, direction, which filters. Made once. */
  private listStatementsFor(query: JobListQuery): { page: Statement; count?: Statement } {
    const searching = Boolean(query.words?.length)
    const key = [
      query.sort,
      query.direction,
      query.status ? 's' : '',
      query.type ? 't' : '',
      query.id ? 'i' : '',
      searching ? 'w' : '',
      query.createdFrom ? 'f' : '',
      query.createdTo ? 'u' : '',
    ].join(':')
    let statements = this.listStatements.get(key)
    if (statements) return statements
    const direction = query.direction === 'asc' ? 'ASC' : 'DESC'
    if (searching && query.sort === 'createdAt' && !query.id && !isRanged(query)) {
      statements = {
        page: this.db.prepare(`SELECT ${SELECT_COLUMNS} FROM jobs_search s JOIN jobs j ON j.seq = s.rowid
          WHERE jobs_search MATCH @match ORDER BY s.rowid ${direction} LIMIT @limit OFFSET @offset`),
        count: this.db.prepare('SELECT count(*) FROM jobs_search WHERE jobs_search MATCH @match').pluck(),
      }
    } else {
      const conditions = ['j.project_id = @projectId']
      if (query.status) conditions.push('j.status = @status')
      if (query.type) conditions.push('j.type = @type')
      if (query.id) conditions.push('j.id = @id')
      if (query.createdFrom) conditions.push('j.created_at >= @createdFrom')
      if (query.createdTo) conditions.push('j.created_at < @createdTo')
      if (searching && isRanged(query))
        conditions.push('j.seq IN (SELECT rowid FROM jobs_search WHERE jobs_search MATCH @match AND rowid BETWEEN @first AND @last)')
      else if (searching) conditions.push('j.seq IN (SELECT rowid FROM jobs_search WHERE jobs_search MATCH @match)')
      const order = `${SORT_COLUMNS[query.sort]} ${direction}, j.created_at ${direction}, j.id ${direction}`
      const where = conditions.join(' AND ')
      let count: Statement | undefined
      if (query.id || isRanged(query)) count = this.db.prepare(`SELECT count(*) FROM jobs j WHERE ${where}`).pluck()
      else if (searching) count = this.db.prepare('SELECT count(*) FROM jobs_search WHERE jobs_search MATCH @match').pluck()
      statements = {
        page: this.db.prepare(`SELECT ${SELECT_COLUMNS} FROM jobs j WHERE ${where} ORDER BY ${order} LIMIT @limit OFFSET @offset`),
        count,
      }
    }
    this.listStatements.set(key, statements)
    return statements
  }
}
