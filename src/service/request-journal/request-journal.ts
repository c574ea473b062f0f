import { performance } from 'node:perf_hooks'
import type { JournalEntry, JournalFilter, JournalRecord, RequestJournalStore } from '../../store/request-journal'

/** Retention and batching of the journal; RuntimeConfig.journal gives them, these are the defaults. */
export interface RequestJournalSettings {
  /** Entries kept at most (default 50,000); the oldest go first. */
  maxEntries: number
  /** Days an entry is kept (default 7). */
  maxAgeDays: number
  /** How often queued entries are written (default 250 ms). */
  flushMs: number
  /** Entries written per transaction (default 500); a fuller queue is written at once. */
  batchSize: number
  /** Entries waiting in memory at most (default 10,000): when the disk falls behind, the oldest are dropped and counted. */
  maxQueued: number
  /** How often retention runs besides after large batches (default 60 s). */
  pruneMs: number
}

/**
 * What the capture queues: an entry, or what to build one from (references taken as the
 * answer went out: redacting, cutting and copying wait for the batch, off the request path).
 */
export type QueuedEntry = JournalRecord | { build(): JournalRecord }

/** The share of the last flush interval the event loop was busy under which the journal indexes what it wrote. */
const IDLE_UTILIZATION = 0.5
/** The most one idle tick spends indexing. */
const IDLE_INDEX_BUDGET_MS = 20

export const DEFAULT_JOURNAL_SETTINGS: RequestJournalSettings = {
  maxEntries: 50_000,
  maxAgeDays: 7,
  flushMs: 250,
  batchSize: 500,
  maxQueued: 10_000,
  pruneMs: 60_000,
}

const DAY_MS = 24 * 60 * 60 * 1000

export interface RequestJournalOptions {
  store: RequestJournalStore
  settings?: Partial<RequestJournalSettings>
  /** The clock entries are stamped and aged by; the system's when not given (read then as Date.now, no Date per request). */
  now?: () => Date
  onError: (error: unknown, what: string) => void
}

/**
 * The journal's writer and reader. An answered request queues references to what it was
 * (see QueuedEntry); a timer builds the queue's entries (redacted) and appends them in
 * batches, each one row in one transaction on the journal's own connection. The per-entry
 * index lists filter on is built later: before every read, and when the service is idle, so
 * sustained load pays only the append. A write that fails keeps its entries for the next
 * try; a queue over its bound drops its oldest (counted), so requests never wait for the
 * journal's disk.
 */
export class RequestJournal {
  readonly settings: RequestJournalSettings
  private queue: QueuedEntry[] = []
  /** Built entries a failed write left, written first next time. */
  private unwritten: JournalRecord[] = []
  /** Whether batches were written that are not indexed yet. */
  private indexPending = true
  private utilization = performance.eventLoopUtilization()
  private droppedCount = 0
  private writtenSincePrune = 0
  private readonly flushTimer: NodeJS.Timeout
  private readonly pruneTimer: NodeJS.Timeout
  private closed = false
  /** The runtime's clock: entries are stamped and aged by it. */
  readonly now: () => Date
  /** `now()` in milliseconds, without a Date when the clock allows: each answered request reads it. */
  readonly nowMs: () => number

  constructor(private readonly options: RequestJournalOptions) {
    this.settings = {
      ...DEFAULT_JOURNAL_SETTINGS,
      ...Object.fromEntries(Object.entries(options.settings ?? {}).filter(([, value]) => value !== undefined)),
    }
    for (const [name, value] of Object.entries(this.settings)) {
      const least = name === 'maxEntries' || name === 'maxAgeDays' ? 0 : 1
      if (typeof value !== 'number' || !Number.isFinite(value) || value < least)
        throw new Error(`RuntimeConfig.journal.${name} must be a number of at least ${least}, not ${String(value)}`)
    }
    this.now = options.now ?? (() => new Date())
    this.nowMs = options.now ? () => this.now().getTime() : Date.now
    this.flushTimer = setInterval(() => this.tick(), this.settings.flushMs)
    this.flushTimer.unref()
    this.pruneTimer = setInterval(() => this.prune(), this.settings.pruneMs)
    this.pruneTimer.unref()
    this.prune()
  }

  private readonly writtenListeners = new Set<() => void>()

