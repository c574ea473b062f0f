/*
 * In-memory doubles of the store for focused tests of the job runner and the webhook sender:
 * only the port methods those two use, with the lease rules of the SQLite repositories (a claim
 * leases and counts an attempt, a release gives it back uncounted, a write by an owner that lost
 * its lease changes nothing). They let a test drive the clock and see every call; the store
 * itself (SQLite, PostgreSQL) is covered by the store contract suite, not by these doubles.
 */
import type { JobErrorCode } from '../../src/shared/api/job-error-codes'
import { jobRecord } from './job-record'
import type { JobsRepository, Store, StoreTransaction, WebhookDeliveriesRepository } from '../../src/store/ports'
import type { AttemptOutcome, AttemptRecord, DeliveryRecord, JobOutcome, JobRecord } from '../../src/store/records'

/** A promise the test settles itself. */
export interface Deferred<T> {
  promise: Promise<T>
  resolve(value: T): void
  reject(error: unknown): void
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((yes, no) => {
    resolve = yes
    reject = no
  })
  return { promise, resolve, reject }
}

/** What better-sqlite3 throws for a busy database or a full disk (a SqliteError carries the same `code`). */
export function storageError(code: 'SQLITE_BUSY' | 'SQLITE_FULL'): Error {
  return Object.assign(new Error(code === 'SQLITE_BUSY' ? 'database is locked' : 'database or disk is full'), { code })
}

const notInThisDouble = (name: string) => () => Promise.reject(new Error(`${name} is not part of the in-memory double`))

export function jobFixture(overrides: Partial<JobRecord> = {}): JobRecord {
  return jobRecord({
    id: 'job-1',
    type: 'TTS',
    status: 'PENDING',
    title: 'A job',
    model: 'model',
    processingType: 'tts',
    systemModelKey: 'tts',
    text: 'Hello',
    jobResponse: null,
    fromLng: null,
    previewToken: 'preview',
    usageSeconds: null,
    totalCost: 0,
    attempts: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  })
}

/** The jobs repository's queue methods, over a Map; `transaction` runs on the same repositories and rolls the Map back when its work throws. */
export class InMemoryJobs {
  readonly rows = new Map<string, JobRecord>()
  /** True while a `transaction`'s work runs. */
  inTransaction = false

