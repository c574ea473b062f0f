import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ProjectDataRepository, ReplacedProject, ReplaceProjectOptions } from '../ports'
import { checkedRows, columnValue, COUNT_OF_KIND, fieldValue, noCounts, ROW_TABLES, rowError, type RowTable } from '../project-rows'
import type { ProjectCounts, ProjectRow, ProjectRowKind } from '../records'
import type { ConnectionTurns } from './connection-turns'
import type { OpenDatabaseOptions } from './open-database'
import { ROLLUP_TABLES, rollupsOf } from './migrations/0012-analytics-rollup'

/** Pages a backup step copies: all of them, in one step (see the class). */
const PAGES_AT_ONCE = 0x7fffffff

export interface SqliteProjectDataDeps {
  db: Database
  /** The store's turns on the connection: counts wait for an open transaction, as every read does. */
  turns: ConnectionTurns
  /** The store's transaction (turns, BEGIN IMMEDIATE, COMMIT or ROLLBACK). */
  transaction: <T>(work: () => Promise<T>) => Promise<T>
  /** How the store's connection was opened: the export's own connection loads the same addon. */
  openOptions: OpenDatabaseOptions
}

const selectOf = (table: RowTable) =>
  `SELECT ${table.columns.map(({ column, field }) => `t.${column} AS "${field}"`).join(', ')} FROM ${table.table} t WHERE ${table.ofProject('?')} ORDER BY ${table.order}`

function toRecord(table: RowTable, row: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {}
  for (const { field, holds } of table.columns) record[field] = fieldValue(row[field], holds)
  return record
}

/** The trigger that puts an inserted job in the search index (migration 0002). */
const SEARCH_INSERT_TRIGGER = 'jobs_search_insert'

/**
 * The search index's rows for a project's jobs, in one statement: the insert trigger's own
 * statement, its VALUES (over `new`, the inserted row) made a SELECT over the project's jobs
 * named `new`, so the index holds what the trigger would have put there, whatever a later
 * migration makes it.
 */
function searchIndexStatement(db: Database): string {
  const sql = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?").pluck().get(SEARCH_INSERT_TRIGGER) as
    string | undefined
  const parts = sql && /\bBEGIN\s+(INSERT INTO jobs_search\s*\([^)]*\))\s*VALUES\s*\(([\s\S]*)\);\s*END$/i.exec(sql.trim())
  if (!parts) throw new Error(`The trigger ${SEARCH_INSERT_TRIGGER} is not one INSERT ... VALUES into jobs_search: ${sql ?? 'missing'}`)
  return `${parts[1]} SELECT ${parts[2]} FROM jobs AS new WHERE new.project_id = ?`
}

/**
 * A project's data out of and into SQLite (see ProjectDataRepository).
 *
 * Export: the online backup API copies the database, from a connection of its own (so a
 * transaction open on the store's connection is neither seen nor waited for), in one step
 * (a copy in many steps starts again whenever another connection writes, and a busy writer
 * could keep it from ever ending). A step holds a read lock only: in WAL mode writers go on
 * meanwhile. The copy is read and deleted.
 *
 * Replace: one IMMEDIATE transaction on the store's connection. The search index's delete
 * trigger takes the project's old jobs out of it as they are deleted. The other triggers on
 * jobs (job_counts, the analytics rollups, and the search index's insert) are dropped for the
 * load and made again from their stored definitions before the commit (DDL is part of the
 * transaction, so a failed load leaves them as they were); the project's sums are computed once
 * from its rows, and its jobs enter the search index in one INSERT ... SELECT made from the
 * insert trigger's own statement. Kept row by row, the sums made a 100,000-job restore several
 * times slower, and the index's trigger row by row still took 12.6 s of 100,000 inserts that take 5.2 s
 * with the index made in one statement after them.
 */
export class SqliteProjectDataRepository implements ProjectDataRepository {
  private readonly deletes: Statement[]
  private readonly inserts: Record<ProjectRowKind, { table: RowTable; statement: Statement }>
  private readonly countStatements: Record<keyof ProjectCounts, Statement>
  private readonly projectExists: Statement
  private readonly keyIds: Statement
  private readonly userIds: Statement
  private readonly mediaFiles: Statement
  private readonly recountJobs: Statement[]
  private readonly loadTriggers: Statement
  private readonly searchIndexOf: Statement

