import { setTimeout as sleep } from 'node:timers/promises'
import { DiskFullCondition } from '../store/disk-full-condition'
import { storageFailureOf } from '../store/storage-errors'
import { isDeadLeaseOwner, leaseOwnerName } from './lease-owner'

/** What a kind of leased work (jobs, webhook deliveries) tells the loop that runs it. */
export interface LeasedWork<T extends { id: string }> {
  /** Leases up to `free` items that are due at `now` to `owner`. */
  claim(owner: string, free: number, now: number): Promise<T[]>
  /** Does one claimed item, writing what it leads to with `loop.persist`. Its failures are its own: a rejection is a fault. */
  process(item: T, signal: AbortSignal): Promise<void>
  /**
   * When the next item falls due after `claimedAt`, the time the last claim looked at the queue (ms): the loop wakes then by
   * itself. It must count an item that fell due while that claim ran (a slow database), or nothing would wake for it.
   */
  nextDueAt(claimedAt: number): Promise<number | undefined>
  /** Owners that hold leases now, and a way to give back a dead owner's leases. */
  leaseOwners(): Promise<string[]>
  releaseLeasesOf(owner: string): Promise<unknown>
}

export interface LeasedWorkerLoopOptions {
  /** Items worked on at once. */
  concurrency: number
  /** The lease owner name; loops of one worker (the job runner's lanes) share one, so none takes another's leases for a dead owner's. */
  owner?: string
  now?: () => number
  /** The data folder's disk-full state, shared with the runtime: while it lasts nothing is claimed and writes wait for space. */
  diskFull?: DiskFullCondition
  /** Wait before a claim or write that found the database busy (another process) is tried again. */
  busyRetryMs?: number
  /** A fault of VoiceDesk, for the log (`item` when one is concerned). */
  onError?: (error: unknown, item?: { id: string }) => void
  /** Wake-ups from other processes or instances (the store's onWork); answers the unsubscribe function. */
  subscribe?: (wake: () => void) => () => void
}

/**
 * The loop every kind of leased work shares (the job runner, the webhook sender): woken when
 * work is queued (here or, through `subscribe`, elsewhere) and when the next item falls due,
 * it claims what fits in its free slots under a lease named for this process, works on each,
 * and on `stop` lets running items finish within a grace period before aborting them. Nothing
 * it does rejects or throws to its caller: a full disk or a busy database makes it wait and
 * try again, anything else goes to `onError`.
 */
export class LeasedWorkerLoop<T extends { id: string }> {
  readonly owner: string
  private readonly running = new Map<string, Promise<void>>()
  private readonly stopController = new AbortController()
  private timer: NodeJS.Timeout | undefined
  private claiming: Promise<void> | undefined
  private wakeAgain = false
  private wakeScheduled = false
  private waitingForSpace = false
  private started = false
  private stopping = false
  private unsubscribe: (() => void) | undefined
  private readonly now: () => number
  private readonly busyRetryMs: number
  readonly diskFull: DiskFullCondition

  constructor(
    private readonly work: LeasedWork<T>,
    private readonly options: LeasedWorkerLoopOptions,
  ) {
    this.owner = options.owner ?? leaseOwnerName()
    this.now = options.now ?? Date.now
    this.busyRetryMs = options.busyRetryMs ?? 1_000
    this.diskFull = options.diskFull ?? new DiskFullCondition()
  }

  /** Aborted when the loop stops for good: work in progress should give up and give its items back. */
  get stopSignal(): AbortSignal {
    return this.stopController.signal
  }

  /** Items being worked on (one whose write waits for disk space counts). */
  get active(): number {
    return this.running.size
  }

  get isStopping(): boolean {
    return this.stopping
  }

  /** Takes back the leases of dead owners on this host, then starts on what is due. Resolves once that first round is claimed. */
  async start(): Promise<void> {
    if (this.started) return
    this.started = true
    this.unsubscribe = this.options.subscribe?.(() => this.wake())
    try {
      for (const owner of await this.work.leaseOwners()) {
        if (isDeadLeaseOwner(owner, this.owner)) await this.work.releaseLeasesOf(owner)
      }
    } catch (error) {
      // A full disk or a busy database at start-up: dead owners' items come back when their leases run out.
      this.noteStorageFailure(error)
    }
    this.wake()
    await this.claiming
  }

