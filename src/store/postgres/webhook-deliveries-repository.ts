import type { Page, WebhookDeliveriesRepository } from '../ports'
import { DELIVERY_COLUMNS } from '../columns'
import type { AttemptOutcome, AttemptRecord, DeliveryListQuery, DeliveryRecord, NewDelivery } from '../records'
import type { Db } from './db'

const FIELDS = DELIVERY_COLUMNS
const SELECT_COLUMNS = FIELDS.map(([field, column]) => `d.${column} AS "${field}"`).join(', ')

const ATTEMPT_COLUMNS = `delivery_id AS "deliveryId", attempt, started_at AS "startedAt", status_code AS "statusCode",
  latency_ms AS "latencyMs", error, response_excerpt AS "responseExcerpt"`

/** The outbox (deliveries waiting or done) and the journal of every attempt. */
export class PostgresWebhookDeliveriesRepository implements WebhookDeliveriesRepository {
  constructor(private readonly db: Db) {}

  /** Stores a delivery. Call it inside the transaction that makes its event true. */
  async insert(delivery: NewDelivery): Promise<void> {
    await this.db.query(
      `INSERT INTO webhook_deliveries (id, project_id, event, job_id, url, auth_key, auth_secret, payload, status, next_attempt_at, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'PENDING', $9, $10, $10)`,
      [
        delivery.id,
        delivery.projectId,
        delivery.event,
        delivery.jobId,
        delivery.url,
        delivery.authKey,
        delivery.authSecret,
        delivery.payload,
        delivery.dueAt,
        delivery.createdAt,
      ],
    )
  }

  async findById(id: string): Promise<DeliveryRecord | undefined> {
    return (await this.db.query<DeliveryRecord>(`SELECT ${SELECT_COLUMNS} FROM webhook_deliveries d WHERE d.id = $1`, [id])).rows[0]
  }

  async findInProject(id: string, projectId: string): Promise<DeliveryRecord | undefined> {
    return (
      await this.db.query<DeliveryRecord>(`SELECT ${SELECT_COLUMNS} FROM webhook_deliveries d WHERE d.id = $1 AND d.project_id = $2`, [
        id,
        projectId,
      ])
    ).rows[0]
  }

