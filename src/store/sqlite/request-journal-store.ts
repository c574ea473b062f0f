import BetterSqlite3, { type Database } from 'better-sqlite3'
import { chmodSync, existsSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { isDatabaseBusy } from '../storage-errors'
import { present } from '../../shared/present'
import {
  RequestJournalInUseError,
  type JournalBody,
  type JournalEntry,
  type JournalFilter,
  type JournalRecord,
  type RequestJournalStore,
} from '../request-journal'
import { encodeBatch, entryFromBatch, type Batch, type StoredBatch } from './journal-batch-format'

/** The journal file's schema version (PRAGMA user_version). */
const SCHEMA_VERSION = 2

/*
 * Append-only, indexed later. Each write is ONE row of journal_batches: its entries as one
 * JSON array (bodies by reference). Under load that append is all the journal costs; the
 * per-entry index (journal_index: what lists filter on) is built from the batches when a
 * reader asks or the service is idle, and batches that retention removes before that are
 * never indexed at all. Bodies live in a table of their own, each distinct body once: a
 * client polling a job, or a load test, gets the same answer again and again.
 * `last_batch_id` is the newest batch that refers to a body: a body older than every batch
 * kept is referred to by none.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS journal_bodies (
  id INTEGER PRIMARY KEY,
  content_type TEXT,
  size INTEGER,
  text TEXT,
  truncated INTEGER NOT NULL,
  last_batch_id INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS journal_bodies_by_batch ON journal_bodies (last_batch_id);
CREATE TABLE IF NOT EXISTS journal_batches (
  id INTEGER PRIMARY KEY,
  first_id INTEGER NOT NULL,
  last_id INTEGER NOT NULL,
  started_min INTEGER NOT NULL,
  started_max INTEGER NOT NULL,
  indexed INTEGER NOT NULL DEFAULT 0,
  entries TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS journal_index (
  id INTEGER PRIMARY KEY,
  batch_id INTEGER NOT NULL,
  project_id TEXT NOT NULL,
  started_at TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  status INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS journal_index_by_project ON journal_index (project_id, id);
CREATE TABLE IF NOT EXISTS journal_floor (
  only INTEGER PRIMARY KEY CHECK (only = 1),
  first_kept_id INTEGER NOT NULL
);
`

interface BodyRow {
  content_type: string | null
  size: number | null
  text: string | null
  truncated: number
}

/** How many recent bodies are remembered to be stored once (by identity and by text). */
const REMEMBERED_BODIES = 256
/** Decoded batches kept for reads (a page of a list, then its details, reads the same few). */
const CACHED_BATCHES = 16
/** Index rows per INSERT: one statement for many rows costs less than a statement each. */
const ROWS_PER_INSERT = 20

/** The index rows a filter selects, newest first: the SQL (one statement per shape of filter) and its values, but the limit. */
function listQuery(filter: JournalFilter): { sql: string; values: unknown[] } {
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
  return { sql: `SELECT id, batch_id FROM journal_index WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`, values }
}

/** A LIKE pattern matching strings that start with `prefix` (its % and _ taken literally). */
function startsWithPattern(prefix: string): string {
  return prefix.replace(/[\\%_]/g, (character) => `\\${character}`) + '%'
}

/**
 * Opens (creating if needed) the journal's own SQLite file: its own connection, never the
 * store's, so its commits move no change counter the read caches watch. The file is private to
 * the owner (it holds request bodies, redacted). A file of another schema (older or newer)
 * is refused: the runtime moves it aside and starts a new one.
 */
export function openSqliteRequestJournal(file: string, options: { nativeBinding?: string } = {}): RequestJournalStore {
  const db = openJournalDatabase(file, options)

  const insertBatch = db.prepare(
    'INSERT INTO journal_batches (id, first_id, last_id, started_min, started_max, entries) VALUES (?, ?, ?, ?, ?, ?)',
  )
  const saveFloor = db.prepare(
    'INSERT INTO journal_floor (only, first_kept_id) VALUES (1, ?) ON CONFLICT (only) DO UPDATE SET first_kept_id = excluded.first_kept_id',
  )
  const readBody = db.prepare<[number], BodyRow>('SELECT content_type, size, text, truncated FROM journal_bodies WHERE id = ?')
  const readBatch = db.prepare<[number], { first_id: number; entries: string }>(
    'SELECT first_id, entries FROM journal_batches WHERE id = ?',
  )
  const pendingBatches = db.prepare<[number], { id: number; first_id: number; entries: string }>(
    'SELECT id, first_id, entries FROM journal_batches WHERE id > ? ORDER BY id LIMIT 8',
  )
  const markIndexed = db.prepare('UPDATE journal_batches SET indexed = 1 WHERE id = ?')
  const INDEX_ROW = '(?, ?, ?, ?, ?, ?, ?)'
  const INDEX_COLUMNS = 'id, batch_id, project_id, started_at, method, path, status'
  const insertIndexOne = db.prepare(`INSERT INTO journal_index (${INDEX_COLUMNS}) VALUES ${INDEX_ROW}`)
  const insertIndexMany = db.prepare(
    `INSERT INTO journal_index (${INDEX_COLUMNS}) VALUES ${Array.from({ length: ROWS_PER_INSERT }, () => INDEX_ROW).join(', ')}`,
  )
  const getOne = db.prepare<[number, string], { batch_id: number }>('SELECT batch_id FROM journal_index WHERE id = ? AND project_id = ?')
  const firstYoungBatch = db.prepare<[number], { id: number; first_id: number; started_min: number }>(
    'SELECT id, first_id, started_min FROM journal_batches WHERE started_max >= ? ORDER BY id LIMIT 1',
  )
  const batchHolding = db.prepare<[number], number>('SELECT id FROM journal_batches WHERE last_id >= ? ORDER BY id LIMIT 1').pluck()
  const oldestBatch = db.prepare<[], number | null>('SELECT min(id) FROM journal_batches').pluck()
  const deleteBatches = db.prepare('DELETE FROM journal_batches WHERE id < ?')
  const oldestIndexed = db.prepare<[], number | null>('SELECT min(id) FROM journal_index').pluck()
  const deleteIndexRange = db.prepare('DELETE FROM journal_index WHERE id < ?')
  const deleteOrphanBodies = db.prepare('DELETE FROM journal_bodies WHERE last_batch_id < ?')
  const listStatements = new Map<string, BetterSqlite3.Statement<unknown[], { id: number; batch_id: number }>>()

  let { nextBatchId, nextEntryId, floorId, indexedThrough } = readPositions(db)

  const bodies = new JournalBodies(db)

  const appendBatch = db.transaction((records: readonly JournalRecord[]) => {
    const batchId = nextBatchId
    const { json, startedMin, startedMax } = encodeBatch(records, (body) => bodies.idOf(body, batchId))
    insertBatch.run(batchId, nextEntryId, nextEntryId + records.length - 1, startedMin, startedMax, json)
  })

  const batches = new BatchCache((id) => readBatch.get(id))
  const entryOf = (id: number, batchId: number, read: Map<number, JournalBody | null>): JournalEntry | undefined => {
    const batch = batches.get(batchId)
    return batch && entryFromBatch(id, batch, (bodyId) => bodyOf(bodyId, read))
  }
  /** A body by id, read once per list (`read`): a page's entries often share one. */
  const bodyOf = (id: number | null, read: Map<number, JournalBody | null>): JournalBody | null => {
    if (id === null) return null
    const known = read.get(id)
    if (known !== undefined) return known
    const row = readBody.get(id)
    const body = row ? { contentType: row.content_type, size: row.size, text: row.text, truncated: row.truncated === 1 } : null
    read.set(id, body)
    return body
  }

  /** The index rows of one batch (its entries of no project are shown to no one: not indexed), from `fromId` on. */
  const indexBatch = (batchId: number, { firstId, strings, entries }: Batch, fromId: number) => {
    const values: unknown[] = []
    let rows = 0
    for (let index = Math.max(0, fromId - firstId); index < entries.length; index += 1) {
      const entry = entries[index]
      if (entry === undefined || entry[0] === null) continue
      const [project, , startedAtMs, method, path, , status] = entry
      values.push(firstId + index, batchId, strings[project], new Date(startedAtMs).toISOString(), method, strings[path], status)
      rows += 1
      if (rows === ROWS_PER_INSERT) {
        insertIndexMany.run(values)
        values.length = 0
        rows = 0
      }
    }
    for (let row = 0; row < rows; row += 1) insertIndexOne.run(values.slice(row * 7, row * 7 + 7))
    markIndexed.run(batchId)
  }
  const indexSome = db.transaction((deadline: number): boolean => {
    for (;;) {
      const pending = pendingBatches.all(indexedThrough)
      if (pending.length === 0) return true
      for (const row of pending) {
        indexBatch(row.id, batches.peek(row.id) ?? decodeBatch(row), floorId)
        indexedThrough = row.id
      }
      if (performance.now() >= deadline) return pendingBatches.all(indexedThrough).length === 0
    }
  })

  const pruneAll = db.transaction((retention: { maxEntries: number; startedBefore: string; batchSize: number }): number => {
    const lastId = nextEntryId - 1
    let floor = retention.maxEntries === 0 ? lastId + 1 : lastId - retention.maxEntries + 1
    // By age: everything before the first entry young enough (entries are written about in the order they started).
    const cutoff = Date.parse(retention.startedBefore)
    const young = firstYoungBatch.get(cutoff)
    if (!young) floor = lastId + 1
    else if (young.started_min >= cutoff) floor = Math.max(floor, young.first_id)
    else {
      const entries = batches.get(young.id)?.entries ?? []
      const firstYoung = entries.findIndex((entry) => entry[2] >= cutoff)
      floor = Math.max(floor, young.first_id + Math.max(0, firstYoung))
    }
    if (floor <= floorId) return 0
    const deleted = Math.min(floor, nextEntryId) - floorId
    floorId = floor
    // Whole batches below the floor, in ranges of ids (each its own short statement).
    const keptBatch = batchHolding.get(floor) ?? nextBatchId
    for (let from = oldestBatch.get(); from !== null && from !== undefined && from < keptBatch; from += retention.batchSize) {
      deleteBatches.run(Math.min(keptBatch, from + retention.batchSize))
    }
    for (let from = oldestIndexed.get(); from !== null && from !== undefined && from < floor; from += retention.batchSize) {
      deleteIndexRange.run(Math.min(floor, from + retention.batchSize))
    }
    saveFloor.run(floor)
    if (deleteOrphanBodies.run(keptBatch).changes > 0) bodies.forget()
    batches.clear()
    return deleted
  })

  return {
    append: (records) => {
      if (records.length === 0) return
      try {
        appendBatch(records)
        nextBatchId += 1
        nextEntryId += records.length
      } catch (error) {
        bodies.forget() // bodies the rolled-back batch wrote are gone
        throw error
      }
    },
    indexPending: (budgetMs = Infinity) => indexSome(performance.now() + budgetMs),
    list: (filter: JournalFilter) => {
      const { sql, values } = listQuery(filter)
      let statement = listStatements.get(sql)
      if (!statement) listStatements.set(sql, (statement = db.prepare<unknown[], { id: number; batch_id: number }>(sql)))
      const bodies = new Map<number, JournalBody | null>()
      const entries: JournalEntry[] = []
      for (const row of statement.all(...values, filter.limit)) {
        const entry = entryOf(row.id, row.batch_id, bodies)
        if (entry) entries.push(entry)
      }
      return entries
    },
    get: (projectId, id) => {
      const row = getOne.get(id, projectId)
      return row && entryOf(id, row.batch_id, new Map())
    },
    prune: (retention) => pruneAll(retention),
    close: () => db.close(),
  }
}

/** Where a journal file stands when opened: the next ids, the retention floor, how far it is indexed. */
function readPositions(db: Database): { nextBatchId: number; nextEntryId: number; floorId: number; indexedThrough: number } {
  const lastRow = db
    .prepare<[], { batch: number | null; entry: number | null; first: number | null }>(
      'SELECT max(id) AS batch, max(last_id) AS entry, min(first_id) AS first FROM journal_batches',
    )
    .get()
  // An aggregate without GROUP BY answers one row, of nulls when the table is empty.
  const last = present(lastRow, 'the journal batches aggregate')
  const nextBatchId = (last.batch ?? 0) + 1
  const savedFloor = db.prepare<[], number>('SELECT first_kept_id FROM journal_floor').pluck().get()
  // After the last entry, or after the floor when retention emptied the journal: ids only grow.
  const nextEntryId = Math.max((last.entry ?? 0) + 1, savedFloor ?? 0)
  /**
   * Entries below this id are gone (retention); those from it up to nextEntryId are kept. The
   * batch it falls in may still hold older ones: they are never indexed, and the floor is saved
   * so a restart knows it.
   */
  const floorId = Math.max(last.first ?? nextEntryId, savedFloor ?? 0)
  /** Every batch up to this id is indexed; those after it are not (indexing goes oldest first). */
  const indexedThrough = db.prepare<[], number>('SELECT coalesce(max(id), 0) FROM journal_batches WHERE indexed = 1').pluck().get() ?? 0
  return { nextBatchId, nextEntryId, floorId, indexedThrough }
}

/**
 * Opens (creating if needed) the journal's SQLite file and checks its schema: RequestJournalInUseError
 * when another process holds it, an Error when it is of another schema.
 */
function openJournalDatabase(file: string, options: { nativeBinding?: string }): Database {
  // Folders it makes are private like the data folder: the file holds request bodies.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  const db: Database = new BetterSqlite3(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
  try {
    // One writer per file: the connection takes the file's lock with its first write and never
    // lets go, so another process opening it is told at once (no wait: the lock is never freed)
    // instead of colliding on ids later. Set before WAL, SQLite then keeps the WAL index in this
    // process's memory (no -shm file).
    db.pragma('locking_mode = EXCLUSIVE')
    db.pragma('busy_timeout = 0')
    db.pragma('journal_mode = WAL')
    // Diagnostics, not data: no fsync (measured: the checkpoints' fsyncs cost more than the rest of
    // a write). A process crash loses nothing committed; an OS crash may lose the last batches or
    // damage the file, which the next start then moves aside (see the runtime's openJournalFile).
    db.pragma('synchronous = OFF')
    const version = db.pragma('user_version', { simple: true }) as number
    if (version > SCHEMA_VERSION)
      throw new Error(`The request journal ${file} was written by a newer VoiceDesk (schema ${version}); move it away to start a new one`)
    if (version !== 0 && version < SCHEMA_VERSION)
      throw new Error(`The request journal ${file} has an older layout (schema ${version}); it is moved aside and a new one started`)
    db.exec(SCHEMA)
    db.pragma(`user_version = ${SCHEMA_VERSION}`)
    for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, 0o600)
  } catch (error) {
    db.close()
    if (isDatabaseBusy(error)) throw new RequestJournalInUseError(file)
    throw error
  }
  return db
}

