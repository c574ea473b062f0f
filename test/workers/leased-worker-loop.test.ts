import { spawnSync } from 'node:child_process'
import { hostname } from 'node:os'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DiskFullCondition } from '../../src/store/disk-full-condition'
import { LeasedWorkerLoop, type LeasedWork, type LeasedWorkerLoopOptions } from '../../src/workers/leased-worker-loop'
import { deferred, storageError, type Deferred } from '../helpers/in-memory-leased-work'

interface Item {
  id: string
}

interface Row {
  id: string
  dueAt: number
  owner: string | null
  leaseUntil: number | null
  done: boolean
}

const LEASE_MS = 60_000

/**
 * A double of the store's leased queue for focused tests of the loop: rows with a due time and
 * a lease, claimed the way the repositories claim them (due, not leased or lease run out). The
 * store itself is covered by the store contract suite. Each item's work waits until the test
 * calls `finish(id)`, unless the test gives `work` of its own.
 */
class FakeQueue implements LeasedWork<Item> {
  readonly rows = new Map<string, Row>()
  readonly claims: { free: number; now: number; ids: string[] }[] = []
  readonly released: string[] = []
  /** Thrown by the next claims (one each), before anything is leased. */
  readonly claimErrors: Error[] = []
  /** When set, a claim picks its rows, then waits for this before leasing them. */
  claimGate: Deferred<void> | undefined
  running = 0
  maxRunning = 0
  readonly signals = new Map<string, AbortSignal>()
  private readonly gates = new Map<string, Deferred<void>>()
  work: (item: Item, signal: AbortSignal) => Promise<void> = (item, signal) =>
    // Done when the test says so; on shutdown it gives up (its item stays leased, not done).
    Promise.race([
      this.gate(item.id).promise,
      new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true })),
    ])

  add(id: string, dueAt = Date.now(), lease?: { owner: string; until: number }): void {
    this.rows.set(id, { id, dueAt, owner: lease?.owner ?? null, leaseUntil: lease?.until ?? null, done: false })
  }

  finish(id: string): void {
    this.gate(id).resolve()
  }

  async claim(owner: string, free: number, now: number): Promise<Item[]> {
    const error = this.claimErrors.shift()
    if (error !== undefined) throw error
    const due = [...this.rows.values()]
      .filter((row) => !row.done && row.dueAt <= now && (row.owner === null || row.leaseUntil! < now))
      .slice(0, free)
    if (this.claimGate) await this.claimGate.promise
    for (const row of due) Object.assign(row, { owner, leaseUntil: now + LEASE_MS })
    this.claims.push({ free, now, ids: due.map((row) => row.id) })
    return due.map((row) => ({ id: row.id }))
  }

  async process(item: Item, signal: AbortSignal): Promise<void> {
    this.running += 1
    this.maxRunning = Math.max(this.maxRunning, this.running)
    this.signals.set(item.id, signal)
    try {
      await this.work(item, signal)
      this.rows.get(item.id)!.done = true
    } finally {
      this.running -= 1
    }
  }

  async nextDueAt(): Promise<number | undefined> {
    const due = [...this.rows.values()]
      .filter((row) => !row.done)
      .map((row) => (row.owner === null ? row.dueAt : Math.max(row.dueAt, row.leaseUntil! + 1)))
    return due.length === 0 ? undefined : Math.min(...due)
  }

  async leaseOwners(): Promise<string[]> {
    return [...new Set([...this.rows.values()].flatMap((row) => (!row.done && row.owner !== null ? [row.owner] : [])))]
  }

  async releaseLeasesOf(owner: string): Promise<number> {
    this.released.push(owner)
    const held = [...this.rows.values()].filter((row) => !row.done && row.owner === owner)
    for (const row of held) Object.assign(row, { owner: null, leaseUntil: null })
    return held.length
  }

  claimedIds(): string[] {
    return this.claims.flatMap((claim) => claim.ids)
  }

  private gate(id: string): Deferred<void> {
    let gate = this.gates.get(id)
    if (!gate) this.gates.set(id, (gate = deferred()))
    return gate
  }
}

/** Runs what is due now (setImmediate, zero-delay timers, promise chains) without moving the clock. */
async function settle(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await vi.advanceTimersByTimeAsync(0)
}

const loops: LeasedWorkerLoop<Item>[] = []

function loopOver(queue: FakeQueue, options: Partial<LeasedWorkerLoopOptions> = {}): LeasedWorkerLoop<Item> {
  const loop = new LeasedWorkerLoop(queue, { concurrency: 2, now: () => Date.now(), busyRetryMs: 700, ...options })
  loops.push(loop)
  return loop
}

