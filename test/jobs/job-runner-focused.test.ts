import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { JobError } from '../../src/jobs/job-error'
import { JobRunner, type JobHandler, type JobRunnerOptions } from '../../src/jobs/job-runner'
import type { StoreTransaction } from '../../src/store/ports'
import type { JobOutcome, JobRecord } from '../../src/store/records'
import { InMemoryJobs, jobFixture } from '../helpers/in-memory-leased-work'

/*
 * The job runner on a fake clock, over an in-memory double of the store's jobs and transactions
 * (test/helpers/in-memory-leased-work.ts; the store itself is covered by the store contract suite).
 */

const T0 = Date.parse('2026-03-01T12:00:00.000Z')
const OUTCOME: JobOutcome = { jobResponse: { ok: true }, usageSeconds: 1.5, totalCost: 3 }

/** Runs what is due now (setImmediate, zero-delay timers, promise chains) without moving the clock. */
async function settle(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await vi.advanceTimersByTimeAsync(0)
}

/** Moves the fake clock on by `ms`, then lets what that woke run. */
async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms)
  await settle()
}

/** A handler that works until its signal aborts, then rejects as handlers do (with the signal's reason). */
const untilAborted = (_job: unknown, signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as unknown), { once: true }))

const runners: JobRunner[] = []

function runnerOver(store: InMemoryJobs, options: Partial<JobRunnerOptions> = {}): JobRunner {
  const runner = new JobRunner({
    store: store.store,
    handlers: {},
    now: () => Date.now(),
    timestamp: () => new Date(Date.now()).toISOString(),
    retryDelayMs: 1_000,
    maxAttempts: 3,
    ...options,
  })
  runners.push(runner)
  return runner
}

