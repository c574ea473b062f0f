import BetterSqlite3, { type Database } from 'better-sqlite3'
import { chmodSync, existsSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { JournalBody, JournalEntry, JournalFilter, NewJournalEntry, RequestJournalStore } from '../request-journal'

/** The journal file's schema version (PRAGMA user_version). */
const SCHEMA_VERSION = 1

/*
 * Bodies live in a table of their own, each distinct body once: a client polling a job, or a
 * load test, sends and gets the same bodies again and again, and an entry then costs a row of
 * a few hundred bytes instead of a copy of its answer.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS journal_bodies (
  id INTEGER PRIMARY KEY,
  content_type TEXT,
  size INTEGER,
  text TEXT,
  truncated INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS journal_entries (
  id INTEGER PRIMARY KEY,
  project_id TEXT,
  kind TEXT NOT NULL,
  started_at TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  query TEXT NOT NULL,
  status INTEGER NOT NULL,
  latency_ms REAL NOT NULL,
  key_hint TEXT,
  resource_id TEXT,
  request_headers TEXT NOT NULL,
  request_body_id INTEGER,
  response_headers TEXT NOT NULL,
  response_body_id INTEGER,
  socket TEXT
);
CREATE INDEX IF NOT EXISTS journal_entries_by_project ON journal_entries (project_id, id);
`

interface EntryRow {
  id: number
  project_id: string | null
  kind: 'http' | 'websocket'
  started_at: string
  method: string
  path: string
  query: string
  status: number
  latency_ms: number
  key_hint: string | null
  resource_id: string | null
  request_headers: string
  request_body_id: number | null
  response_headers: string
  response_body_id: number | null
  socket: string | null
}

interface BodyRow {
  id: number
  content_type: string | null
  size: number | null
  text: string | null
  truncated: number
}

/** How many recent bodies are remembered to be stored once (by their text). */
const REMEMBERED_BODIES = 256

function toEntry(row: EntryRow, bodyOf: (id: number | null) => JournalBody | null): JournalEntry {
  return {
    id: row.id,
    projectId: row.project_id,
    kind: row.kind,
    startedAt: row.started_at,
    method: row.method,
    path: row.path,
    query: row.query,
    status: row.status,
    latencyMs: row.latency_ms,
    keyHint: row.key_hint,
    resourceId: row.resource_id,
    requestHeaders: JSON.parse(row.request_headers) as JournalEntry['requestHeaders'],
    requestBody: bodyOf(row.request_body_id),
    responseHeaders: JSON.parse(row.response_headers) as JournalEntry['responseHeaders'],
    responseBody: bodyOf(row.response_body_id),
    socket: row.socket === null ? null : (JSON.parse(row.socket) as JournalEntry['socket']),
  }
}

/** A LIKE pattern matching strings that start with `prefix` (its % and _ taken literally). */
function startsWithPattern(prefix: string): string {
  return prefix.replace(/[\\%_]/g, (character) => `\\${character}`) + '%'
}

/**
 * Opens (creating if needed) the journal's own SQLite file: its own connection, never the
 * store's, so its commits move no change counter the read caches watch. The file is private to
 * the owner (it holds request bodies, redacted or not).
 */
export function openSqliteRequestJournal(file: string, options: { nativeBinding?: string } = {}): RequestJournalStore {
  mkdirSync(dirname(file), { recursive: true })
  const db: Database = new BetterSqlite3(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
  try {
    db.pragma('journal_mode = WAL')
    // Diagnostics, not data: an OS crash may lose the last batch, a process crash loses nothing committed.
    db.pragma('synchronous = NORMAL')
    db.pragma('busy_timeout = 2000')
    const version = db.pragma('user_version', { simple: true }) as number
    if (version > SCHEMA_VERSION) throw new Error(`The request journal ${file} was written by a newer VoiceDesk (schema ${version}); move it away to start a new one`)
    db.exec(SCHEMA)
    db.pragma(`user_version = ${SCHEMA_VERSION}`)
    for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, 0o600)
  } catch (error) {
    db.close()
    throw error
  }
  const COLUMNS =
    'project_id, kind, started_at, method, path, query, status, latency_ms, key_hint, resource_id, request_headers, request_body_id, response_headers, response_body_id, socket'
  const ROW = `(${COLUMNS.split(',')
    .map(() => '?')
    .join(', ')})`
  /** Rows per INSERT: one statement for many rows costs less than a statement each (a third less per entry, measured). */
  const ROWS_PER_INSERT = 20
  const insertOne = db.prepare(`INSERT INTO journal_entries (${COLUMNS}) VALUES ${ROW}`)
  const insertMany = db.prepare(`INSERT INTO journal_entries (${COLUMNS}) VALUES ${Array.from({ length: ROWS_PER_INSERT }, () => ROW).join(', ')}`)
  const insertBody = db.prepare('INSERT INTO journal_bodies (content_type, size, text, truncated) VALUES (?, ?, ?, ?)')
  const readBody = db.prepare<[number], BodyRow>('SELECT * FROM journal_bodies WHERE id = ?')
  const deleteOrphanBodies = db.prepare(
    `DELETE FROM journal_bodies WHERE id NOT IN (
       SELECT request_body_id FROM journal_entries WHERE request_body_id IS NOT NULL
       UNION SELECT response_body_id FROM journal_entries WHERE response_body_id IS NOT NULL)`,
  )
  /** Recent bodies by their text: the same body again is a reference to its row. Forgotten when bodies are pruned. */
  let remembered = new Map<string, { id: number; body: JournalBody }>()
  let bodiesSinceSweep = 0
  const bodyId = (body: JournalBody | null): number | null => {
    if (body === null) return null
    const known = body.text === null ? undefined : remembered.get(body.text)
    if (known && known.body.contentType === body.contentType && known.body.size === body.size && known.body.truncated === body.truncated) return known.id
    const id = Number(insertBody.run(body.contentType, body.size, body.text, body.truncated ? 1 : 0).lastInsertRowid)
    bodiesSinceSweep += 1
    if (body.text !== null) {
      if (remembered.size >= REMEMBERED_BODIES) remembered = new Map()
      remembered.set(body.text, { id, body })
    }
    return id
  }
  const bodyOf = (id: number | null): JournalBody | null => {
    if (id === null) return null
    const row = readBody.get(id)
    return row ? { contentType: row.content_type, size: row.size, text: row.text, truncated: row.truncated === 1 } : null
  }
  const valuesOf = (entry: NewJournalEntry): unknown[] => [
    entry.projectId,
    entry.kind,
    entry.startedAt,
    entry.method,
    entry.path,
    entry.query,
    entry.status,
    entry.latencyMs,
    entry.keyHint,
    entry.resourceId,
    JSON.stringify(entry.requestHeaders),
    bodyId(entry.requestBody),
    JSON.stringify(entry.responseHeaders),
    bodyId(entry.responseBody),
    entry.socket === null ? null : JSON.stringify(entry.socket),
  ]
  const appendAll = db.transaction((entries: readonly NewJournalEntry[]) => {
    let next = 0
    for (; next + ROWS_PER_INSERT <= entries.length; next += ROWS_PER_INSERT) {
      insertMany.run(entries.slice(next, next + ROWS_PER_INSERT).flatMap(valuesOf))
    }
    for (; next < entries.length; next += 1) insertOne.run(valuesOf(entries[next]!))
  })
  const getOne = db.prepare<[number, string], EntryRow>('SELECT * FROM journal_entries WHERE id = ? AND project_id = ?')
  const newestKeptId = db.prepare<[number], number>('SELECT id FROM journal_entries ORDER BY id DESC LIMIT 1 OFFSET ?').pluck()
  const oldestId = db.prepare<[], number | null>('SELECT min(id) FROM journal_entries').pluck()
  // A range of the primary key: no sort, no subquery (ids only grow, so the oldest are the smallest).
  const deleteRange = db.prepare('DELETE FROM journal_entries WHERE id <= ?')
  /**
   * The first entry young enough to keep, found from the oldest up (entries are written about
   * in the order they started; no index on the time, one less to keep up on every insert).
   */
  const firstYoungId = db.prepare<[string], number>('SELECT id FROM journal_entries WHERE started_at >= ? ORDER BY id LIMIT 1').pluck()
  const newestId = db.prepare<[], number | null>('SELECT max(id) FROM journal_entries').pluck()
  const listStatements = new Map<string, BetterSqlite3.Statement<unknown[], EntryRow>>()

  return {
    append: (entries) => {
      if (entries.length === 0) return
      try {
        appendAll(entries)
      } catch (error) {
        remembered = new Map() // bodies the rolled-back batch wrote are gone
        throw error
      }
    },
    list: (filter: JournalFilter) => {
      const where = ['project_id = ?']
      const values: unknown[] = [filter.projectId]
      const condition = (sql: string, ...given: unknown[]) => {
        where.push(sql)
        values.push(...given)
      }
      if (filter.method !== undefined) condition('method = ?', filter.method)
      if (filter.pathPrefix !== undefined) condition("path LIKE ? ESCAPE '\\'", startsWithPattern(filter.pathPrefix))
      if (filter.statusClass !== undefined) condition('status >= ? AND status < ?', filter.statusClass * 100, filter.statusClass * 100 + 100)
      if (filter.from !== undefined) condition('started_at >= ?', filter.from)
      if (filter.to !== undefined) condition('started_at < ?', filter.to)
      if (filter.before !== undefined) condition('id < ?', filter.before)
      const sql = `SELECT * FROM journal_entries WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`
      let statement = listStatements.get(sql)
      if (!statement) listStatements.set(sql, (statement = db.prepare<unknown[], EntryRow>(sql)))
      return statement.all(...values, filter.limit).map((row) => toEntry(row, bodyOf))
    },
    get: (projectId, id) => {
      const row = getOne.get(id, projectId)
      return row && toEntry(row, bodyOf)
    },
    prune: (retention) => {
      let deleted = 0
      // Everything up to the last entry to go, in ranges of the id (each its own short statement).
      const deleteUpTo = (lastToGo: number) => {
        let from = oldestId.get()
        while (from !== null && from !== undefined && from <= lastToGo) {
          const upTo = Math.min(lastToGo, from + retention.batchSize - 1)
          deleted += deleteRange.run(upTo).changes
          from = upTo + 1
        }
      }
      // By age: what came before the first entry young enough.
      const young = firstYoungId.get(retention.startedBefore)
      deleteUpTo(young === undefined ? (newestId.get() ?? 0) : young - 1)
      // By count: what comes before the newest maxEntries.
      const lastByCount = retention.maxEntries === 0 ? newestId.get() : newestKeptId.get(retention.maxEntries)
      if (lastByCount !== undefined && lastByCount !== null) deleteUpTo(lastByCount)
      // The sweep reads every entry: after large prunes it waits until enough new bodies make it worth it.
      if (retention.sweepBodies || (deleted > 0 && bodiesSinceSweep >= Math.max(1000, retention.maxEntries / 4))) {
        deleteOrphanBodies.run()
        remembered = new Map()
        bodiesSinceSweep = 0
      }
      return deleted
    },
    close: () => db.close(),
  }
}