/** Bodies, each distinct one stored once: recent ones remembered by the object the writer gave (the same object for the same redacted body) and by text. */
class JournalBodies {
  private byObject = new Map<JournalBody, { id: number; lastBatch: number }>()
  private byText = new Map<string, { id: number; body: JournalBody; lastBatch: number }>()
  private readonly insertBody: BetterSqlite3.Statement
  private readonly touchBody: BetterSqlite3.Statement

  constructor(db: Database) {
    this.insertBody = db.prepare('INSERT INTO journal_bodies (content_type, size, text, truncated, last_batch_id) VALUES (?, ?, ?, ?, ?)')
    this.touchBody = db.prepare('UPDATE journal_bodies SET last_batch_id = ? WHERE id = ?')
  }

  /** Forgets the remembered bodies (rows of them were deleted, or rolled back). */
  forget(): void {
    this.byObject = new Map()
    this.byText = new Map()
  }

  /** The id of `body` as batch `batchId` refers to it: stored now, or a stored one marked as referred to by this batch too. */
  idOf(body: JournalBody | null, batchId: number): number | null {
    if (body === null) return null
    let known: { id: number; lastBatch: number } | undefined = this.byObject.get(body)
    if (!known && body.text !== null) {
      const same = this.byText.get(body.text)
      if (same && same.body.contentType === body.contentType && same.body.size === body.size && same.body.truncated === body.truncated)
        known = same
    }
    if (known) {
      // Referred to by this batch too: kept as long as it is.
      if (known.lastBatch !== batchId) this.touchBody.run(batchId, known.id)
      known.lastBatch = batchId
      if (!this.byObject.has(body)) this.rememberObject(body, known)
      return known.id
    }
    const id = Number(this.insertBody.run(body.contentType, body.size, body.text, body.truncated ? 1 : 0, batchId).lastInsertRowid)
    const remembered = { id, body, lastBatch: batchId }
    this.rememberObject(body, remembered)
    if (body.text !== null) {
      if (this.byText.size >= REMEMBERED_BODIES) this.byText = new Map()
      this.byText.set(body.text, remembered)
    }
    return id
  }

