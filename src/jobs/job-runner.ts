import { setTimeout as sleep } from 'node:timers/promises'
import type { JobType } from '../shared/api/jobs'
import { DiskFullCondition } from '../store/disk-full-condition'
import type { JobOutcome, JobRecord, JobsRepository } from '../store/jobs-repository'
import { storageFailureOf } from '../store/storage-errors'
import { JobError } from './job-error'
import { isDeadLeaseOwner, leaseOwnerName } from './lease-owner'

/** Does one job's work. Must honour `signal` (timeout, shutdown) and may throw JobError. */
export type JobHandler = (job: JobRecord, signal: AbortSignal) => Promise<JobOutcome>

export interface JobRunnerOptions {
  jobs: JobsRepository
  handlers: Partial<Record<JobType, JobHandler>>
  /** Jobs run at once; more wait in the queue. */
  concurrency?: number
  /** One attempt's time limit; the job is then tried again or fails with TIMEOUT. */
  timeoutMs?: number
  maxAttempts?: number
  /** Wait before try n + 1 is retryDelayMs × 4^(n - 1). */
  retryDelayMs?: number
  now?: () => number
  timestamp?: () => string
  /**
   * Called inside the transaction that ends a job (COMPLETED or FAILED), with the job as
   * ended: what it writes commits with the job's end or not at all (the webhook outbox).
   */
  onJobEnding?: (job: JobRecord) => void
  /** Called after a job ended (COMPLETED or FAILED) and was written. */
  onJobEnded?: (job: JobRecord) => void
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
}

/**
 * Runs queued jobs in this process: woken at once when a job is queued, at most
 * `concurrency` at a time, each under a lease (so a job whose process died is taken again),
 * a time limit and a bounded number of attempts, counted when a job is claimed (so a job
 * that kills its process every time still ends). `stop()` lets running jobs finish.
 * Nothing it does rejects or throws to its caller: a full disk or a busy database makes it
 * wait and try again, anything else goes to `onError`.
 */
export class JobRunner {
  private readonly owner = leaseOwnerName()
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>()
  private readonly stopController = new AbortController()
  private retryTimer: NodeJS.Timeout | undefined
  private waitingForSpace = false
  private started = false
  private stopping = false
  private readonly concurrency: number
  private readonly timeoutMs: number
  private readonly maxAttempts: number
  private readonly retryDelayMs: number
  private readonly now: () => number
  private readonly timestamp: () => string
  private readonly diskFull: DiskFullCondition
  private readonly busyRetryMs: number

  constructor(private readonly options: JobRunnerOptions) {
    this.concurrency = options.concurrency ?? 2
    this.timeoutMs = options.timeoutMs ?? 120_000
    this.maxAttempts = options.maxAttempts ?? 3
    this.retryDelayMs = options.retryDelayMs ?? 2_000
    this.now = options.now ?? Date.now
    this.timestamp = options.timestamp ?? (() => new Date().toISOString())
    this.diskFull = options.diskFull ?? new DiskFullCondition()
    this.busyRetryMs = options.busyRetryMs ?? 1_000
  }

  /** Takes back the jobs of dead runners on this host, then starts on the queue. */
  start(): void {
    if (this.started) return
    this.started = true
    try {
      for (const owner of this.options.jobs.pendingLeaseOwners()) {
        if (isDeadLeaseOwner(owner, this.owner)) this.options.jobs.releaseLeasesOf(owner)
      }
    } catch (error) {
      // A full disk or a busy database at start-up: the dead runners' jobs come back when their leases run out.
      this.noteStorageFailure(error)
    }
    this.wake()
  }