  /** Fills free slots with due items. Cheap to call on every enqueue; a wake during a claim round claims again after it. Never throws. */
  wake(): void {
    if (!this.started || this.stopping) return
    if (this.claiming) {
      this.wakeAgain = true
      return
    }
    this.claiming = this.claimRound().finally(() => {
      this.claiming = undefined
      if (this.wakeAgain) {
        this.wakeAgain = false
        this.wake()
      }
    })
  }

  /** One wake for a burst of finished items, so free slots are claimed in one round. */
  wakeSoon(): void {
    if (this.wakeScheduled) return
    this.wakeScheduled = true
    setImmediate(() => {
      this.wakeScheduled = false
      this.wake()
    })
  }

  /**
   * Stops claiming and waits up to `graceMs` for items being worked on; then aborts `stopSignal`
   * so those still running give their items back, and waits for them.
   */
  async stop(graceMs: number): Promise<void> {
    if (this.stopping) return
    this.stopping = true
    this.unsubscribe?.()
    clearTimeout(this.timer)
    await this.claiming
    let graceTimer: NodeJS.Timeout | undefined
    const graceOver = new Promise<void>((resolve) => {
      graceTimer = setTimeout(resolve, graceMs)
    })
    await Promise.race([Promise.all(this.running.values()), graceOver])
    clearTimeout(graceTimer)
    this.stopController.abort()
    await Promise.all(this.running.values())
  }

  /**
   * Writes what working on an item led to. A full disk makes it wait for space, a busy database
   * for busyRetryMs, then it writes again; meanwhile the item stays leased to this loop and is
   * neither failed nor lost. Given up only on shutdown or a fault (answers false): the item
   * then stays leased and is claimed again when the lease runs out, or at the next start.
   */
  async persist(write: () => Promise<unknown>, item?: { id: string }): Promise<boolean> {
    for (;;) {
      try {
        await write()
        return true
      } catch (error) {
        const failure = this.noteStorageFailure(error, item)
        if (failure === undefined || this.stopController.signal.aborted) return false
        if (failure === 'disk-full') await this.diskFull.whenSpaceIsBack(this.stopController.signal)
        else await sleep(this.busyRetryMs, undefined, { signal: this.stopController.signal, ref: false }).catch(() => undefined)
      }
    }
  }

  /** Tells the disk-full condition, or the log (a fault); answers which storage failure it was. */
  noteStorageFailure(error: unknown, item?: { id: string }): 'disk-full' | 'busy' | undefined {
    const failure = storageFailureOf(error)
    if (failure === 'disk-full') this.diskFull.report(error)
    else if (failure === undefined) this.reportFault(error, item)
    return failure
  }

  reportFault(error: unknown, item?: { id: string }): void {
    try {
      this.options.onError?.(error, item)
    } catch {
      // A failing logger must not stop the loop.
    }
  }

  private async claimRound(): Promise<void> {
    if (this.diskFull.isFull) return this.resumeWhenSpaceIsBack()
    clearTimeout(this.timer)
    this.timer = undefined
    try {
      const free = this.options.concurrency - this.running.size
      const claimedAt = this.now()
      if (free > 0) {
        for (const item of await this.work.claim(this.owner, free, claimedAt)) this.begin(item)
      }
      if (this.running.size < this.options.concurrency && !this.stopping) await this.scheduleNextDue(claimedAt)
    } catch (error) {
      if (this.noteStorageFailure(error) === 'disk-full') return this.resumeWhenSpaceIsBack()
      // Busy, or a fault: try again a little later rather than leave the queue unattended.
      this.setTimer(this.busyRetryMs)
    }
  }

  private begin(item: T): void {
    // process() handles its own failures; the catch is the last net, so no rejection goes unhandled.
    const done = this.work
      .process(item, this.stopController.signal)
      .catch((error: unknown) => this.reportFault(error, item))
      .finally(() => {
        this.running.delete(item.id)
        this.wakeSoon()
      })
    this.running.set(item.id, done)
  }

  private async scheduleNextDue(claimedAt: number): Promise<void> {
    const next = await this.work.nextDueAt(claimedAt)
    if (next === undefined || this.stopping) return
    this.setTimer(Math.max(1, next - this.now()))
  }

  private setTimer(delayMs: number): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.wake(), Math.min(delayMs, 2 ** 31 - 1))
    this.timer.unref()
  }

  /** One wake once the disk has room again, after the held writes (they resume first, so nothing runs twice). */
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
}