  private rememberObject(body: JournalBody, known: { id: number; lastBatch: number }): void {
    if (this.byObject.size >= REMEMBERED_BODIES) this.byObject = new Map()
    this.byObject.set(body, known)
  }
}

/** Decoded batches for reads, the most recently used last; at most CACHED_BATCHES. */
class BatchCache {
  private batches = new Map<number, Batch>()

  constructor(private readonly readRow: (id: number) => { first_id: number; entries: string } | undefined) {}

  /** A batch, decoded (and kept) unless it is kept already; undefined when there is none of this id. */
  get(id: number): Batch | undefined {
    const cached = this.batches.get(id)
    if (cached) {
      this.batches.delete(id)
      this.batches.set(id, cached)
      return cached
    }
    const row = this.readRow(id)
    if (!row) return undefined
    const batch = decodeBatch(row)
    if (this.batches.size >= CACHED_BATCHES) {
      const oldest = this.batches.keys().next()
      if (!oldest.done) this.batches.delete(oldest.value)
    }
    this.batches.set(id, batch)
    return batch
  }

  /** A batch if it is kept, without reading or keeping one. */
  peek(id: number): Batch | undefined {
    return this.batches.get(id)
  }

  clear(): void {
    this.batches = new Map()
  }
}

function decodeBatch(row: { first_id: number; entries: string }): Batch {
  return { firstId: row.first_id, ...(JSON.parse(row.entries) as StoredBatch) }
}
