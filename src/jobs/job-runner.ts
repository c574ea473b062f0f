import type { JobType } from '../shared/api/jobs'
import type { JobOutcome, JobRecord, JobsRepository } from '../store/jobs-repository'
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
  onError?: (error: unknown, job: JobRecord) => void
}

/**
 * Runs queued jobs in this process: woken at once when a job is queued, at most
 * `concurrency` at a time, each under a lease (so a job whose process died is taken again),
 * a time limit and a bounded number of attempts. `stop()` lets running jobs finish.
 */
export class JobRunner {
  private readonly owner = leaseOwnerName()
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>()
  private readonly stopController = new AbortController()
  private retryTimer: NodeJS.Timeout | undefined
  private started = false
  private stopping = false
  private readonly concurrency: number
  private readonly timeoutMs: number
  private readonly maxAttempts: number
  private readonly retryDelayMs: number
  private readonly now: () => number
  private readonly timestamp: () => string

  constructor(private readonly options: JobRunnerOptions) {
    this.concurrency = options.concurrency ?? 2
    this.timeoutMs = options.timeoutMs ?? 120_000
    this.maxAttempts = options.maxAttempts ?? 3
    this.retryDelayMs = options.retryDelayMs ?? 2_000
    this.now = options.now ?? Date.now
    this.timestamp = options.timestamp ?? (() => new Date().toISOString())
  }

  /** Takes back the jobs of dead runners on this host, then starts on the queue. */
  start(): void {
    if (this.started) return
    this.started = true
    for (const owner of this.options.jobs.pendingLeaseOwners()) {
      if (isDeadLeaseOwner(owner, this.owner)) this.options.jobs.releaseLeasesOf(owner)
    }
    this.wake()
  }

  /** Fills free slots from the queue. Cheap to call: the service calls it on every enqueue. */
  wake(): void {
    if (!this.started || this.stopping) return
    clearTimeout(this.retryTimer)
    this.retryTimer = undefined
    while (this.running.size < this.concurrency) {
      const now = this.now()
      const job = this.options.jobs.claimNext(this.owner, now, now + this.timeoutMs + 30_000)
      if (!job) break
      this.run(job)
    }
    if (this.running.size < this.concurrency) this.scheduleNextRetry()
  }

  /** Number of jobs running now. */
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
    this.options.onJobStarted?.(job)
    const done = this.execute(job, signal, timeout).finally(() => {
      this.running.delete(job.id)
      this.wake()
    })
    this.running.set(job.id, { controller, done })
  }

  private async execute(job: JobRecord, signal: AbortSignal, timeout: AbortSignal): Promise<void> {
    const handler = this.options.handlers[job.type]
    try {
      if (!handler) throw new JobError('UNSUPPORTED_JOB_TYPE', `This VoiceDesk cannot run ${job.type} jobs`)
      const outcome = await handler(job, signal)
      signal.throwIfAborted()
      this.end(() => this.options.jobs.complete(job.id, this.owner, outcome, this.timestamp()), job.id)
    } catch (error) {
      if (this.stopController.signal.aborted) {
        // Shutdown, not failure: the job runs again on the next start.
        this.options.jobs.release(job.id, this.owner)
        return
      }
      const failure =
        timeout.aborted && !(error instanceof JobError)
          ? new JobError('TIMEOUT', `The job did not finish within ${Math.round(this.timeoutMs / 1000)} s`, true)
          : error instanceof JobError
            ? error
            : new JobError('INTERNAL', 'The job failed inside VoiceDesk; the service log has the details', true)
      if (!(error instanceof JobError)) this.options.onError?.(error, job)
      if (failure.retryable && job.attempts < this.maxAttempts) {
        const runAfter = this.now() + this.retryDelayMs * 4 ** (job.attempts - 1)
        this.options.jobs.retryLater(job.id, this.owner, runAfter, failure.code, failure.message)
      } else {
        this.end(() => this.options.jobs.fail(job.id, this.owner, failure.code, failure.message, this.timestamp()), job.id)
      }
    }
  }

  /** Writes a job's end (when this runner still holds it) and what must commit with it, then tells. */
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
      // A failing hook is a bug elsewhere; the job must still end rather than run forever.
      const job = this.options.jobs.findById(id)
      if (job) this.options.onError?.(error, job)
      ended = endWith(undefined)
    }
    if (ended) this.options.onJobEnded?.(ended)
  }
}