  /** Fills free slots from the queue. Cheap to call: the service calls it on every enqueue. Never throws. */
  wake(): void {
    if (!this.started || this.stopping) return
    if (this.diskFull.isFull) return this.resumeWhenSpaceIsBack()
    clearTimeout(this.retryTimer)
    this.retryTimer = undefined
    try {
      while (this.running.size < this.concurrency) {
        const now = this.now()
        const job = this.options.jobs.claimNext(this.owner, now, now + this.timeoutMs + 30_000)
        if (!job) break
        this.run(job)
      }
      if (this.running.size < this.concurrency) this.scheduleNextRetry()
    } catch (error) {
      if (this.noteStorageFailure(error) === 'disk-full') return this.resumeWhenSpaceIsBack()
      // Busy, or a fault: try again a little later rather than leave the queue unattended.
      clearTimeout(this.retryTimer)
      this.retryTimer = setTimeout(() => this.wake(), this.busyRetryMs)
      this.retryTimer.unref()
    }
  }

  /** Number of jobs running now (a job whose end waits for disk space counts). */
  get activeJobs(): number {
    return this.running.size
  }

  /**
   * Stops taking jobs and waits up to `graceMs` for running ones; those still running
   * then are aborted and given back to the queue, to run again on the next start.
   */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.stopping) return
    this.stopping = true
    clearTimeout(this.retryTimer)
    const pending = [...this.running.values()].map((entry) => entry.done)
    let graceTimer: NodeJS.Timeout | undefined
    const graceOver = new Promise<void>((resolve) => {
      graceTimer = setTimeout(resolve, graceMs)
    })
    await Promise.race([Promise.all(pending), graceOver])
    clearTimeout(graceTimer)
    this.stopController.abort()
    await Promise.all([...this.running.values()].map((entry) => entry.done))
  }

  /** Tells the disk-full condition, or the log (a fault); answers which storage failure it was. */
  private noteStorageFailure(error: unknown): 'disk-full' | 'busy' | undefined {
    const failure = storageFailureOf(error)
    if (failure === 'disk-full') this.diskFull.report(error)
    else if (failure === undefined) this.reportFault(error)
    return failure
  }

  private reportFault(error: unknown, job?: JobRecord): void {
    try {
      this.options.onError?.(error, job)
    } catch {
      // A failing logger must not stop the runner.
    }
  }

  /** One wake once the disk has room again. After the held writes: they resume first (setImmediate), so no job runs twice. */
  private resumeWhenSpaceIsBack(): void {
    if (this.waitingForSpace) return
    this.waitingForSpace = true
    void this.diskFull.whenSpaceIsBack(this.stopController.signal).then(() =>
      setImmediate(() => {
        this.waitingForSpace = false
        this.wake()
      }),
    )
  }

  private scheduleNextRetry(): void {
    const next = this.options.jobs.nextRunAfter()
    if (next === undefined) return
    const delay = Math.max(0, next - this.now())
    if (delay === 0) return
    this.retryTimer = setTimeout(() => this.wake(), Math.min(delay, 2 ** 31 - 1))
    this.retryTimer.unref()
  }

  private run(job: JobRecord): void {
    const controller = new AbortController()
    const timeout = AbortSignal.timeout(this.timeoutMs)
    const signal = AbortSignal.any([controller.signal, timeout, this.stopController.signal])
    try {
      this.options.onJobStarted?.(job)
    } catch (error) {
      this.reportFault(error, job)
    }
    // execute() handles its own failures; the catch is the last net, so no rejection ever goes unhandled.
    const done = this.execute(job, signal, timeout)
      .catch((error: unknown) => this.reportFault(error, job))
      .finally(() => {
        this.running.delete(job.id)
        this.wake()
      })
    this.running.set(job.id, { controller, done })
  }

  private async execute(job: JobRecord, signal: AbortSignal, timeout: AbortSignal): Promise<void> {
    if (job.attempts > this.maxAttempts) {
      // Claimed more often than it may run: every run so far ended with its process (a crash,
      // a kill) before the job could end. Running it again would only do the same.
      const message = `The job was started ${this.maxAttempts} times and VoiceDesk stopped during each run (a crash or a kill); it is not tried again`
      await this.persist(job, () => this.end(() => this.options.jobs.fail(job.id, this.owner, 'CRASHED', message, this.timestamp()), job.id))
      return
    }
    const handler = this.options.handlers[job.type]
    let outcome: JobOutcome
    try {
      if (!handler) throw new JobError('UNSUPPORTED_JOB_TYPE', `This VoiceDesk cannot run ${job.type} jobs`)
      outcome = await handler(job, signal)
      signal.throwIfAborted()
    } catch (error) {
      await this.afterFailure(job, error, timeout)
      return
    }
    await this.persist(job, () => this.end(() => this.options.jobs.complete(job.id, this.owner, outcome, this.timestamp()), job.id))
  }

  private async afterFailure(job: JobRecord, error: unknown, timeout: AbortSignal): Promise<void> {
    const release = () => this.options.jobs.release(job.id, this.owner)
    if (this.stopController.signal.aborted) {
      // Shutdown, not failure: the job runs again on the next start.
      await this.persist(job, release)
      return
    }
    if (storageFailureOf(error) !== undefined) {
      // No room for the media (or the database was busy): not the job's fault. It goes back
      // to the queue uncounted and runs again once there is room.
      this.noteStorageFailure(error)
      await this.persist(job, release)
      return
    }
    const failure =
      timeout.aborted && !(error instanceof JobError)
        ? new JobError('TIMEOUT', `The job did not finish within ${Math.round(this.timeoutMs / 1000)} s`, true)
        : error instanceof JobError
          ? error
          : new JobError('INTERNAL', 'The job failed inside VoiceDesk; the service log has the details', true)
    if (!(error instanceof JobError)) this.reportFault(error, job)
    if (failure.retryable && job.attempts < this.maxAttempts) {
      const runAfter = this.now() + this.retryDelayMs * 4 ** (job.attempts - 1)
      await this.persist(job, () => this.options.jobs.retryLater(job.id, this.owner, runAfter, failure.code, failure.message))
    } else {
      await this.persist(job, () => this.end(() => this.options.jobs.fail(job.id, this.owner, failure.code, failure.message, this.timestamp()), job.id))
    }
  }

  /**
   * Writes what a run leads to. A full disk makes it wait for space, a busy database for
   * busyRetryMs, then it writes again; meanwhile the job stays leased to this runner and is
   * neither failed nor lost. Given up only on shutdown or a fault: the job then stays leased
   * and is taken again when the lease runs out, or at the next start.
   */
  private async persist(job: JobRecord, write: () => void): Promise<void> {
    for (;;) {
      try {
        write()
        return
      } catch (error) {
        const failure = this.noteStorageFailure(error)
        if (failure === undefined || this.stopController.signal.aborted) return
        if (failure === 'disk-full') await this.diskFull.whenSpaceIsBack(this.stopController.signal)
        else await sleep(this.busyRetryMs, undefined, { signal: this.stopController.signal, ref: false }).catch(() => undefined)
      }
    }
  }

  /**
   * Writes a job's end (when this runner still holds it) and what must commit with it, then
   * tells. A write that fails for the data folder (full, busy) throws, to be written again whole.
   */
  private end(write: () => boolean, id: string): void {
    const endWith = (hook: ((job: JobRecord) => void) | undefined) =>
      this.options.jobs.inTransaction(() => {
        if (!write()) return undefined
        const job = this.options.jobs.findById(id)!
        hook?.(job)
        return job
      })
    let ended: JobRecord | undefined
    try {
      ended = endWith(this.options.onJobEnding)
    } catch (error) {
      if (storageFailureOf(error) !== undefined) throw error
      // A failing hook is a bug elsewhere; the job must still end rather than run forever.
      this.reportFault(error, this.options.jobs.findById(id))
      ended = endWith(undefined)
    }
    if (!ended) return
    try {
      this.options.onJobEnded?.(ended)
    } catch (error) {
      this.reportFault(error, ended)
    }
  }
}
