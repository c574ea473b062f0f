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
  /** Entries that started before this (ISO) go. */
  startedBefore: string
  /** Rows deleted per statement, so a large prune never holds the file for long. */
  batchSize: number
  /**
   * Whether bodies no entry refers to any more go too, whatever it costs (a pass over every
   * entry). Otherwise they go only once many new bodies were written since the last sweep.
   */
  sweepBodies: boolean
}

export interface RequestJournalStore {
  /** Appends the entries in one transaction. */
  append(entries: readonly NewJournalEntry[]): void
  /** Newest first. */
  list(filter: JournalFilter): JournalEntry[]
  get(projectId: string, id: number): JournalEntry | undefined
  /** Deletes what retention no longer keeps; answers how many entries went. */
  prune(retention: JournalRetention): number
  close(): void
}