describe('the job runner (fake clock, in-memory store)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(T0)
    // Node's AbortSignal.timeout runs on timers of its own, which the fake clock does not reach: here it follows the fake clock.
    vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
      const controller = new AbortController()
      setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms)
      return controller.signal
    })
  })

  afterEach(async () => {
    const stopping = runners.splice(0).map((runner) => runner.stop(0))
    await vi.advanceTimersByTimeAsync(1)
    await Promise.all(stopping)
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  it('tries a job again after retryDelayMs × 4^(n − 1), not before, and fails it after maxAttempts', async () => {
    const store = new InMemoryJobs()
    await store.jobs.insert(jobFixture({ id: 'job-1', runAfter: T0 }))
    const runsAt: number[] = []
    const onError = vi.fn()
    const runner = runnerOver(store, {
      onError,
      handlers: {
        TTS: async () => {
          runsAt.push(Date.now() - T0)
          throw new JobError('TTS_ENGINE_FAILED', 'The engine crashed', true)
        },
      },
    })
    await runner.start()
    await settle()
    expect(runsAt).toEqual([0])
    expect(store.get('job-1')).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      leaseOwner: null,
      runAfter: T0 + 1_000,
      errorCode: 'TTS_ENGINE_FAILED',
    })

    await advance(999)
    expect(runsAt).toEqual([0])
    await advance(1)
    expect(runsAt).toEqual([0, 1_000])
    // The second wait is 4 times the first.
    expect(store.get('job-1')).toMatchObject({ status: 'PENDING', attempts: 2, runAfter: T0 + 1_000 + 4_000 })

    await advance(3_999)
    expect(runsAt).toEqual([0, 1_000])
    await advance(1)
    expect(runsAt).toEqual([0, 1_000, 5_000])
    // The third try was the last: the job ends with the handler's failure.
    expect(store.get('job-1')).toMatchObject({
      status: 'FAILED',
      attempts: 3,
      leaseOwner: null,
      errorCode: 'TTS_ENGINE_FAILED',
      errorMessage: 'The engine crashed',
    })

    await advance(60 * 60_000)
    expect(runsAt).toHaveLength(3)
    expect(onError).not.toHaveBeenCalled()
  })

  it('ends a run with TIMEOUT after timeoutMs when the handler only stops when aborted', async () => {
    const store = new InMemoryJobs()
    await store.jobs.insert(jobFixture({ id: 'job-1', runAfter: T0 }))
    const signals: AbortSignal[] = []
    const handler = vi.fn<JobHandler>((job, signal) => {
      signals.push(signal)
      return untilAborted(job, signal)
    })
    const runner = runnerOver(store, { timeoutMs: 5_000, maxAttempts: 2, handlers: { TTS: handler } })
    await runner.start()
    await advance(4_999)
    expect(signals[0]!.aborted).toBe(false)
    expect(store.get('job-1')).toMatchObject({ status: 'PENDING', attempts: 1, leaseOwner: runner.owner, errorCode: null })
    await advance(1)
    expect(signals[0]!.aborted).toBe(true)
    expect(store.get('job-1')).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      leaseOwner: null,
      errorCode: 'TIMEOUT',
      runAfter: T0 + 5_000 + 1_000,
    })

    await advance(1_000)
    expect(handler).toHaveBeenCalledTimes(2)
    await advance(5_000)
    expect(store.get('job-1')).toMatchObject({
      status: 'FAILED',
      attempts: 2,
      errorCode: 'TIMEOUT',
      errorMessage: 'The job did not finish within 5 s',
    })
  })

  it('lets a job that reports progress outlive timeoutMs: each report renews its lease and its time limit', async () => {
    const store = new InMemoryJobs()
    await store.jobs.insert(jobFixture({ id: 'job-1', runAfter: T0 }))
    const seen: (number | undefined)[] = []
    let reports = 0
    const handler: JobHandler = async (job, signal, progress) => {
      // 30 s of work, a report every 4 s: never 5 s without a sign of life.
      for (let step = 1; step <= 7; step += 1) {
        await new Promise((resolve) => setTimeout(resolve, 4_000))
        signal.throwIfAborted()
        await progress.report(step / 7)
        reports += 1
      }
      return { jobResponse: { done: true }, usageSeconds: null, totalCost: 1 }
    }
    const runner = runnerOver(store, {
      timeoutMs: 5_000,
      leaseMarginMs: 1_000,
      handlers: { TTS: handler },
      onJobProgress: (_job, fraction) => seen.push(fraction),
    })
    await runner.start()
    await advance(8_000)
    // Renewed at the second report (T0 + 8 s): the lease now ends 5 s + 1 s later, and the progress is stored.
    expect(store.get('job-1')).toMatchObject({ status: 'PENDING', leaseExpiresAt: T0 + 8_000 + 6_000, progress: 2 / 7 })
    await advance(20_000)
    expect(reports).toBe(7)
    expect(store.get('job-1')).toMatchObject({ status: 'COMPLETED', attempts: 1 })
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7].map((step) => step / 7))
  })

  it('ends a job that stopped reporting with TIMEOUT "made no progress", and refuses a report once its lease was taken', async () => {
    const store = new InMemoryJobs()
    await store.jobs.insert(jobFixture({ id: 'job-1', runAfter: T0 }))
    const handler: JobHandler = async (job, signal, progress) => {
      await progress.report(0.1)
      return untilAborted(job, signal)
    }
    const runner = runnerOver(store, { timeoutMs: 5_000, maxAttempts: 1, handlers: { TTS: handler } })
    await runner.start()
    await advance(5_000)
    expect(store.get('job-1')).toMatchObject({ status: 'FAILED', errorCode: 'TIMEOUT', errorMessage: 'The job made no progress for 5 s' })

    await store.jobs.insert(jobFixture({ id: 'job-2', runAfter: T0 }))
    let refusal: unknown
    const lost = runnerOver(store, {
      timeoutMs: 5_000,
      handlers: {
        TTS: async (job, _signal, progress) => {
          Object.assign(store.rows.get(job.id)!, { leaseOwner: 'another-runner' })
          refusal = await progress.report(0.5).catch((error: unknown) => error)
          return { jobResponse: {}, usageSeconds: null, totalCost: 1 }
        },
      },
    })
    await lost.start()
    await advance(0)
    expect(String(refusal)).toMatch(/taken by another runner/)
    expect(store.get('job-2')).toMatchObject({ status: 'PENDING', leaseOwner: 'another-runner' })
  })

  it('ends a job CRASHED, without running it, when it is claimed more than maxAttempts times', async () => {
    const store = new InMemoryJobs()
    // Claimed three times already by runners that died during each run (their leases ran out).
    await store.jobs.insert(
      jobFixture({ id: 'crashed', attempts: 3, leaseOwner: 'gone:1:x', leaseExpiresAt: T0 - 1, runAfter: T0 - 60_000 }),
    )
    // Claimed twice so far: its third claim may still run.
    await store.jobs.insert(
      jobFixture({ id: 'last-try', attempts: 2, leaseOwner: 'gone:1:x', leaseExpiresAt: T0 - 1, runAfter: T0 - 60_000 }),
    )
    const handler = vi.fn<JobHandler>(async () => OUTCOME)
    const ended: JobRecord[] = []
    const runner = runnerOver(store, { handlers: { TTS: handler }, onJobEnded: (job) => ended.push(job) })
    await runner.start()
    await settle()
    expect(store.get('crashed')).toMatchObject({ status: 'FAILED', attempts: 4, errorCode: 'CRASHED', leaseOwner: null })
    expect(store.get('crashed').errorMessage).toMatch(/started 3 times/)
    expect(store.get('last-try')).toMatchObject({ status: 'COMPLETED', attempts: 3 })
    expect(handler.mock.calls.map(([job]) => job.id)).toEqual(['last-try'])
    expect(ended.map((job) => job.id).sort()).toEqual(['crashed', 'last-try'])
  })

  it('fails a job at once on a non-retryable JobError, whatever attempts remain', async () => {
    const store = new InMemoryJobs()
    await store.jobs.insert(jobFixture({ id: 'job-1', runAfter: T0 }))
    const handler = vi.fn<JobHandler>(async () => {
      throw new JobError('INVALID_TEXT_OR_VOICE', 'Nothing speakable')
    })
    const onError = vi.fn()
    const runner = runnerOver(store, { maxAttempts: 5, handlers: { TTS: handler }, onError })
    await runner.start()
    await settle()
    expect(store.get('job-1')).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      errorCode: 'INVALID_TEXT_OR_VOICE',
      errorMessage: 'Nothing speakable',
    })
    await advance(24 * 60 * 60_000)
    expect(handler).toHaveBeenCalledTimes(1)
    expect(onError).not.toHaveBeenCalled()
  })

  it('runs onJobEnding inside the transaction that ends the job, with the job as ended', async () => {
    const store = new InMemoryJobs()
    await store.jobs.insert(jobFixture({ id: 'job-1', runAfter: T0 }))
    const seen: { inTransaction: boolean; tx: StoreTransaction; job: JobRecord }[] = []
    const ended: JobRecord[] = []
    const runner = runnerOver(store, {
      handlers: { TTS: async () => OUTCOME },
      onJobEnding: async (tx, job) => void seen.push({ inTransaction: store.inTransaction, tx, job }),
      onJobEnded: (job) => ended.push(job),
    })
    await runner.start()
    await settle()
    expect(seen).toHaveLength(1)
    expect(seen[0]!.inTransaction).toBe(true)
    expect(seen[0]!.tx.jobs).toBe(store.jobs)
    expect(seen[0]!.job).toMatchObject({ id: 'job-1', status: 'COMPLETED', jobResponse: { ok: true }, totalCost: 3, leaseOwner: null })
    expect(ended).toEqual([seen[0]!.job])
  })

  it('still ends the job when onJobEnding throws, and reports the fault', async () => {
    const store = new InMemoryJobs()
    await store.jobs.insert(jobFixture({ id: 'job-1', runAfter: T0 }))
    const fault = new Error('the outbox is broken')
    const onJobEnding = vi.fn(async () => {
      throw fault
    })
    const onError = vi.fn()
    const ended: JobRecord[] = []
    const runner = runnerOver(store, { handlers: { TTS: async () => OUTCOME }, onJobEnding, onError, onJobEnded: (job) => ended.push(job) })
    await runner.start()
    await settle()
    expect(onJobEnding).toHaveBeenCalledTimes(1)
    expect(store.get('job-1')).toMatchObject({ status: 'COMPLETED', leaseOwner: null })
    expect(onError).toHaveBeenCalledWith(fault, expect.objectContaining({ id: 'job-1' }))
    expect(ended.map((job) => job.status)).toEqual(['COMPLETED'])
  })

  it('gives a running job back uncounted when stopped mid-job', async () => {
    const store = new InMemoryJobs()
    await store.jobs.insert(jobFixture({ id: 'job-1', runAfter: T0 }))
    const signals: AbortSignal[] = []
    const onJobEnded = vi.fn()
    const runner = runnerOver(store, {
      handlers: {
        TTS: (job, signal) => {
          signals.push(signal)
          return untilAborted(job, signal)
        },
      },
      onJobEnded,
    })
    await runner.start()
    await settle()
    expect(store.get('job-1')).toMatchObject({ attempts: 1, leaseOwner: runner.owner })
    let stopped = false
    const stopping = runner.stop(2_000).then(() => (stopped = true))
    await advance(1_999)
    expect(signals[0]!.aborted).toBe(false)
    expect(stopped).toBe(false)
    await advance(1)
    await stopping
    expect(signals[0]!.aborted).toBe(true)
    expect(store.get('job-1')).toMatchObject({ status: 'PENDING', attempts: 0, leaseOwner: null, errorCode: null, runAfter: T0 })
    expect(onJobEnded).not.toHaveBeenCalled()
  })
})
