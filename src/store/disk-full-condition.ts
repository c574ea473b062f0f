import { statfsSync } from 'node:fs'
import { isDiskFull } from './storage-errors'

export interface DiskFullConditionOptions {
  /** The data folder, whose free space (statfs) tells when space is back. Left out: any check clears. */
  directory?: string
  /** Free bytes the disk needs before writes are tried again (default 8 MiB). */
  minFreeBytes?: number
  /** Free space is checked after `firstCheckMs`, then twice as late each time, up to `maxCheckMs`. */
  firstCheckMs?: number
  maxCheckMs?: number
  /** Once, when the condition begins (not per failed write). */
  onEnter?: (error: unknown) => void
  /** Once, when space is back. */
  onLeave?: () => void
  /** Free bytes of `directory`; statfs by default (tests pass their own). */
  freeBytes?: (directory: string) => number
}

/** Leaving and entering again within this time keeps the check's backoff: a disk that lies about its space is not hammered. */
const FLAP_WINDOW_MS = 60_000

function statfsFreeBytes(directory: string): number {
  const stats = statfsSync(directory)
  return stats.bavail * stats.bsize
}

/**
 * "The data folder's disk is full", as one shared state of a runtime: entered by the first
 * write that fails for want of space (SQLite or media), left by itself once the disk has
 * room again, checked on a backoff timer (no operator action, no busy loop). The runner and
 * the webhook sender wait for it instead of retrying every write; the service answers
 * writes 507 while it lasts. Each change is told once, so the log has one line per condition.
 */
export class DiskFullCondition {
  private full = false
  private timer: NodeJS.Timeout | undefined
  private checkMs: number
  private leftAt = Number.NEGATIVE_INFINITY
  private readonly waiters = new Set<() => void>()
  private readonly minFreeBytes: number
  private readonly firstCheckMs: number
  private readonly maxCheckMs: number

  constructor(private readonly options: DiskFullConditionOptions = {}) {
    this.minFreeBytes = options.minFreeBytes ?? 8 * 1024 * 1024
    this.firstCheckMs = options.firstCheckMs ?? 250
    this.maxCheckMs = options.maxCheckMs ?? 5_000
    this.checkMs = this.firstCheckMs
  }

  get isFull(): boolean {
    return this.full
  }

  /** Enters the condition when `error` means the disk is full; answers whether it does. */
  report(error: unknown): boolean {
    if (!isDiskFull(error)) return false
    if (this.full) return true
    this.full = true
    if (Date.now() - this.leftAt > FLAP_WINDOW_MS) this.checkMs = this.firstCheckMs
    try {
      this.options.onEnter?.(error)
    } finally {
      this.scheduleCheck()
    }
    return true
  }

  /** Resolves once space is back (at once when it never went), or when `signal` aborts. */
  whenSpaceIsBack(signal?: AbortSignal): Promise<void> {
    if (!this.full || signal?.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        this.waiters.delete(done)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      this.waiters.add(done)
      signal?.addEventListener('abort', done, { once: true })
    })
  }

  /** Checks the free space now; leaves the condition when there is enough. Answers whether it is still full. */
  check(): boolean {
    if (!this.full) return false
    let free = Number.POSITIVE_INFINITY
    if (this.options.directory !== undefined) {
      try {
        free = (this.options.freeBytes ?? statfsFreeBytes)(this.options.directory)
      } catch {
        // Cannot tell: let the writes try again and say for themselves.
      }
    }
    if (free < this.minFreeBytes) {
      this.checkMs = Math.min(this.checkMs * 2, this.maxCheckMs)
      this.scheduleCheck()
      return true
    }
    this.full = false
    this.leftAt = Date.now()
    this.checkMs = Math.min(this.checkMs * 2, this.maxCheckMs)
    clearTimeout(this.timer)
    this.timer = undefined
    try {
      this.options.onLeave?.()
    } finally {
      for (const waiter of [...this.waiters]) waiter()
    }
    return false
  }

  /** Stops checking and releases every waiter (the runtime is stopping). */
  close(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    for (const waiter of [...this.waiters]) waiter()
  }

  private scheduleCheck(): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.check(), this.checkMs)
    this.timer.unref()
  }
}
