import type { JobErrorCode } from '../shared/api/job-error-codes'
import { JOB_TYPES, type JobType } from '../shared/api/jobs'
import { DiskFullCondition } from '../store/disk-full-condition'
import type { Store, StoreTransaction } from '../store/ports'
import type { JobOutcome, JobRecord } from '../store/records'
import { storageFailureOf } from '../store/storage-errors'
import { leaseOwnerName } from '../workers/lease-owner'
import { LeasedWorkerLoop } from '../workers/leased-worker-loop'
import { JobError } from './job-error'

/**
 * A long job's signs of life. Each `report` renews the job's lease and starts its time limit
 * afresh, so a two-hour transcription runs as long as it moves, while a stuck one still ends.
 */
export interface JobProgress {
  /** How far the work got (0 to 1, when known). Rejects when another runner took the job (its lease ran out). */
  report(fraction?: number): Promise<void>
}

/** Does one job's work. Must honour `signal` (timeout, shutdown) and may throw JobError. */
export type JobHandler = (job: JobRecord, signal: AbortSignal, progress: JobProgress) => Promise<JobOutcome>

/**
 * Job types that share slots of their own (docs/api.md, "Jobs"): a slow kind of work fills its
 * own lane only, and one project may hold at most `perProject` of a lane's slots here, so the
 * others stay free for other projects.
 */
export interface JobLane {
  name: string
  types: readonly JobType[]
  /** Jobs of the lane this runner runs at once. */
  slots: number
  /** Jobs of one project this runner runs at once in the lane (at most `slots`). */
  perProject: number
}

/**
 * Transcriptions fetch media from servers that may be slow on purpose (a drip), decode it and
 * wait on a speech server: minutes of waiting on others, in a lane of their own, so a TTS job,
 * AI content or an abandoned call never waits behind them.
 */
export const DEFAULT_JOB_LANES: readonly JobLane[] = [
  { name: 'media', types: ['TRANSCRIPTION'], slots: 3, perProject: 2 },
  { name: 'quick', types: ['TTS', 'AI_CONTENT', 'TRANSLATION', 'CONVERSATION'], slots: 3, perProject: 2 },
]

/** The lanes to run: `lanes` (every job type in exactly one), with `concurrency`, when given, as each lane's slots. */
function lanesOf(lanes: readonly JobLane[], concurrency: number | undefined): JobLane[] {
  for (const type of JOB_TYPES) {
    const holding = lanes.filter((lane) => lane.types.includes(type)).length
    if (holding !== 1) throw new Error(`JobRunnerOptions.lanes must put ${type} jobs in exactly one lane, not ${holding}`)
  }
  return lanes.map((lane) => {
    const slots = concurrency ?? lane.slots
    if (!Number.isSafeInteger(slots) || slots < 0 || !Number.isSafeInteger(lane.perProject) || lane.perProject < 1) {
      throw new Error(`Job lane ${lane.name}: slots must be a whole number of at least 0 and perProject of at least 1`)
    }
    return { ...lane, slots, perProject: Math.min(lane.perProject, Math.max(slots, 1)) }
  })
}

