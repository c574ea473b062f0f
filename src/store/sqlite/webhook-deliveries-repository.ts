import type { Database, Statement } from 'better-sqlite3'
import { DELIVERY_COLUMNS } from '../columns'
import type { WebhookDeliveriesRepository } from '../ports'
import type { DeliveryRecord, NewDelivery, AttemptRecord, AttemptOutcome, DeliveryListQuery } from '../records'

const FIELDS = DELIVERY_COLUMNS
const SELECT_COLUMNS = FIELDS.map(([field, column]) => `d.${column} AS ${field}`).join(', ')
/** RETURNING names the updated table's columns unqualified. */
const RETURNING_COLUMNS = FIELDS.map(([field, column]) => `${column} AS ${field}`).join(', ')

const ATTEMPT_COLUMNS = `delivery_id AS deliveryId, attempt, started_at AS startedAt, status_code AS statusCode,
  latency_ms AS latencyMs, error, response_excerpt AS responseExcerpt`

/** The outbox (deliveries waiting or done) and the journal of every attempt. */
export class SqliteWebhookDeliveriesRepository implements WebhookDeliveriesRepository {
  private readonly statements: Record<
    | 'insert'
    | 'findById'
    | 'findInProject'
    | 'claimDue'
    | 'insertAttempt'
    | 'afterAttempt'
    | 'release'
    | 'giveUp'
    | 'leaseOwners'
    | 'releaseOwner'
    | 'nextDueAt'
    | 'attemptsOf'
    | 'redeliver',
    Statement
  >
  private readonly listStatements = new Map<string, { page: Statement; count: Statement }>()

  constructor(private readonly db: Database) {
    this.statements = {
      insert: db.prepare(`INSERT INTO webhook_deliveries (id, project_id, event, job_id, url, auth_key, auth_secret, payload, status,
          next_attempt_at, created_at, updated_at)
        VALUES (@id, @projectId, @event, @jobId, @url, @authKey, @authSecret, @payload, 'PENDING', @dueAt, @createdAt, @createdAt)`),
      findById: db.prepare(`SELECT ${SELECT_COLUMNS} FROM webhook_deliveries d WHERE d.id = ?`),
      findInProject: db.prepare(`SELECT ${SELECT_COLUMNS} FROM webhook_deliveries d WHERE d.id = ? AND d.project_id = ?`),
      // One statement: the pick and the lease are one compare-and-swap, for a batch at a time.
      // A lease also moves next_attempt_at to its end: leased rows leave the front of the due
      // index (no claim steps over them), and come back due by themselves if their owner dies.
      claimDue: db.prepare(`UPDATE webhook_deliveries SET lease_owner = @owner, lease_expires_at = @leaseUntil,
          next_attempt_at = @leaseUntil, attempts = attempts + 1, round_attempts = round_attempts + 1
        WHERE seq IN (SELECT seq FROM webhook_deliveries INDEXED BY webhook_deliveries_due
          WHERE status = 'PENDING' AND next_attempt_at <= @now ORDER BY next_attempt_at LIMIT @limit)
        RETURNING ${RETURNING_COLUMNS}`),
      insertAttempt:
        db.prepare(`INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status_code, latency_ms, error, response_excerpt)
        VALUES (@deliveryId, @attempt, @startedAt, @statusCode, @latencyMs, @error, @responseExcerpt)`),
      afterAttempt: db.prepare(`UPDATE webhook_deliveries SET status = @status, next_attempt_at = @nextAttemptAt,
          lease_owner = NULL, lease_expires_at = NULL, last_status_code = @statusCode, last_error = @error,
          updated_at = @updatedAt, delivered_at = CASE WHEN @status = 'DELIVERED' THEN @updatedAt ELSE delivered_at END
        WHERE id = @id AND lease_owner = @owner AND status = 'PENDING'`),
      release: db.prepare(`UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = @now,
          attempts = max(attempts - 1, 0), round_attempts = max(round_attempts - 1, 0)
        WHERE id = @id AND lease_owner = @owner AND status = 'PENDING'`),
      // The claim that found the delivery out of tries made no attempt: it is not counted.
      giveUp: db.prepare(`UPDATE webhook_deliveries SET status = 'EXHAUSTED', next_attempt_at = NULL, lease_owner = NULL,
          lease_expires_at = NULL, attempts = max(attempts - 1, 0), round_attempts = max(round_attempts - 1, 0),
          last_error = @error, updated_at = @updatedAt
        WHERE id = @id AND lease_owner = @owner AND status = 'PENDING'`),
      leaseOwners: db
        .prepare(
          `SELECT DISTINCT lease_owner FROM webhook_deliveries INDEXED BY webhook_deliveries_due
        WHERE status = 'PENDING' AND lease_owner IS NOT NULL`,
        )
        .pluck(),
      releaseOwner: db.prepare(`UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = @now
        WHERE status = 'PENDING' AND lease_owner = @owner`),
      nextDueAt: db
        .prepare(`SELECT min(next_attempt_at) FROM webhook_deliveries INDEXED BY webhook_deliveries_due WHERE status = 'PENDING'`)
        .pluck(),
      attemptsOf: db.prepare(`SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts WHERE delivery_id = ? ORDER BY seq`),
      // A new round: the same delivery and webhook-id, due now, with the whole retry schedule again.
      redeliver: db.prepare(`UPDATE webhook_deliveries SET status = 'PENDING', round_attempts = 0, next_attempt_at = @now,
          lease_owner = NULL, lease_expires_at = NULL, updated_at = @updatedAt
        WHERE id = @id AND project_id = @projectId AND NOT (status = 'PENDING' AND lease_owner IS NOT NULL AND lease_expires_at >= @now)`),
    }
  }