  readonly jobs: JobsRepository = {
    insert: async (record) => void this.rows.set(record.id, { ...record }),
    findById: async (id) => this.copy(id),
    // A lane's types are honoured; its preference between projects is the real stores' (the store contract checks it).
    claimNext: async (owner, now, leaseUntil, lane) => {
      const job = [...this.rows.values()]
        .filter((row) => row.status === 'PENDING' && row.runAfter <= now && (row.leaseOwner === null || (row.leaseExpiresAt ?? 0) < now))
        .filter((row) => !lane || lane.types.includes(row.type))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))[0]
      if (!job) return undefined
      Object.assign(job, { leaseOwner: owner, leaseExpiresAt: leaseUntil, attempts: job.attempts + 1 })
      return { ...job }
    },
    complete: async (id, owner, outcome: JobOutcome, updatedAt) =>
      this.whileHeld(id, owner, (job) =>
        Object.assign(job, { status: 'COMPLETED', ...outcome, leaseOwner: null, leaseExpiresAt: null, updatedAt }),
      )
        ? this.copy(id)
        : undefined,
    fail: async (id, owner, code: JobErrorCode, message, updatedAt) =>
      this.whileHeld(id, owner, (job) =>
        Object.assign(job, { status: 'FAILED', errorCode: code, errorMessage: message, leaseOwner: null, leaseExpiresAt: null, updatedAt }),
      )
        ? this.copy(id)
        : undefined,
    retryLater: async (id, owner, runAfter, code, message) =>
      this.whileHeld(id, owner, (job) =>
        Object.assign(job, { runAfter, errorCode: code, errorMessage: message, leaseOwner: null, leaseExpiresAt: null }),
      ),
    heartbeat: async (id, owner, leaseUntil, progress) =>
      this.whileHeld(id, owner, (job) => Object.assign(job, { leaseExpiresAt: leaseUntil, progress: progress ?? job.progress })),
    release: async (id, owner) => {
      this.whileHeld(id, owner, (job) =>
        Object.assign(job, { leaseOwner: null, leaseExpiresAt: null, attempts: Math.max(job.attempts - 1, 0) }),
      )
    },
    pendingLeaseOwners: async () => [...new Set(this.pending().flatMap((job) => (job.leaseOwner === null ? [] : [job.leaseOwner])))],
    namingMedia: async (names) =>
      new Set([...this.rows.values()].flatMap((job) => (job.mediaFile !== null && names.includes(job.mediaFile) ? [job.mediaFile] : []))),
    releaseLeasesOf: async (owner) => {
      const held = this.pending().filter((job) => job.leaseOwner === owner)
      for (const job of held) Object.assign(job, { leaseOwner: null, leaseExpiresAt: null })
      return held.length
    },
    nextRunAfter: async (types, after) => {
      const due = this.pending()
        .filter((job) => !types || types.includes(job.type))
        .map((job) => (job.leaseOwner === null ? job.runAfter : Math.max(job.runAfter, (job.leaseExpiresAt ?? 0) + 1)))
        .filter((at) => after === undefined || at > after)
      return due.length === 0 ? undefined : Math.min(...due)
    },
    findInProject: notInThisDouble('findInProject'),
    findByPreviewToken: notInThisDouble('findByPreviewToken'),
    newestFromSource: notInThisDouble('newestFromSource'),
    queueCounts: notInThisDouble('queueCounts'),
    statistics: notInThisDouble('statistics'),
    list: notInThisDouble('list'),
    listCalls: notInThisDouble('listCalls'),
  }

  /** What JobRunner asks of a store: `jobs`, and transactions whose handle holds the same repositories. */
  readonly store: Pick<Store, 'jobs' | 'transaction'> = {
    jobs: this.jobs,
    transaction: async <T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> => {
      const before = new Map([...this.rows].map(([id, job]) => [id, { ...job }]))
      this.inTransaction = true
      try {
        return await work({ jobs: this.jobs } as StoreTransaction)
      } catch (error) {
        this.rows.clear()
        for (const [id, job] of before) this.rows.set(id, job)
        throw error
      } finally {
        this.inTransaction = false
      }
    },
  }

  get(id: string): JobRecord {
    return this.copy(id)!
  }

  private copy(id: string): JobRecord | undefined {
    const job = this.rows.get(id)
    return job && { ...job }
  }

  private pending(): JobRecord[] {
    return [...this.rows.values()].filter((job) => job.status === 'PENDING')
  }

  private whileHeld(id: string, owner: string, change: (job: JobRecord) => void): boolean {
    const job = this.rows.get(id)
    if (!job || job.leaseOwner !== owner || job.status !== 'PENDING') return false
    change(job)
    return true
  }
}

export function deliveryFixture(overrides: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return {
    id: 'delivery-1',
    projectId: 'project-1',
    event: 'job.completed',
    jobId: 'job-1',
    url: 'http://receiver.test/hook',
    authKey: null,
    authSecret: null,
    payload: '{"event":"job.completed"}',
    status: 'PENDING',
    attempts: 0,
    roundAttempts: 0,
    nextAttemptAt: 0,
    leaseOwner: null,
    leaseExpiresAt: null,
    lastStatusCode: null,
    lastError: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    deliveredAt: null,
    ...overrides,
  }
}

/** The webhook outbox's sender methods, over a Map, with every recordAttempts call kept. */
export class InMemoryDeliveries {
  readonly rows = new Map<string, DeliveryRecord>()
  readonly journal: AttemptRecord[] = []
  /** The entries of each recordAttempts call, in order. */
  readonly recordCalls: { attempt: AttemptRecord; outcome: AttemptOutcome }[][] = []
  /** Each claimDue call: the time it claimed at, and the deliveries it answered. */
  readonly claims: { now: number; ids: string[] }[] = []