  constructor(private readonly deps: SqliteProjectDataDeps) {
    const { db } = deps
    // References first: attempts before their deliveries, numbers before the agents they name.
    this.deletes = [...ROW_TABLES].reverse().map((table) => db.prepare(`DELETE FROM ${table.table} AS t WHERE ${table.ofProject('?')}`))
    this.inserts = Object.fromEntries(
      ROW_TABLES.map((table) => [
        table.kind,
        {
          table,
          statement: db.prepare(
            `INSERT INTO ${table.table} (${table.columns.map(({ column }) => column).join(', ')}) VALUES (${table.columns.map(() => '?').join(', ')})`,
          ),
        },
      ]),
    ) as Record<ProjectRowKind, { table: RowTable; statement: Statement }>
    this.countStatements = Object.fromEntries(
      ROW_TABLES.map((table) => [
        COUNT_OF_KIND[table.kind],
        db.prepare(`SELECT count(*) FROM ${table.table} t WHERE ${table.ofProject('?')}`).pluck(),
      ]),
    ) as Record<keyof ProjectCounts, Statement>
    this.projectExists = db.prepare('SELECT 1 FROM projects WHERE id = ?').pluck()
    this.keyIds = db.prepare('SELECT id FROM api_keys WHERE project_id = ?').pluck()
    this.userIds = db.prepare('SELECT id FROM users').pluck()
    this.mediaFiles = db.prepare('SELECT media_file FROM jobs WHERE project_id = ? AND media_file IS NOT NULL').pluck()
    this.recountJobs = [
      db.prepare('DELETE FROM job_counts WHERE project_id = @projectId'),
      db.prepare(
        'INSERT INTO job_counts (project_id, type, status, count) SELECT project_id, type, status, count(*) FROM jobs WHERE project_id = @projectId GROUP BY project_id, type, status',
      ),
      ...ROLLUP_TABLES.map((table) => db.prepare(`DELETE FROM ${table} WHERE project_id = @projectId`)),
      ...rollupsOf('j.project_id = @projectId').map((sql) => db.prepare(sql)),
    ]
    // Every trigger on jobs that keeps a sum, and the search index's insert (see the class).
    this.loadTriggers = db.prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'jobs' AND (name NOT LIKE 'jobs_search_%' OR name = ?) ORDER BY name",
    )
    this.searchIndexOf = db.prepare(searchIndexStatement(db))
  }

  async *exportProject(projectId: string): AsyncGenerator<ProjectRow> {
    // Named for the process (as service/state/import-leftovers.ts expects): a later start removes it if this process dies meanwhile.
    const folder = mkdtempSync(join(tmpdir(), `voicedesk-export-${process.pid}-`))
    try {
      const copyFile = join(folder, 'copy.db')
      await this.backupTo(copyFile)
      const copy = new BetterSqlite3(copyFile, { readonly: true, fileMustExist: true, ...this.nativeBinding() })
      try {
        for (const table of ROW_TABLES) {
          for (const row of copy.prepare(selectOf(table)).iterate(projectId) as IterableIterator<Record<string, unknown>>) {
            yield { kind: table.kind, record: toRecord(table, row) } as unknown as ProjectRow
          }
        }
      } finally {
        copy.close()
      }
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }

  async replaceProject(
    projectId: string,
    rows: AsyncIterable<ProjectRow> | Iterable<ProjectRow>,
    options: ReplaceProjectOptions = {},
  ): Promise<ReplacedProject> {
    return this.deps.transaction(async () => {
      if (this.projectExists.get(projectId) === undefined) throw new Error(`There is no project ${projectId}`)
      const known = {
        keyIds: new Set(this.keyIds.all(projectId) as string[]),
        userIds: new Set(this.userIds.all() as string[]),
        owner: options.owner,
      }
      const mediaBefore = this.mediaFiles.all(projectId) as string[]
      const triggers = this.loadTriggers.all(SEARCH_INSERT_TRIGGER) as { name: string; sql: string }[]
      for (const { name } of triggers) this.deps.db.exec(`DROP TRIGGER ${name}`)
      for (const statement of this.deletes) statement.run(projectId)
      const counts = noCounts()
      for await (const { rowNumber, row } of checkedRows(rows, projectId, known, counts)) {
        const { table, statement } = this.inserts[row.kind]
        const record = row.record as unknown as Record<string, unknown>
        try {
          statement.run(table.columns.map(({ field, holds }) => columnValue(record[field], holds, (value) => (value ? 1 : 0))))
        } catch (error) {
          // A constraint is the row's fault; anything else (a full disk, an I/O error) is the store's, and keeps its code.
          if (!/^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG)/.test((error as { code?: string }).code ?? '')) throw error
          throw rowError(rowNumber, row, (error as Error).message)
        }
      }
      for (const statement of this.recountJobs) statement.run({ projectId })
      this.searchIndexOf.run(projectId)
      for (const { sql } of triggers) this.deps.db.exec(sql)
      return { counts, mediaBefore }
    })
  }

  projectCounts(projectId: string): Promise<ProjectCounts> {
    const read = () => {
      const counts = noCounts()
      for (const key of Object.keys(counts) as (keyof ProjectCounts)[]) counts[key] = this.countStatements[key].get(projectId) as number
      return counts
    }
    return this.deps.turns.busy ? this.deps.turns.run(read) : Promise.resolve(read())
  }

  /** The whole database, as of one moment, into `file`. */
  private async backupTo(file: string): Promise<void> {
    const { db } = this.deps
    if (db.memory) {
      // No file another connection could open: the store's own connection copies (its pages, committed or not, are this process's).
      await this.deps.turns.run(() => db.backup(file, { progress: () => PAGES_AT_ONCE }))
      return
    }
    const source = new BetterSqlite3(db.name, { readonly: true, fileMustExist: true, timeout: 5_000, ...this.nativeBinding() })
    try {
      await source.backup(file, { progress: () => PAGES_AT_ONCE })
    } finally {
      source.close()
    }
  }

  private nativeBinding(): { nativeBinding?: string } {
    return this.deps.openOptions.nativeBinding ? { nativeBinding: this.deps.openOptions.nativeBinding } : {}
  }
}
