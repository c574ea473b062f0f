/*
 * The request journal's port: what /v1 requests and WebSocket sessions looked like, kept
 * apart from the store. It has its own database (a file of its own, its own connection), so
 * writing it never moves Store.changeVersion, on which the read caches key. It is always a
 * SQLite file of its own, in team mode too (one per instance: see docs/api.md, "Request
 * journal"), hence synchronous calls: the writer batches them off the request path.
 */

/** A header as it was sent, its value redacted where it carries a secret. */
export type JournalHeader = [name: string, value: string]

/** A body as the journal keeps it: the first bytes of its text (redacted), or only its size and type. */
export interface JournalBody {
  /** The content type given, if any. */
  contentType: string | null
  /** Its size in bytes; null when unknown (a stream without a Content-Length). */
  size: number | null
  /** Up to the first 64 KiB, redacted; null when the body is binary or streamed (audio) or empty. */
  text: string | null
  /** True when `text` holds only the start of the body. */
  truncated: boolean
}

/** What a WebSocket session adds: when it closed, how, and how many frames went each way (their contents are not kept). */
export interface JournalSocketSession {
  closedAt: string | null
  closeCode: number | null
  framesIn: number
  framesOut: number
}

export interface NewJournalEntry {
  /** The caller's project; null when the request had no valid key (such entries are shown to no one). */
  projectId: string | null
  kind: 'http' | 'websocket'
  /** ISO 8601 with milliseconds. */
  startedAt: string
  method: string
  path: string
  /** The query string without `?`, redacted (`api_key=[REDACTED]`); empty when none. */
  query: string
  /** The answer's status; for a socket, 101 once upgraded. */
  status: number
  /** Until the answer was sent; for a socket, how long it was open. */
  latencyMs: number
  /** The key's hint (`vd_AbC…wXyZ`), never the key. */
  keyHint: string | null
  /** The job or conversation the request touched, if any. */
  resourceId: string | null
  requestHeaders: JournalHeader[]
  requestBody: JournalBody | null
  responseHeaders: JournalHeader[]
  responseBody: JournalBody | null
  socket: JournalSocketSession | null
}

export interface JournalEntry extends NewJournalEntry {
  /** Increasing: a later entry has a larger id (the list's order and its cursor). */
  id: number
}

/** Headers as the writer hands them over: pairs, or Node's header object (an array value is one line each). Secret values already redacted. */
export type JournalHeaderSet = readonly JournalHeader[] | Readonly<Record<string, string | readonly string[] | number | undefined>>

/**
 * An entry as the writer hands it to the store, everything in it already redacted: compact
 * (a time in ms, headers as they came), turned into a JournalEntry only when read. Bodies
 * given as the same object are stored once.
 */
export interface JournalRecord {
  projectId: string | null
  kind: 'http' | 'websocket'
  /** Epoch milliseconds. */
  startedAtMs: number
  method: string
  path: string
  query: string
  status: number
  latencyMs: number
  keyHint: string | null
  resourceId: string | null
  requestHeaders: JournalHeaderSet
  requestBody: JournalBody | null
  responseHeaders: JournalHeaderSet
  responseBody: JournalBody | null
  socket: JournalSocketSession | null
}

export interface JournalFilter {
  projectId: string
  method?: string
  /** Entries whose path starts with this. */
  pathPrefix?: string
  /** 1 to 5: 1xx to 5xx. */
  statusClass?: number
  /** Started at or after (ISO). */
  from?: string
  /** Started before (ISO). */
  to?: string
  /** Only entries with a smaller id: the cursor of the next page. */
  before?: number
  limit: number
}

export interface JournalRetention {
  /** Entries kept at most; the oldest go first. */
  maxEntries: number
  /** Entries that started before this (ISO) go, and every entry before the first that did not. */
  startedBefore: string
  /** Rows deleted per statement, so a large prune never holds the file for long. */
  batchSize: number
}

/**
 * The journal file is held by another process (a second `serve` on the same data folder, or
 * another instance of the same team database on this machine): one file has one writer, since
 * each keeps its ids and body references in memory. The caller takes another file.
 */
export class RequestJournalInUseError extends Error {
  constructor(readonly file: string) {
    super(`The request journal ${file} is in use by another VoiceDesk process`)
    this.name = 'RequestJournalInUseError'
  }
}

export interface RequestJournalStore {
  /**
   * Appends the records as one batch (one row: the cost under load is this append, nothing
   * per entry), in one transaction. Ids follow on from the last entry's.
   */
  append(records: readonly JournalRecord[]): void
  /**
   * Builds the per-entry index (project, time, method, path, status) of the batches
   * appended since, oldest first, until done or `budgetMs` has passed; answers whether
   * every batch is indexed. list and get see only indexed entries: call it (unbounded) first.
   */
  indexPending(budgetMs?: number): boolean
  /** Newest first. */
  list(filter: JournalFilter): JournalEntry[]
  get(projectId: string, id: number): JournalEntry | undefined
  /** Deletes what retention no longer keeps, and the bodies no entry kept refers to; answers how many entries went. */
  prune(retention: JournalRetention): number
  close(): void
}