  readonly deliveries: WebhookDeliveriesRepository = {
    insert: async (delivery) => {
      const { dueAt, ...fields } = delivery
      this.rows.set(delivery.id, deliveryFixture({ ...fields, nextAttemptAt: dueAt }))
    },
    findById: async (id) => this.copy(id),
    claimDue: async (owner, now, leaseUntil, limit) => {
      const due = this.pending()
        .filter((row) => row.nextAttemptAt !== null && row.nextAttemptAt <= now)
        .sort((a, b) => a.nextAttemptAt! - b.nextAttemptAt!)
        .slice(0, limit)
      for (const row of due) {
        Object.assign(row, {
          leaseOwner: owner,
          leaseExpiresAt: leaseUntil,
          nextAttemptAt: leaseUntil,
          attempts: row.attempts + 1,
          roundAttempts: row.roundAttempts + 1,
        })
      }
      this.claims.push({ now, ids: due.map((row) => row.id) })
      return due.map((row) => ({ ...row }))
    },
    recordAttempts: async (owner, entries, updatedAt) => {
      this.recordCalls.push(entries.map(({ attempt, outcome }) => ({ attempt, outcome })))
      for (const { attempt, outcome } of entries) {
        this.journal.push(attempt)
        this.whileHeld(attempt.deliveryId, owner, (row) =>
          Object.assign(row, {
            status: outcome.status,
            nextAttemptAt: outcome.status === 'PENDING' ? outcome.nextAttemptAt : null,
            leaseOwner: null,
            leaseExpiresAt: null,
            lastStatusCode: attempt.statusCode,
            lastError: attempt.error,
            updatedAt,
            deliveredAt: outcome.status === 'DELIVERED' ? updatedAt : row.deliveredAt,
          }),
        )
      }
    },
    release: async (id, owner, now) =>
      this.whileHeld(id, owner, (row) =>
        Object.assign(row, {
          leaseOwner: null,
          leaseExpiresAt: null,
          nextAttemptAt: now,
          attempts: Math.max(row.attempts - 1, 0),
          roundAttempts: Math.max(row.roundAttempts - 1, 0),
        }),
      ),
    giveUp: async (id, owner, error, updatedAt) =>
      this.whileHeld(id, owner, (row) =>
        Object.assign(row, {
          status: 'EXHAUSTED',
          nextAttemptAt: null,
          leaseOwner: null,
          leaseExpiresAt: null,
          attempts: Math.max(row.attempts - 1, 0),
          roundAttempts: Math.max(row.roundAttempts - 1, 0),
          lastError: error,
          updatedAt,
        }),
      ),
    pendingLeaseOwners: async () => [...new Set(this.pending().flatMap((row) => (row.leaseOwner === null ? [] : [row.leaseOwner])))],
    releaseLeasesOf: async (owner, now) => {
      const held = this.pending().filter((row) => row.leaseOwner === owner)
      for (const row of held) Object.assign(row, { leaseOwner: null, leaseExpiresAt: null, nextAttemptAt: now })
      return held.length
    },
    nextDueAt: async () => {
      const due = this.pending().flatMap((row) => (row.nextAttemptAt === null ? [] : [row.nextAttemptAt]))
      return due.length === 0 ? undefined : Math.min(...due)
    },
    attemptsOf: async (deliveryId) => this.journal.filter((attempt) => attempt.deliveryId === deliveryId),
    findInProject: notInThisDouble('findInProject'),
    redeliver: notInThisDouble('redeliver'),
    list: notInThisDouble('list'),
  }

  get(id: string): DeliveryRecord {
    return this.copy(id)!
  }

  private copy(id: string): DeliveryRecord | undefined {
    const row = this.rows.get(id)
    return row && { ...row }
  }

  private pending(): DeliveryRecord[] {
    return [...this.rows.values()].filter((row) => row.status === 'PENDING')
  }

  private whileHeld(id: string, owner: string, change: (row: DeliveryRecord) => void): void {
    const row = this.rows.get(id)
    if (row && row.leaseOwner === owner && row.status === 'PENDING') change(row)
  }
}