  /**
   * Calls `listener` after each write that added entries (at most every `flushMs` under
   * load): the operator UI's live list refreshes on it. Answers the unsubscribe.
   */
  onWritten(listener: () => void): () => void {
    this.writtenListeners.add(listener)
    return () => this.writtenListeners.delete(listener)
  }

  private announceWritten(): void {
    for (const listener of this.writtenListeners) {
      try {
        listener()
      } catch (error) {
        this.options.onError(error, 'telling a listener of new journal entries')
      }
    }
  }

  /** Entries dropped since start because the queue was full (the disk fell behind). */
  get dropped(): number {
    return this.droppedCount
  }

  /** Queues an entry (or what to build it from); never blocks, never throws. */
  record(entry: QueuedEntry): void {
    if (this.closed) return
    this.queue.push(entry)
    if (this.queue.length + this.unwritten.length > this.settings.maxQueued) this.dropOldest()
    if (this.queue.length >= this.settings.batchSize) setImmediate(() => this.flush())
  }

  private dropOldest(): void {
    if (this.unwritten.length > 0) this.unwritten.shift()
    else this.queue.shift()
    this.droppedCount += 1
  }

  /** Each flush interval: writes the queue; when the event loop was mostly idle meanwhile, indexes some of what was written. */
  private tick(): void {
    this.flush()
    const since = performance.eventLoopUtilization(this.utilization)
    this.utilization = performance.eventLoopUtilization()
    if (this.indexPending && since.utilization < IDLE_UTILIZATION) this.index(IDLE_INDEX_BUDGET_MS)
  }

  private index(budgetMs?: number): void {
    if (this.closed) return
    try {
      this.indexPending = !this.options.store.indexPending(budgetMs)
    } catch (error) {
      this.options.onError(error, 'indexing the request journal')
    }
  }

  /** Builds the queued entries; one that cannot be built is reported and left out. */
  private built(queued: QueuedEntry[]): JournalRecord[] {
    const records: JournalRecord[] = []
    for (const entry of queued) {
      if (!('build' in entry)) records.push(entry)
      else {
        try {
          records.push(entry.build())
        } catch (error) {
          this.options.onError(error, 'making a request journal entry')
        }
      }
    }
    return records
  }

  /** Writes everything queued now, in batches. Also called before every read, so a reader sees the requests answered before it. */
  flush(): void {
    if (this.closed || (this.queue.length === 0 && this.unwritten.length === 0)) return
    const fresh = this.built(this.queue)
    const built = this.unwritten.length === 0 ? fresh : [...this.unwritten, ...fresh]
    this.queue = []
    this.unwritten = []
    for (let start = 0; start < built.length; start += this.settings.batchSize) {
      const batch = built.slice(start, start + this.settings.batchSize)
      try {
        this.options.store.append(batch)
        this.indexPending = true
        this.writtenSincePrune += batch.length
      } catch (error) {
        // The disk is full or the file busy: kept for the next flush, within the queue's bound.
        this.unwritten = built.slice(start)
        while (this.unwritten.length + this.queue.length > this.settings.maxQueued) this.dropOldest()
        this.options.onError(error, 'writing the request journal')
        return
      }
    }
    if (this.writtenSincePrune >= Math.max(this.settings.batchSize, this.settings.maxEntries / 10)) this.prune()
    if (built.length > 0) this.announceWritten()
  }

  /** Deletes entries over the count or older than the age (in batches), and the bodies only they referred to. */
  prune(): number {
    if (this.closed) return 0
    this.writtenSincePrune = 0
    try {
      return this.options.store.prune({
        maxEntries: this.settings.maxEntries,
        startedBefore: new Date(this.now().getTime() - this.settings.maxAgeDays * DAY_MS).toISOString(),
        batchSize: 1000,
      })
    } catch (error) {
      this.options.onError(error, 'pruning the request journal')
      return 0
    }
  }

  /** Writes the queue and indexes every batch: what a read sees is every request answered before it. */
  private readable(): void {
    this.flush()
    if (this.indexPending) this.index()
  }

  list(filter: JournalFilter): JournalEntry[] {
    this.readable()
    return this.options.store.list(filter)
  }

  get(projectId: string, id: number): JournalEntry | undefined {
    this.readable()
    return this.options.store.get(projectId, id)
  }

  /** Writes what is queued and closes the file. Idempotent. */
  close(): void {
    if (this.closed) return
    clearInterval(this.flushTimer)
    clearInterval(this.pruneTimer)
    this.flush()
    this.closed = true
    this.options.store.close()
  }
}
