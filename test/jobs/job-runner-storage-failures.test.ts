import BetterSqlite3 from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { JobError } from '../../src/jobs/job-error'
import { JobRunner } from '../../src/jobs/job-runner'
import { DiskFullCondition } from '../../src/store/disk-full-condition'
import type { JobOutcome, JobRecord } from '../../src/store/records'
import type { JobsRepository, StoreTransaction } from '../../src/store/ports'

const { SqliteError } = BetterSqlite3

/** Lets every pending callback run (the runner's own continuations are promises and setImmediate). */
const settle = async () => {
  for (let round = 0; round < 5; round += 1) await new Promise((resolve) => setImmediate(resolve))
}

function jobRecord(): JobRecord {
  return { id: 'job-1', type: 'TTS', status: 'PENDING', attempts: 1 } as JobRecord
}

/** A store double whose job writes fail with SQLITE_FULL while `full` is set: a data folder on a full disk. */
function failingJobs(job: JobRecord) {
  const calls = { claim: 0, complete: 0, fail: 0, retryLater: 0, release: 0 }
  const state = { full: false, claimable: [job] as JobRecord[], failClaims: false }
  const diskFull = () => new SqliteError('database or disk is full', 'SQLITE_FULL')
  const jobs = {
    pendingLeaseOwners: async () => [],
    releaseLeasesOf: async () => 0,
    nextRunAfter: async () => undefined,
    claimNext: async () => {
      calls.claim += 1
      if (state.failClaims) throw diskFull()
      return state.claimable.shift()
    },
    findById: async () => ({ ...job, status: 'COMPLETED' }),
    complete: async () => {
      calls.complete += 1
      if (state.full) throw diskFull()
      return { ...job, status: 'COMPLETED' }
    },
    fail: async () => {
      calls.fail += 1
      if (state.full) throw diskFull()
      return { ...job, status: 'FAILED' }
    },
    retryLater: async () => {
      calls.retryLater += 1
      if (state.full) throw diskFull()
      return true
    },
    release: async () => {
      calls.release += 1
      if (state.full) throw diskFull()
    },
  } as unknown as JobsRepository
  // The transaction of a double: its work sees the same repository.
  const store = { jobs, transaction: <T>(work: (tx: StoreTransaction) => Promise<T>) => work({ jobs } as StoreTransaction) }
  return { store, calls, state }
}

describe('the job runner on a full disk', () => {
  const rejections: unknown[] = []
  const onRejection = (reason: unknown) => rejections.push(reason)
  let free = 0
  let entered = 0
  let left = 0
  let diskFull: DiskFullCondition

  beforeEach(() => {
    rejections.length = 0
    process.on('unhandledRejection', onRejection)
    free = 0
    entered = 0
    left = 0
    // No timer of its own in these tests (the first check would be in 11 days): space is checked by direct calls.
    diskFull = new DiskFullCondition({
      directory: '/data',
      freeBytes: () => free,
      firstCheckMs: 1e9,
      onEnter: () => (entered += 1),
      onLeave: () => (left += 1),
    })
  })
  afterEach(() => {
    process.off('unhandledRejection', onRejection)
    diskFull.close()
  })

  it('keeps a job whose end cannot be written leased, then writes the end once space is back', async () => {
    const job = jobRecord()
    const { store, calls, state } = failingJobs(job)
    state.full = true
    const ended: JobRecord[] = []
    const errors: unknown[] = []
    const outcome: JobOutcome = { jobResponse: {}, usageSeconds: 1, totalCost: 1 }
    const runner = new JobRunner({
      store,
      handlers: { TTS: async () => outcome },
      diskFull,
      onJobEnded: (endedJob) => ended.push(endedJob),
      onError: (error) => errors.push(error),
    })
    await runner.start()
    await settle()

    expect(rejections).toEqual([])
    expect(calls.complete).toBe(1) // tried once, then waits for space: no retry loop
    expect(calls.fail + calls.retryLater).toBe(0) // not failed, not put back as a failure
    expect(runner.activeJobs).toBe(1) // still held (leased) by this runner
    expect(diskFull.isFull).toBe(true)
    expect(entered).toBe(1)
    expect(errors).toEqual([]) // a full disk is a condition, not a fault per write

    // Still full at the next check: nothing is tried.
    expect(diskFull.check()).toBe(true)
    await settle()
    expect(calls.complete).toBe(1)

    state.full = false
    free = 1e9
    expect(diskFull.check()).toBe(false)
    await settle()
    expect(calls.complete).toBe(2)
    expect(ended.map((endedJob) => endedJob.id)).toEqual(['job-1'])
    expect(runner.activeJobs).toBe(0)
    expect([entered, left]).toEqual([1, 1])
    expect(rejections).toEqual([])
    await runner.stop(0)
  })

  it('gives a job whose media could not be written (ENOSPC) back uncounted, and takes no job while the disk is full', async () => {
    const job = jobRecord()
    const { store, calls, state } = failingJobs(job)
    const noSpace = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    let runs = 0
    const runner = new JobRunner({
      store,
      handlers: {
        TTS: async () => {
          runs += 1
          throw noSpace
        },
      },
      diskFull,
    })
    await runner.start()
    await settle()
    expect(runs).toBe(1)
    expect(calls.release).toBe(1)
    expect(calls.fail + calls.retryLater).toBe(0)
    expect(diskFull.isFull).toBe(true)

    // A job queued while full waits: wake() takes nothing.
    state.claimable.push(job)
    const claimsBefore = calls.claim
    runner.wake()
    await settle()
    expect(calls.claim).toBe(claimsBefore)
    expect(rejections).toEqual([])
    await runner.stop(0)
  })

  it('never throws from wake() nor rejects when claiming fails with SQLITE_FULL or a fault', async () => {
    const { store, state } = failingJobs(jobRecord())
    state.failClaims = true
    const runner = new JobRunner({ store, handlers: {}, diskFull })
    await expect(runner.start()).resolves.toBeUndefined()
    expect(() => runner.wake()).not.toThrow()
    expect(diskFull.isFull).toBe(true)
    await settle()
    expect(rejections).toEqual([])
    await runner.stop(0)
  })

  it('still fails a job for its own reasons when the disk is fine', async () => {
    const { store, calls } = failingJobs(jobRecord())
    const runner = new JobRunner({
      store,
      handlers: {
        TTS: async () => {
          throw new JobError('INVALID_TEXT_OR_VOICE', 'nothing to say')
        },
      },
      diskFull,
    })
    await runner.start()
    await settle()
    expect(calls.fail).toBe(1)
    expect(diskFull.isFull).toBe(false)
    await runner.stop(0)
  })
})