describe('the leased-worker loop (fake clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-03-01T12:00:00.000Z'))
  })

  afterEach(async () => {
    const stopping = loops.splice(0).map((loop) => loop.stop(0))
    await vi.runAllTimersAsync()
    await Promise.all(stopping)
    vi.useRealTimers()
  })

  it('never works on more items than its concurrency, however often it is woken', async () => {
    const queue = new FakeQueue()
    for (let index = 0; index < 10; index += 1) queue.add(`item-${index}`)
    // Each item takes 10, 20 or 30 ms of the fake clock.
    queue.work = async (item) => {
      await new Promise((resolve) => setTimeout(resolve, 10 * ((Number(item.id.split('-')[1]) % 3) + 1)))
    }
    const loop = loopOver(queue, { concurrency: 3 })
    await loop.start()
    expect(queue.running).toBe(3)
    for (let step = 0; step < 40; step += 1) {
      loop.wake()
      loop.wake()
      await vi.advanceTimersByTimeAsync(5)
      expect(queue.running).toBeLessThanOrEqual(3)
      expect(loop.active).toBeLessThanOrEqual(3)
    }
    expect(queue.maxRunning).toBe(3)
    expect([...queue.rows.values()].every((row) => row.done)).toBe(true)
    expect(new Set(queue.claimedIds()).size).toBe(10)
    // No claim ever asked for more than the free slots.
    expect(queue.claims.every((claim) => claim.free >= 1 && claim.free <= 3)).toBe(true)
  })

  it('claims again after a round when woken during it, without waiting for any timer', async () => {
    const queue = new FakeQueue()
    queue.add('first')
    const loop = loopOver(queue)
    queue.claimGate = deferred()
    const started = loop.start()
    await settle()
    // The round picked 'first' and waits; work queued now was not in its pick.
    queue.add('second')
    loop.wake()
    queue.claimGate.resolve()
    queue.claimGate = undefined
    await started
    await settle()
    expect(queue.claims.map((claim) => claim.ids)).toEqual([['first'], ['second']])
    expect(loop.active).toBe(2)
    expect(queue.claims.every((claim) => claim.now === queue.claims[0]!.now)).toBe(true)
  })

  it('wakes itself when the next item falls due, and not before', async () => {
    const queue = new FakeQueue()
    const dueAt = Date.now() + 5_000
    queue.add('later', dueAt)
    const loop = loopOver(queue)
    await loop.start()
    expect(queue.claims).toHaveLength(1)
    expect(queue.claimedIds()).toEqual([])
    await vi.advanceTimersByTimeAsync(4_999)
    expect(queue.claims).toHaveLength(1)
    expect(loop.active).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(queue.claims).toHaveLength(2)
    expect(queue.claims[1]).toEqual({ free: 2, now: dueAt, ids: ['later'] })
    expect(loop.active).toBe(1)
  })

  it('claims an item that fell due while a slow claim ran (the job repository counts only items due after the claim looked)', async () => {
    // Like the job repository: items due by `after` that a claim left wait for a free slot, so they are not counted.
    class JobLikeQueue extends FakeQueue {
      override async nextDueAt(after = Number.NEGATIVE_INFINITY): Promise<number | undefined> {
        const later = [...this.rows.values()].filter((row) => !row.done && row.owner === null && row.dueAt > after)
        return later.length === 0 ? undefined : Math.min(...later.map((row) => row.dueAt))
      }
    }
    const queue = new JobLikeQueue()
    const dueAt = Date.now() + 300
    queue.add('soon', dueAt)
    const loop = loopOver(queue)
    queue.claimGate = deferred()
    const started = loop.start()
    await settle()
    // The claim looked before 'soon' was due, and a busy database holds it past that time.
    await vi.advanceTimersByTimeAsync(500)
    queue.claimGate.resolve()
    queue.claimGate = undefined
    await started
    await vi.advanceTimersByTimeAsync(1)
    expect(queue.claimedIds()).toEqual(['soon'])
    expect(loop.active).toBe(1)
  })

  it('tries a claim that found the database busy again after busyRetryMs, and does not report it as a fault', async () => {
    const queue = new FakeQueue()
    queue.add('a')
    queue.claimErrors.push(storageError('SQLITE_BUSY'))
    const onError = vi.fn()
    const loop = loopOver(queue, { onError })
    await loop.start()
    expect(queue.claims).toHaveLength(0) // the busy claim leased nothing
    await vi.advanceTimersByTimeAsync(699)
    expect(queue.claims).toHaveLength(0)
    expect(loop.active).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(queue.claimedIds()).toEqual(['a'])
    expect(loop.active).toBe(1)
    expect(onError).not.toHaveBeenCalled()
  })

  it('claims nothing while the disk is full, and claims again once the condition says space is back', async () => {
    let free = 0
    const onEnter = vi.fn()
    const onLeave = vi.fn()
    const diskFull = new DiskFullCondition({
      directory: '/data',
      freeBytes: () => free,
      minFreeBytes: 100,
      firstCheckMs: 250,
      maxCheckMs: 1_000,
      onEnter,
      onLeave,
    })
    const queue = new FakeQueue()
    queue.add('a')
    queue.claimErrors.push(storageError('SQLITE_FULL'))
    const onError = vi.fn()
    const loop = loopOver(queue, { diskFull, onError })
    const claim = vi.spyOn(queue, 'claim')
    await loop.start()
    expect(diskFull.isFull).toBe(true)
    expect(onEnter).toHaveBeenCalledTimes(1)
    expect(claim).toHaveBeenCalledTimes(1)
    // Woken, and long past busyRetryMs: still no claim while the disk has no room.
    for (let step = 0; step < 10; step += 1) {
      loop.wake()
      await vi.advanceTimersByTimeAsync(1_000)
    }
    expect(claim).toHaveBeenCalledTimes(1)
    expect(loop.active).toBe(0)
    free = 1_000
    await vi.advanceTimersByTimeAsync(1_000) // the next check of the free space
    await settle()
    expect(onLeave).toHaveBeenCalledTimes(1)
    expect(claim).toHaveBeenCalledTimes(2)
    expect(queue.claimedIds()).toEqual(['a'])
    expect(onError).not.toHaveBeenCalled()
  })

  it('stop(grace) claims no more, waits up to grace for running items, then aborts the stop signal', async () => {
    const queue = new FakeQueue()
    queue.add('quick')
    queue.add('stubborn')
    const gaveBack: string[] = []
    queue.work = async (item, signal) => {
      if (item.id === 'quick') return new Promise((resolve) => setTimeout(resolve, 300))
      // Works until told to stop, then gives its item back.
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
      gaveBack.push(item.id)
      throw new Error('stopped')
    }
    const onError = vi.fn()
    const loop = loopOver(queue, { onError })
    await loop.start()
    expect(loop.active).toBe(2)
    let stopped = false
    const stopping = loop.stop(1_000).then(() => (stopped = true))
    queue.add('queued meanwhile')
    loop.wake()
    await vi.advanceTimersByTimeAsync(300)
    expect(loop.active).toBe(1)
    expect(queue.rows.get('quick')!.done).toBe(true)
    await vi.advanceTimersByTimeAsync(699)
    expect(loop.stopSignal.aborted).toBe(false)
    expect(queue.signals.get('stubborn')!.aborted).toBe(false)
    expect(stopped).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(loop.stopSignal.aborted).toBe(true)
    await stopping
    expect(gaveBack).toEqual(['stubborn'])
    expect(loop.active).toBe(0)
    expect(queue.claimedIds()).not.toContain('queued meanwhile')
  })

  it('stop(grace) ends as soon as the running items finished', async () => {
    const queue = new FakeQueue()
    queue.add('a')
    const loop = loopOver(queue)
    await loop.start()
    let stopped = false
    const stopping = loop.stop(10_000).then(() => (stopped = true))
    await vi.advanceTimersByTimeAsync(100)
    expect(stopped).toBe(false)
    queue.finish('a')
    await settle()
    expect(stopped).toBe(true)
    await stopping
  })

  it('reports a rejected process() to onError with its item, and goes on working', async () => {
    const queue = new FakeQueue()
    queue.add('bad')
    const failure = new Error('bug in process')
    queue.work = async (item) => {
      if (item.id === 'bad') throw failure
    }
    const onError = vi.fn()
    const loop = loopOver(queue, { onError })
    await loop.start()
    await settle()
    expect(onError).toHaveBeenCalledWith(failure, { id: 'bad' })
    expect(loop.active).toBe(0)
    queue.add('good')
    loop.wake()
    await settle()
    expect(queue.rows.get('good')!.done).toBe(true)
    expect(onError).toHaveBeenCalledTimes(1)
  })

  it('start() takes back the leases of dead owners on this host only', async () => {
    // A pid that was alive a moment ago and is gone now.
    const child = spawnSync(process.execPath, ['-e', ''])
    const deadPid = child.pid
    expect(() => process.kill(deadPid, 0)).toThrow()
    const until = Date.now() + LEASE_MS
    const owners = {
      deadHere: `${hostname()}:${deadPid}:x`,
      earlierInThisProcess: `${hostname()}:${process.pid}:earlier`,
      aliveHere: `${hostname()}:${process.ppid}:x`,
      elsewhere: `another-host.example:${deadPid}:x`,
    }
    const queue = new FakeQueue()
    for (const [name, owner] of Object.entries(owners)) queue.add(name, Date.now(), { owner, until })
    const loop = loopOver(queue, { concurrency: 10 })
    await loop.start()
    expect(queue.released.sort()).toEqual([owners.deadHere, owners.earlierInThisProcess].sort())
    // Their items were claimed at once; the others stay with their owners until the leases run out.
    expect(queue.claimedIds().sort()).toEqual(['deadHere', 'earlierInThisProcess'])
    expect(queue.rows.get('aliveHere')!.owner).toBe(owners.aliveHere)
    expect(queue.rows.get('elsewhere')!.owner).toBe(owners.elsewhere)
  })

  it('is woken by its subscription (work queued elsewhere), and unsubscribes on stop', async () => {
    let wakeFromElsewhere: (() => void) | undefined
    const unsubscribe = vi.fn()
    const queue = new FakeQueue()
    const loop = loopOver(queue, {
      subscribe: (wake) => {
        wakeFromElsewhere = wake
        return unsubscribe
      },
    })
    await loop.start()
    expect(queue.claims).toHaveLength(1)
    queue.add('from another process')
    wakeFromElsewhere!()
    await settle()
    expect(queue.claimedIds()).toEqual(['from another process'])
    const stopping = loop.stop(0)
    await settle()
    await stopping
    expect(unsubscribe).toHaveBeenCalledTimes(1)
  })
})

