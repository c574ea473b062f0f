import BetterSqlite3, { type Database } from 'better-sqlite3'
import { chmodSync, existsSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { JournalBody, JournalEntry, JournalFilter, NewJournalEntry, RequestJournalStore } from '../request-journal'

/** The journal file's schema version (PRAGMA user_version). */
const SCHEMA_VERSION = 1

const SCHEMA = `
CREATE TABLE IF NOT EXISTS journal_entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
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
  request_body TEXT,
  response_headers TEXT NOT NULL,
  response_body TEXT,
  socket TEXT
);
CREATE INDEX IF NOT EXISTS journal_entries_by_project ON journal_entries (project_id, id);
CREATE INDEX IF NOT EXISTS journal_entries_by_start ON journal_entries (started_at);
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
  request_body: string | null
  response_headers: string
  response_body: string | null
  socket: string | null
}

const json = (value: unknown) => (value === null ? null : JSON.stringify(value))

function toEntry(row: EntryRow): JournalEntry {
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
    requestBody: row.request_body === null ? null : (JSON.parse(row.request_body) as JournalBody),
    responseHeaders: JSON.parse(row.response_headers) as JournalEntry['responseHeaders'],
    responseBody: row.response_body === null ? null : (JSON.parse(row.response_body) as JournalBody),
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
  const insert = db.prepare(
    `INSERT INTO journal_entries (project_id, kind, started_at, method, path, query, status, latency_ms, key_hint, resource_id, request_headers, request_body, response_headers, response_body, socket)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const appendAll = db.transaction((entries: readonly NewJournalEntry[]) => {
    for (const entry of entries) {
      insert.run(
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
        json(entry.requestBody),
        JSON.stringify(entry.responseHeaders),
        json(entry.responseBody),
        json(entry.socket),
      )
    }
  })
  const getOne = db.prepare<[number, string], EntryRow>('SELECT * FROM journal_entries WHERE id = ? AND project_id = ?')
  const newestKeptId = db.prepare<[number], number>('SELECT id FROM journal_entries ORDER BY id DESC LIMIT 1 OFFSET ?').pluck()
  const deleteUpTo = db.prepare('DELETE FROM journal_entries WHERE id IN (SELECT id FROM journal_entries WHERE id <= ? ORDER BY id LIMIT ?)')
  const deleteStartedBefore = db.prepare('DELETE FROM journal_entries WHERE id IN (SELECT id FROM journal_entries WHERE started_at < ? LIMIT ?)')
  const listStatements = new Map<string, BetterSqlite3.Statement<unknown[], EntryRow>>()

  return {
    append: (entries) => {
      if (entries.length > 0) appendAll(entries)
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
      return statement.all(...values, filter.limit).map(toEntry)
    },
    get: (projectId, id) => {
      const row = getOne.get(id, projectId)
      return row && toEntry(row)
    },
    prune: (retention) => {
      let deleted = 0
      // By age first, then by count: both in batches, each its own short transaction.
      for (;;) {
        const { changes } = deleteStartedBefore.run(retention.startedBefore, retention.batchSize)
        deleted += changes
        if (changes < retention.batchSize) break
      }
      const lastToGo = retention.maxEntries === 0 ? Number.MAX_SAFE_INTEGER : newestKeptId.get(retention.maxEntries)
      if (lastToGo !== undefined) {
        for (;;) {
          const { changes } = deleteUpTo.run(lastToGo, retention.batchSize)
          deleted += changes
          if (changes < retention.batchSize) break
        }
      }
      return deleted
    },
    close: () => db.close(),
  }
}
