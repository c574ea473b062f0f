import { present } from '../../shared/present'
import type { JournalBody, JournalEntry, JournalHeader, JournalHeaderSet, JournalRecord } from '../request-journal'

/**
 * An entry as a batch stores it, by position: projectId, kind, startedAtMs, method, path,
 * query, status, latencyMs, keyHint, resourceId, requestHeaders, requestBodyId,
 * responseHeaders, responseBodyId, socket. The project, path and key hint are indexes into
 * the batch's `strings`, the headers into its `headers`: under load most entries repeat them,
 * and each byte not written is time the request thread keeps.
 */
export type StoredEntry = [
  number | null,
  JournalEntry['kind'],
  number,
  string,
  number,
  string,
  number,
  number,
  number | null,
  string | null,
  number,
  number | null,
  number,
  number | null,
  JournalEntry['socket'],
]

/** A batch row's `entries`, as JSON. */
export interface StoredBatch {
  strings: string[]
  headers: JournalHeaderSet[]
  entries: StoredEntry[]
}

/** A batch as read: its entries' ids start at `firstId`. */
export interface Batch extends StoredBatch {
  firstId: number
}

/** A batch row's `entries` JSON, and the range of its entries' start times. */
export interface EncodedBatch {
  json: string
  startedMin: number
  startedMax: number
}

/** The JSON of one batch of `records`; `bodyId` stores a body (once) and answers its id. */
export function encodeBatch(records: readonly JournalRecord[], bodyId: (body: JournalBody | null) => number | null): EncodedBatch {
  const strings = new Map<string, number>()
  const headers = new Map<string, number>()
  const stringIndex = (value: string): number => {
    let index = strings.get(value)
    if (index === undefined) strings.set(value, (index = strings.size))
    return index
  }
  // The writer hands the same object for the same headers (most entries): found by identity, serialised once.
  const headersByObject = new Map<JournalHeaderSet, number>()
  const headersIndex = (set: JournalHeaderSet): number => {
    let index = headersByObject.get(set)
    if (index !== undefined) return index
    const json = JSON.stringify(set)
    index = headers.get(json)
    if (index === undefined) headers.set(json, (index = headers.size))
    headersByObject.set(set, index)
    return index
  }
  const stored: StoredEntry[] = []
  let startedMin = Infinity
  let startedMax = 0
  for (const record of records) {
    if (record.startedAtMs > startedMax) startedMax = record.startedAtMs
    if (record.startedAtMs < startedMin) startedMin = record.startedAtMs
    stored.push([
      record.projectId === null ? null : stringIndex(record.projectId),
      record.kind,
      record.startedAtMs,
      record.method,
      stringIndex(record.path),
      record.query,
      record.status,
      record.latencyMs,
      record.keyHint === null ? null : stringIndex(record.keyHint),
      record.resourceId,
      headersIndex(record.requestHeaders),
      bodyId(record.requestBody),
      headersIndex(record.responseHeaders),
      bodyId(record.responseBody),
      record.socket,
    ])
  }
  // The headers are JSON already: joined, not written as strings again.
  const json = `{"strings":${JSON.stringify([...strings.keys()])},"headers":[${[...headers.keys()].join(',')}],"entries":${JSON.stringify(stored)}}`
  return { json, startedMin, startedMax }
}

/** Entry `id` of `batch`, undefined when the batch does not hold it; `bodyOf` reads a body by id. */
export function entryFromBatch(id: number, batch: Batch, bodyOf: (id: number | null) => JournalBody | null): JournalEntry | undefined {
  const stored = batch.entries[id - batch.firstId]
  if (!stored) return undefined
  const [
    project,
    kind,
    startedAtMs,
    method,
    path,
    query,
    status,
    latencyMs,
    keyHint,
    resourceId,
    requestHeaders,
    requestBodyId,
    responseHeaders,
    responseBodyId,
    socket,
  ] = stored
  // Indexes the batch's writer gave out: each is in its batch's tables.
  const text = (index: number) => present(batch.strings[index], `string ${index} of a journal batch`)
  const headerSet = (index: number) => headerPairs(present(batch.headers[index], `header set ${index} of a journal batch`))
  return {
    id,
    projectId: project === null ? null : text(project),
    kind,
    startedAt: new Date(startedAtMs).toISOString(),
    method,
    path: text(path),
    query,
    status,
    latencyMs,
    keyHint: keyHint === null ? null : text(keyHint),
    resourceId,
    requestHeaders: headerSet(requestHeaders),
    requestBody: bodyOf(requestBodyId),
    responseHeaders: headerSet(responseHeaders),
    responseBody: bodyOf(responseBodyId),
    socket,
  }
}

/** Headers as read: one pair per line (an array value is one line each), values as text. */
function headerPairs(headers: JournalHeaderSet): JournalHeader[] {
  if (Array.isArray(headers)) return headers as JournalHeader[]
  const pairs: JournalHeader[] = []
  for (const [name, value] of Object.entries(headers as Record<string, string | readonly string[] | number | undefined>)) {
    if (value === undefined) continue
    if (typeof value === 'object') for (const one of value) pairs.push([name, one])
    else pairs.push([name, String(value)])
  }
  return pairs
}