  /**
   * Leases up to `limit` due deliveries to `owner` until `leaseUntil` (ms), counting their
   * attempt, in the order they fell due. One statement: rows another sender is claiming are
   * skipped (SKIP LOCKED), not waited for. The lease also moves next_attempt_at to its end, so
   * a leased delivery leaves the front of the queue and falls due again if its owner dies.
   */
  async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<DeliveryRecord[]> {
    const { rows } = await this.db.query<DeliveryRecord & { dueAt: number; seq: number }>(
      `WITH picked AS (
          SELECT seq, next_attempt_at FROM webhook_deliveries WHERE status = 'PENDING' AND next_attempt_at <= $2
          ORDER BY next_attempt_at, seq LIMIT $4 FOR UPDATE SKIP LOCKED)
        UPDATE webhook_deliveries d SET lease_owner = $1, lease_expires_at = $3, next_attempt_at = $3,
          attempts = d.attempts + 1, round_attempts = d.round_attempts + 1
        FROM picked WHERE d.seq = picked.seq
        RETURNING ${SELECT_COLUMNS}, picked.next_attempt_at AS "dueAt", d.seq AS seq`,
      [owner, now, leaseUntil, limit],
    )
    return rows.sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq).map(({ dueAt: _dueAt, seq: _seq, ...record }) => record)
  }

  /**
   * Journals attempts and moves their deliveries on, all in one transaction (one commit for
   * a burst of answers). A delivery whose lease was lost meanwhile (another sender took it)
   * keeps its state; its attempt is journaled all the same.
   */
  async recordAttempts(owner: string, entries: { attempt: AttemptRecord; outcome: AttemptOutcome }[], updatedAt: string): Promise<void> {
    if (entries.length === 0) return
    await this.db.atomic(async (db) => {
      for (const { attempt, outcome } of entries) {
        await db.query(
          `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status_code, latency_ms, error, response_excerpt) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [
            attempt.deliveryId,
            attempt.attempt,
            attempt.startedAt,
            attempt.statusCode,
            attempt.latencyMs,
            attempt.error,
            attempt.responseExcerpt,
          ],
        )
        await db.query(
          `UPDATE webhook_deliveries SET status = $3, next_attempt_at = $4, lease_owner = NULL, lease_expires_at = NULL, last_status_code = $5,
              last_error = $6, updated_at = $7, delivered_at = CASE WHEN $3 = 'DELIVERED' THEN $7 ELSE delivered_at END
            WHERE id = $1 AND lease_owner = $2 AND status = 'PENDING'`,
          [
            attempt.deliveryId,
            owner,
            outcome.status,
            outcome.status === 'PENDING' ? outcome.nextAttemptAt : null,
            attempt.statusCode,
            attempt.error,
            updatedAt,
          ],
        )
      }
    })
  }

  /** Gives a delivery back, due at `now`, without counting its attempt (the sender stopped mid-way). */
  async release(id: string, owner: string, now: number): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = $3,
          attempts = greatest(attempts - 1, 0), round_attempts = greatest(round_attempts - 1, 0)
        WHERE id = $1 AND lease_owner = $2 AND status = 'PENDING'`,
      [id, owner, now],
    )
  }

  /** Ends a claimed delivery EXHAUSTED without an attempt (its tries were used up by attempts a crash cut off). */
  async giveUp(id: string, owner: string, error: string, updatedAt: string): Promise<void> {
    // The claim that found the delivery out of tries made no attempt: it is not counted.
    await this.db.query(
      `UPDATE webhook_deliveries SET status = 'EXHAUSTED', next_attempt_at = NULL, lease_owner = NULL, lease_expires_at = NULL,
          attempts = greatest(attempts - 1, 0), round_attempts = greatest(round_attempts - 1, 0), last_error = $3, updated_at = $4
        WHERE id = $1 AND lease_owner = $2 AND status = 'PENDING'`,
      [id, owner, error, updatedAt],
    )
  }

  async pendingLeaseOwners(): Promise<string[]> {
    const { rows } = await this.db.query<{ owner: string }>(
      `SELECT DISTINCT lease_owner AS owner FROM webhook_deliveries WHERE status = 'PENDING' AND lease_owner IS NOT NULL`,
    )
    return rows.map((row) => row.owner)
  }

  async releaseLeasesOf(owner: string, now: number): Promise<number> {
    const { rowCount } = await this.db.query(
      `UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL, next_attempt_at = $2 WHERE status = 'PENDING' AND lease_owner = $1`,
      [owner, now],
    )
    return rowCount ?? 0
  }

  /** When the earliest waiting delivery falls due, or a lease runs out (ms), if any waits. */
  async nextDueAt(): Promise<number | undefined> {
    const { rows } = await this.db.query<{ at: number | null }>(
      `SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'PENDING'`,
    )
    return rows[0]?.at ?? undefined
  }

  async attemptsOf(deliveryId: string): Promise<AttemptRecord[]> {
    return (
      await this.db.query<AttemptRecord>(`SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts WHERE delivery_id = $1 ORDER BY seq`, [
        deliveryId,
      ])
    ).rows
  }

  /**
   * Queues a delivery of the project for a new round of attempts from now, whatever its state,
   * unless an attempt is in flight (a lease that has not run out). Answers the delivery,
   * 'in-flight', or undefined when unknown.
   */
  async redeliver(id: string, projectId: string, now: number, updatedAt: string): Promise<DeliveryRecord | 'in-flight' | undefined> {
    const { rows } = await this.db.query<DeliveryRecord>(
      `UPDATE webhook_deliveries d SET status = 'PENDING', round_attempts = 0, next_attempt_at = $3, lease_owner = NULL, lease_expires_at = NULL, updated_at = $4
        WHERE d.id = $1 AND d.project_id = $2 AND NOT (d.status = 'PENDING' AND d.lease_owner IS NOT NULL AND d.lease_expires_at >= $3)
        RETURNING ${SELECT_COLUMNS}`,
      [id, projectId, now, updatedAt],
    )
    if (rows[0]) return rows[0]
    return (await this.findInProject(id, projectId)) ? 'in-flight' : undefined
  }

  /** A page of the project's deliveries, newest first, with the counts a list shows (one snapshot). */
  async list(projectId: string, query: DeliveryListQuery): Promise<Page<DeliveryRecord>> {
    const values: unknown[] = [projectId]
    const conditions = ['d.project_id = $1']
    if (query.status) conditions.push(`d.status = $${values.push(query.status)}`)
    if (query.jobId) conditions.push(`d.job_id = $${values.push(query.jobId)}`)
    const where = conditions.join(' AND ')
    return this.db.snapshot(async (db) => {
      const total =
        (await db.query<{ count: number }>('SELECT count(*) AS count FROM webhook_deliveries WHERE project_id = $1', [projectId])).rows[0]
          ?.count ?? 0
      const filtered =
        (await db.query<{ count: number }>(`SELECT count(*) AS count FROM webhook_deliveries d WHERE ${where}`, values)).rows[0]?.count ?? 0
      const { rows } = await db.query<DeliveryRecord>(
        `SELECT ${SELECT_COLUMNS} FROM webhook_deliveries d WHERE ${where} ORDER BY d.seq DESC LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
        [...values, query.limit, query.offset],
      )
      return { records: rows, total, filtered }
    })
  }
}
