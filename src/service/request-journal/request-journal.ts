import type { JournalEntry, JournalFilter, NewJournalEntry, RequestJournalStore } from '../../store/request-journal'

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
  now?: () => Date
  onError: (error: unknown, what: string) => void
}

/**
 * The journal's writer and reader. An answered request queues its entry (built once the
 * answer is out, so nothing of the request object stays alive meanwhile); a timer writes the
 * queue in batches, each in one transaction on the journal's own connection. A write that fails keeps its entries for the next try; a queue over its bound
 * drops its oldest (counted), so requests never wait for the journal's disk.
 */
export class RequestJournal {
  readonly settings: RequestJournalSettings
  private queue: NewJournalEntry[] = []
  /** Built entries a failed write left, written first next time. */
  private unwritten: NewJournalEntry[] = []
  private droppedCount = 0
  private writtenSincePrune = 0
  private readonly flushTimer: NodeJS.Timeout
  private readonly pruneTimer: NodeJS.Timeout
  private closed = false
  /** The runtime's clock: entries are stamped and aged by it. */
  readonly now: () => Date

  constructor(private readonly options: RequestJournalOptions) {
    this.settings = { ...DEFAULT_JOURNAL_SETTINGS, ...Object.fromEntries(Object.entries(options.settings ?? {}).filter(([, value]) => value !== undefined)) }
    for (const [name, value] of Object.entries(this.settings)) {
      const least = name === 'maxEntries' || name === 'maxAgeDays' ? 0 : 1
      if (typeof value !== 'number' || !Number.isFinite(value) || value < least)
        throw new Error(`RuntimeConfig.journal.${name} must be a number of at least ${least}, not ${String(value)}`)
    }
    this.now = options.now ?? (() => new Date())
    this.flushTimer = setInterval(() => this.flush(), this.settings.flushMs)
    this.flushTimer.unref()
    this.pruneTimer = setInterval(() => this.prune({ sweepBodies: true }), this.settings.pruneMs)
    this.pruneTimer.unref()
    this.prune({ sweepBodies: true })
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

  /** Queues an entry; never blocks, never throws. */
  record(entry: NewJournalEntry): void {
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

  /** Writes everything queued now, in batches. Also called before every read, so a reader sees the requests answered before it. */
  flush(): void {
    if (this.closed || (this.queue.length === 0 && this.unwritten.length === 0)) return
    const built = this.unwritten.length === 0 ? this.queue : [...this.unwritten, ...this.queue]
    this.queue = []
    this.unwritten = []
    for (let start = 0; start < built.length; start += this.settings.batchSize) {
      const batch = built.slice(start, start + this.settings.batchSize)
      try {
        this.options.store.append(batch)
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
    this.announceWritten()
  }

  /** Deletes entries over the count or older than the age (in batches), and (`sweepBodies`) every body no entry keeps. */
  prune(options: { sweepBodies?: boolean } = {}): number {
    if (this.closed) return 0
    this.writtenSincePrune = 0
    try {
      return this.options.store.prune({
        maxEntries: this.settings.maxEntries,
        startedBefore: new Date(this.now().getTime() - this.settings.maxAgeDays * DAY_MS).toISOString(),
        batchSize: 1000,
        sweepBodies: options.sweepBodies ?? false,
      })
    } catch (error) {
      this.options.onError(error, 'pruning the request journal')
      return 0
    }
  }

  list(filter: JournalFilter): JournalEntry[] {
    this.flush()
    return this.options.store.list(filter)
  }

  get(projectId: string, id: number): JournalEntry | undefined {
    this.flush()
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