/*
 * persist() waits with node:timers/promises, whose named import the fake clock does not reach
 * (Node's built-in modules bind their exports once), so these run on the real clock with short waits.
 */
describe("the leased-worker loop's persist (real clock)", () => {
  afterEach(async () => {
    await Promise.all(loops.splice(0).map((loop) => loop.stop(0)))
  })

  it('writes again after busyRetryMs while the database is busy, then answers true', async () => {
    const loop = loopOver(new FakeQueue(), { busyRetryMs: 40 })
    await loop.start()
    const writesAt: number[] = []
    const write = vi.fn(async () => {
      writesAt.push(performance.now())
      if (writesAt.length <= 2) throw storageError('SQLITE_BUSY')
    })
    await expect(loop.persist(write, { id: 'x' })).resolves.toBe(true)
    expect(write).toHaveBeenCalledTimes(3)
    // Each write after a busy one waited busyRetryMs (less a millisecond of timer rounding).
    expect(writesAt[1]! - writesAt[0]!).toBeGreaterThanOrEqual(39)
    expect(writesAt[2]! - writesAt[1]!).toBeGreaterThanOrEqual(39)
  })

  it('gives up (answers false) once the loop is stopped, without sitting out the busy wait, and writes no more', async () => {
    const onError = vi.fn()
    const loop = loopOver(new FakeQueue(), { busyRetryMs: 60_000, onError })
    await loop.start()
    const write = vi.fn(async () => {
      throw storageError('SQLITE_BUSY')
    })
    const persisted = loop.persist(write)
    await vi.waitFor(() => expect(write).toHaveBeenCalledTimes(1))
    const stoppedAt = performance.now()
    await loop.stop(0)
    await expect(persisted).resolves.toBe(false)
    expect(performance.now() - stoppedAt).toBeLessThan(5_000)
    const writes = write.mock.calls.length
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(write).toHaveBeenCalledTimes(writes)
    expect(onError).not.toHaveBeenCalled()
  })

  it('gives up on a write that waits for disk space once the loop is stopped', async () => {
    const diskFull = new DiskFullCondition({ directory: '/data', freeBytes: () => 0, firstCheckMs: 60_000 })
    const loop = loopOver(new FakeQueue(), { diskFull })
    await loop.start()
    const write = vi.fn(async () => {
      throw storageError('SQLITE_FULL')
    })
    const persisted = loop.persist(write)
    await vi.waitFor(() => expect(diskFull.isFull).toBe(true))
    await loop.stop(0)
    await expect(persisted).resolves.toBe(false)
    diskFull.close()
  })

  it('answers false at once for a fault, and reports it', async () => {
    const onError = vi.fn()
    const loop = loopOver(new FakeQueue(), { onError })
    await loop.start()
    const fault = new Error('constraint failed')
    await expect(loop.persist(() => Promise.reject(fault), { id: 'x' })).resolves.toBe(false)
    expect(onError).toHaveBeenCalledWith(fault, { id: 'x' })
  })
})