export interface JobRunnerOptions {
  /** The jobs, and transactions to end a job in together with what must commit with it. */
  store: Pick<Store, 'jobs' | 'transaction'> & Partial<Pick<Store, 'onWork'>>
  handlers: Partial<Record<JobType, JobHandler>>
  /** The lanes and their slots (DEFAULT_JOB_LANES); more jobs wait in the queue. */
  lanes?: readonly JobLane[]
  /** Given: the slots of every lane (0 pauses the runner), each project's share capped by it. */
  concurrency?: number
  /**
   * One attempt's time limit, counted again from each progress report of the job (see
   * JobProgress); the job is then tried again or fails with TIMEOUT.
   */
  timeoutMs?: number
  /**
   * How long a claimed job's lease outlasts its time limit (30 s). A job whose runner died
   * (a SIGKILL, a lost machine) is claimed again once its lease ran out: by a runner of this
   * host at once, if it sees the process is gone, else after timeoutMs + leaseMarginMs.
   */
  leaseMarginMs?: number
  maxAttempts?: number
  /** Wait before try n + 1 is retryDelayMs × 4^(n - 1). */
  retryDelayMs?: number
  now?: () => number
  timestamp?: () => string
  /**
   * Called inside the transaction that ends a job (COMPLETED or FAILED), with the job as
   * ended and the transaction's handle: what it writes through `tx` commits with the job's
   * end or not at all (the webhook outbox).
   */
  onJobEnding?: (tx: StoreTransaction, job: JobRecord) => Promise<void>
  /** Called after a job ended (COMPLETED or FAILED) and was written. */
  onJobEnded?: (job: JobRecord) => void
  /** Called after a running job reported progress and its lease was renewed, for live views. */
  onJobProgress?: (job: JobRecord, fraction: number | undefined) => void
  /** Called when a job started (after its lease was taken), for pickup latency and live views. */
  onJobStarted?: (job: JobRecord) => void
  /** A fault of VoiceDesk, for the log: a handler's unexpected error, a failing hook or write (`job` when one is concerned). */
  onError?: (error: unknown, job?: JobRecord) => void
  /**
   * The data folder's disk-full state, shared with the runtime. While the disk is full the
   * runner takes no job, and a job's end that could not be written waits for space (its job
   * stays leased), then is written. Left out: a private one that lets writes try again soon.
   */
  diskFull?: DiskFullCondition
  /** Wait before a write that found the database busy (another process) is tried again. */
  busyRetryMs?: number
  /**
   * Asked before a claimed job runs (fault injection): a failure answered ends the job FAILED
   * with it at once, through the same end as a real failure (its webhook, `jobs.retry`), no handler run.
   */
  beforeRun?: (job: JobRecord) => { code: JobErrorCode; message: string } | undefined
}

/**
 * Runs queued jobs in this process, one shared leased-worker loop per lane: woken at once when a
 * job is queued (here, or on another instance through the store's onWork), at most a lane's
 * slots at a time, each under a lease (so a job whose process died is taken again), a time limit
 * and a bounded number of attempts, counted when a job is claimed (so a job that kills its
 * process every time still ends). `stop()` lets running jobs finish.
 */
export class JobRunner {
  private readonly lanes: JobLane[]
  private readonly loops: LeasedWorkerLoop<JobRecord>[]
  /** The lease owner of every lane: one runner, one name. */
  readonly owner = leaseOwnerName()
  private readonly timeoutMs: number
  private readonly leaseMarginMs: number
  private readonly maxAttempts: number
  private readonly retryDelayMs: number
  private readonly now: () => number
  private readonly timestamp: () => string

  constructor(private readonly options: JobRunnerOptions) {
    this.timeoutMs = options.timeoutMs ?? 120_000
    this.leaseMarginMs = options.leaseMarginMs ?? 30_000
    this.maxAttempts = options.maxAttempts ?? 3
    this.retryDelayMs = options.retryDelayMs ?? 2_000
    this.now = options.now ?? Date.now
    this.timestamp = options.timestamp ?? (() => new Date().toISOString())
    const { jobs, onWork } = options.store
    // One condition for every lane: a full disk seen by one stops the claims of all.
    const diskFull = options.diskFull ?? new DiskFullCondition()
    this.lanes = lanesOf(options.lanes ?? DEFAULT_JOB_LANES, options.concurrency)
    this.loops = this.lanes.map((lane) => {
      const claimLane = { types: lane.types, perProject: lane.perProject }
      const loop: LeasedWorkerLoop<JobRecord> = new LeasedWorkerLoop<JobRecord>(
        {
          claim: async (owner, free, now) => {
            const claimed: JobRecord[] = []
            while (claimed.length < free) {
              const job = await jobs.claimNext(owner, now, now + this.timeoutMs + this.leaseMarginMs, claimLane)
              if (!job) break
              claimed.push(job)
            }
            return claimed
          },
          process: (job, stopSignal) => this.run(loop, job, stopSignal),
          // Due jobs the claim left wait for this lane's own slots (a project at its share): its
          // loop wakes when one of them ends, so only later ones need a timer.
          nextDueAt: (claimedAt) => jobs.nextRunAfter(lane.types, claimedAt),
          leaseOwners: () => jobs.pendingLeaseOwners(),
          releaseLeasesOf: (owner) => jobs.releaseLeasesOf(owner),
        },
        {
          concurrency: lane.slots,
          owner: this.owner,
          now: this.now,
          diskFull,
          busyRetryMs: options.busyRetryMs,
          onError: (error, item) => options.onError?.(error, item as JobRecord | undefined),
          subscribe: onWork ? (wake) => onWork('jobs', wake) : undefined,
        },
      )
      return loop
    })
  }