  /** Stores a delivery. Call it inside the transaction that makes its event true. */
  async insert(delivery: NewDelivery): Promise<void> {
    this.statements.insert.run(delivery)
  }

  async findById(id: string): Promise<DeliveryRecord | undefined> {
    return this.statements.findById.get(id) as DeliveryRecord | undefined
  }

  async findInProject(id: string, projectId: string): Promise<DeliveryRecord | undefined> {
    return this.statements.findInProject.get(id, projectId) as DeliveryRecord | undefined
  }

  /** Leases up to `limit` due deliveries to `owner` until `leaseUntil` (ms), counting their attempt. */
  async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<DeliveryRecord[]> {
    return this.statements.claimDue.all({ owner, now, leaseUntil, limit }) as DeliveryRecord[]
  }

  /**
   * Journals attempts and moves their deliveries on, all in one transaction (one commit for
   * a burst of answers). A delivery whose lease was lost meanwhile (another sender took it)
   * keeps its state; its attempt is journaled all the same. IMMEDIATE, like every write
   * transaction (see Store.transaction).
   */
  async recordAttempts(owner: string, entries: { attempt: AttemptRecord; outcome: AttemptOutcome }[], updatedAt: string): Promise<void> {
    this.db
      .transaction(() => {
        for (const { attempt, outcome } of entries) {
          this.statements.insertAttempt.run(attempt)
          this.statements.afterAttempt.run({
            id: attempt.deliveryId,
            owner,
            status: outcome.status,
            nextAttemptAt: outcome.status === 'PENDING' ? outcome.nextAttemptAt : null,
            statusCode: attempt.statusCode,
            error: attempt.error,
            updatedAt,
          })
        }
      })
      .immediate()
  }

  /** Gives a delivery back, due at `now`, without counting its attempt (the sender stopped mid-way). */
  async release(id: string, owner: string, now: number): Promise<void> {
    this.statements.release.run({ id, owner, now })
  }

  /** Ends a claimed delivery EXHAUSTED without an attempt (its tries were used up by attempts a crash cut off). */
  async giveUp(id: string, owner: string, error: string, updatedAt: string): Promise<void> {
    this.statements.giveUp.run({ id, owner, error, updatedAt })
  }

  async pendingLeaseOwners(): Promise<string[]> {
    return this.statements.leaseOwners.all() as string[]
  }

  async releaseLeasesOf(owner: string, now: number): Promise<number> {
    return this.statements.releaseOwner.run({ owner, now }).changes
  }

  /** When the earliest waiting delivery falls due, or a lease runs out (ms), if any waits. */
  async nextDueAt(): Promise<number | undefined> {
    return (this.statements.nextDueAt.get() as number | null) ?? undefined
  }

  async attemptsOf(deliveryId: string): Promise<AttemptRecord[]> {
    return this.statements.attemptsOf.all(deliveryId) as AttemptRecord[]
  }

  /**
   * Queues a delivery of the project for a new round of attempts from now, whatever its state,
   * unless an attempt is in flight. Answers the delivery, 'in-flight', or undefined when unknown.
   */
  async redeliver(id: string, projectId: string, now: number, updatedAt: string): Promise<DeliveryRecord | 'in-flight' | undefined> {
    return this.db
      .transaction(() => {
        if (this.statements.redeliver.run({ id, projectId, now, updatedAt }).changes === 1)
          return this.statements.findById.get(id) as DeliveryRecord
        return this.statements.findInProject.get(id, projectId) ? ('in-flight' as const) : undefined
      })
      .immediate()
  }

  /** A page of the project's deliveries, newest first, with the counts a list shows. */
  async list(projectId: string, query: DeliveryListQuery): Promise<{ records: DeliveryRecord[]; total: number; filtered: number }> {
    const { page, count } = this.listStatementsFor(query)
    const bound = { projectId, status: query.status ?? null, jobId: query.jobId ?? null, limit: query.limit, offset: query.offset }
    const total = this.listStatementsFor({}).count.get(bound) as number
    return { records: page.all(bound) as DeliveryRecord[], total, filtered: count.get(bound) as number }
  }

  private listStatementsFor(query: Pick<DeliveryListQuery, 'status' | 'jobId'>): { page: Statement; count: Statement } {
    const key = `${query.status ? 's' : ''}${query.jobId ? 'j' : ''}`
    let statements = this.listStatements.get(key)
    if (statements) return statements
    const conditions = ['d.project_id = @projectId']
    if (query.status) conditions.push('d.status = @status')
    if (query.jobId) conditions.push('d.job_id = @jobId')
    const where = conditions.join(' AND ')
    statements = {
      page: this.db.prepare(
        `SELECT ${SELECT_COLUMNS} FROM webhook_deliveries d WHERE ${where} ORDER BY d.seq DESC LIMIT @limit OFFSET @offset`,
      ),
      count: this.db.prepare(`SELECT count(*) FROM webhook_deliveries d WHERE ${where}`).pluck(),
    }
    this.listStatements.set(key, statements)
    return statements
  }
}