  /** Takes back the jobs of dead runners on this host, then starts on the queue. */
  async start(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.start()))
  }

  /** Fills free slots from the queue (of the lane of `type`, when given). Cheap to call: the service calls it on every enqueue. Never throws. */
  wake(type?: JobType): void {
    this.loops.forEach((loop, index) => {
      if (type === undefined || this.lanes[index]?.types.includes(type)) loop.wake()
    })
  }

  /** Number of jobs running now (a job whose end waits for disk space counts). */
  get activeJobs(): number {
    return this.loops.reduce((sum, loop) => sum + loop.active, 0)
  }

  /**
   * Stops taking jobs and waits up to `graceMs` for running ones; those still running
   * then are aborted and given back to the queue, to run again on the next start.
   */
  async stop(graceMs = 10_000): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop(graceMs)))
  }

  private async run(loop: LeasedWorkerLoop<JobRecord>, job: JobRecord, stopSignal: AbortSignal): Promise<void> {
    const timeout = new AbortController()
    let timer = setTimeout(() => timeout.abort(), this.timeoutMs)
    let reported = false
    const signal = AbortSignal.any([timeout.signal, stopSignal])
    const progress: JobProgress = {
      report: async (fraction) => {
        signal.throwIfAborted()
        const known = fraction === undefined || !Number.isFinite(fraction) ? undefined : Math.min(1, Math.max(0, fraction))
        const held = await this.options.store.jobs.heartbeat(job.id, this.owner, this.now() + this.timeoutMs + this.leaseMarginMs, known)
        if (!held) throw new Error(`Job ${job.id} was taken by another runner while it ran (its lease ran out)`)
        clearTimeout(timer)
        timer = setTimeout(() => timeout.abort(), this.timeoutMs)
        reported = true
        try {
          this.options.onJobProgress?.(job, known)
        } catch (error) {
          loop.reportFault(error, job)
        }
      },
    }
    try {
      await this.runHandler(loop, job, signal, progress, timeout.signal, stopSignal, () => reported)
    } finally {
      clearTimeout(timer)
    }
  }

  private async runHandler(
    loop: LeasedWorkerLoop<JobRecord>,
    job: JobRecord,
    signal: AbortSignal,
    progress: JobProgress,
    timeout: AbortSignal,
    stopSignal: AbortSignal,
    reported: () => boolean,
  ): Promise<void> {
    try {
      this.options.onJobStarted?.(job)
    } catch (error) {
      loop.reportFault(error, job)
    }
    if (job.attempts > this.maxAttempts) {
      // Claimed more often than it may run: every run so far ended with its process (a crash,
      // a kill) before the job could end. Running it again would only do the same.
      const message = `The job was started ${this.maxAttempts} times and VoiceDesk stopped during each run (a crash or a kill); it is not tried again`
      await this.end(loop, job, (jobs) => jobs.fail(job.id, this.owner, 'CRASHED', message, this.timestamp()))
      return
    }
    let forced: { code: JobErrorCode; message: string } | undefined
    try {
      forced = this.options.beforeRun?.(job)
    } catch (error) {
      loop.reportFault(error, job) // a failing hook must not keep the job from running
    }
    if (forced) {
      const { code, message } = forced
      await this.end(loop, job, (jobs) => jobs.fail(job.id, this.owner, code, message, this.timestamp()))
      return
    }
    const handler = this.options.handlers[job.type]
    let outcome: JobOutcome
    try {
      if (!handler) throw new JobError('UNSUPPORTED_JOB_TYPE', `This VoiceDesk cannot run ${job.type} jobs`)
      outcome = await handler(job, signal, progress)
      signal.throwIfAborted()
    } catch (error) {
      await this.afterFailure(loop, job, error, timeout, stopSignal, reported())
      return
    }
    await this.end(loop, job, (jobs) => jobs.complete(job.id, this.owner, outcome, this.timestamp()))
  }

  private async afterFailure(
    loop: LeasedWorkerLoop<JobRecord>,
    job: JobRecord,
    error: unknown,
    timeout: AbortSignal,
    stopSignal: AbortSignal,
    reportedProgress: boolean,
  ): Promise<void> {
    const { jobs } = this.options.store
    const release = () => jobs.release(job.id, this.owner)
    if (stopSignal.aborted) {
      // Shutdown, not failure: the job runs again on the next start.
      await loop.persist(release, job)
      return
    }
    if (storageFailureOf(error) !== undefined) {
      // No room for the media (or the database was busy): not the job's fault. It goes back
      // to the queue uncounted and runs again once there is room.
      loop.noteStorageFailure(error, job)
      await loop.persist(release, job)
      return
    }
    const failure =
      timeout.aborted && !(error instanceof JobError)
        ? new JobError(
            'TIMEOUT',
            reportedProgress
              ? `The job made no progress for ${Math.round(this.timeoutMs / 1000)} s`
              : `The job did not finish within ${Math.round(this.timeoutMs / 1000)} s`,
            true,
          )
        : error instanceof JobError
          ? error
          : new JobError('INTERNAL', 'The job failed inside VoiceDesk; the service log has the details', true)
    if (!(error instanceof JobError)) loop.reportFault(error, job)
    if (failure.retryable && job.attempts < this.maxAttempts) {
      const runAfter = this.now() + this.retryDelayMs * 4 ** (job.attempts - 1)
      await loop.persist(() => jobs.retryLater(job.id, this.owner, runAfter, failure.code, failure.message), job)
    } else {
      await this.end(loop, job, (jobs) => jobs.fail(job.id, this.owner, failure.code, failure.message, this.timestamp()))
    }
  }

  /**
   * Writes a job's end (when this runner still holds it) and what must commit with it, in one
   * transaction, then tells. A full disk or a busy database makes it wait and write again
   * whole (see LeasedWorkerLoop.persist). A failing onJobEnding is a bug elsewhere: the job
   * still ends, without it, rather than run forever.
   */
  private async end(
    loop: LeasedWorkerLoop<JobRecord>,
    job: JobRecord,
    write: (jobs: StoreTransaction['jobs']) => Promise<JobRecord | undefined>,
  ): Promise<void> {
    const { store } = this.options
    const endWith = (hook: JobRunnerOptions['onJobEnding']) =>
      store.transaction(async (tx) => {
        // The write answers the ended job itself (RETURNING): no read after it.
        const ended = await write(tx.jobs)
        if (!ended) return undefined
        await hook?.(tx, ended)
        return ended
      })
    let ended: JobRecord | undefined
    const written = await loop.persist(async () => {
      try {
        ended = await endWith(this.options.onJobEnding)
      } catch (error) {
        if (storageFailureOf(error) !== undefined) throw error
        loop.reportFault(error, job)
        ended = await endWith(undefined)
      }
    }, job)
    if (!written || !ended) return
    try {
      this.options.onJobEnded?.(ended)
    } catch (error) {
      loop.reportFault(error, ended)
    }
  }
}
