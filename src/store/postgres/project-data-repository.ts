import type pg from 'pg'
import type { ProjectDataRepository, ReplacedProject, ReplaceProjectOptions } from '../ports'
import { checkedRows, columnValue, COUNT_OF_KIND, fieldValue, noCounts, ROW_TABLES, rowError, type RowTable } from '../project-rows'
import type { ProjectCounts, ProjectRow, ProjectRowKind } from '../records'
import { encodeText, inTransaction, query } from './db'
import { jobSearchLexemes } from './search-words'
import { present } from '../../shared/present'

/** Rows fetched from the export's cursor at a time. */
const FETCH_ROWS = 1_000
/** Rows inserted by one statement: its statement-level triggers (counts, search words) run once for all of them. */
const INSERT_ROWS = 2_000

const TABLE_OF_KIND = Object.fromEntries(ROW_TABLES.map((table) => [table.kind, table])) as Record<ProjectRowKind, RowTable>

const selectOf = (table: RowTable) =>
  `SELECT ${table.columns.map(({ column, field }) => `t.${column} AS "${field}"`).join(', ')} FROM ${table.table} t WHERE ${table.ofProject('$1')} ORDER BY ${table.order}`

/**
 * An insert of many rows in one statement: the rows travel as one JSON array whose objects
 * are keyed by column, and the table's own row type reads them (so every column is cast as the
 * table declares it). A job's search column is its words as tsvector text (see search-words.ts).
 */
const insertOf = (table: RowTable) => {
  const columns = table.columns.map(({ column }) => column)
  if (table.kind === 'job') columns.push('search')
  const list = columns.join(', ')
  return `INSERT INTO ${table.table} (${list}) SELECT ${list} FROM jsonb_populate_recordset(NULL::${table.table}, $1::jsonb) WITH ORDINALITY AS r ORDER BY r.ordinality`
}

/** A tsvector's text form of bare lexemes (each quoted, so any character is taken as it is). */
const tsvectorText = (lexemes: string[]) => lexemes.map((lexeme) => `'${lexeme.replace(/['\\]/g, (char) => `\\${char}`)}'`).join(' ')

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const wellFormed = (value: string) => value.replace(LONE_SURROGATE, '\uFFFD')

/**
 * A row's columns as JSON for insertOf. Strings are NUL-encoded as every other write is (see
 * db.ts: jsonb cannot hold U+0000 either); JSON columns are text in the schema.
 */
function columnsJson(table: RowTable, row: ProjectRow): Record<string, unknown> {
  const record = row.record as unknown as Record<string, unknown>
  const values: Record<string, unknown> = {}
  for (const { field, column, holds } of table.columns) {
    const value = columnValue(record[field], holds, (flag) => flag)
    // Well-formed first: a lone surrogate becomes U+FFFD, as the driver's UTF-8 makes it on every other write (jsonb would refuse it).
    values[column] = typeof value === 'string' ? encodeText(wellFormed(value)) : value
  }
  if (row.kind === 'job') {
    const job = row.record
    values.search = encodeText(tsvectorText(jobSearchLexemes(job.title, job.text)))
  }
  return values
}

/**
 * A project's data out of and into PostgreSQL (see ProjectDataRepository).
 *
 * Export: one REPEATABLE READ READ ONLY transaction (one snapshot: every table as of its first
 * statement; writers never wait for it) reading each table through a cursor, FETCH_ROWS at a
 * time.
 *
 * Replace: one transaction. It first locks the project's row (FOR UPDATE): a write that adds a
 * row naming the project (its foreign key takes KEY SHARE on that row) waits until the replace
 * committed, and one that already added a row is waited for, so every other write lands wholly
 * before or wholly after the replace. Rows are inserted INSERT_ROWS at a time, each batch under
 * a savepoint: a batch that fails is tried again row by row to name the row at fault. The count
 * and search triggers keep job counts and words exact as rows go and come.
 */
export class PostgresProjectDataRepository implements ProjectDataRepository {
  constructor(private readonly pool: pg.Pool) {}

  async *exportProject(projectId: string): AsyncGenerator<ProjectRow> {
    const client = await this.pool.connect()
    let broken: Error | undefined
    let finished = false
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
      for (const table of ROW_TABLES) {
        await query(client, `DECLARE project_rows NO SCROLL CURSOR FOR ${selectOf(table)}`, [projectId])
        for (;;) {
          const { rows } = await query<Record<string, unknown>>(client, `FETCH ${FETCH_ROWS} FROM project_rows`)
          for (const row of rows) {
            const record: Record<string, unknown> = {}
            for (const { field, holds } of table.columns) record[field] = fieldValue(row[field], holds)
            yield { kind: table.kind, record } as unknown as ProjectRow
          }
          if (rows.length < FETCH_ROWS) break
        }
        await client.query('CLOSE project_rows')
      }
      await client.query('COMMIT')
      finished = true
    } finally {
      if (!finished) {
        // Abandoned or failed: the read-only transaction ends; a connection that cannot end it goes.
        await client.query('ROLLBACK').catch((error: Error) => (broken = error))
      }
      client.release(broken)
    }
  }

  async replaceProject(
    projectId: string,
    rows: AsyncIterable<ProjectRow> | Iterable<ProjectRow>,
    options: ReplaceProjectOptions = {},
  ): Promise<ReplacedProject> {
    return inTransaction(this.pool, async (client) => {
      const project = await client.query('SELECT 1 FROM projects WHERE id = $1 FOR UPDATE', [projectId])
      if (project.rowCount === 0) throw new Error(`There is no project ${projectId}`)
      const keyIds = await query<{ id: string }>(client, 'SELECT id FROM api_keys WHERE project_id = $1', [projectId])
      const userIds = await query<{ id: string }>(client, 'SELECT id FROM users')
      const known = {
        keyIds: new Set(keyIds.rows.map(({ id }) => id)),
        userIds: new Set(userIds.rows.map(({ id }) => id)),
        owner: options.owner,
      }
      const media = await query<{ media_file: string }>(
        client,
        'SELECT media_file FROM jobs WHERE project_id = $1 AND media_file IS NOT NULL',
        [projectId],
      )
      // References first: attempts before their deliveries, numbers before the agents they name.
      for (const table of [...ROW_TABLES].reverse())
        await query(client, `DELETE FROM ${table.table} t WHERE ${table.ofProject('$1')}`, [projectId])

      const counts = noCounts()
      let batch: { rowNumber: number; row: ProjectRow }[] = []
      const flush = async () => {
        const [head] = batch
        if (head === undefined) return
        const table = TABLE_OF_KIND[head.row.kind]
        const pending = batch
        batch = []
        await client.query('SAVEPOINT project_rows')
        try {
          await client.query(insertOf(table), [JSON.stringify(pending.map(({ row }) => columnsJson(table, row)))])
          await client.query('RELEASE SAVEPOINT project_rows')
        } catch (error) {
          await client.query('ROLLBACK TO SAVEPOINT project_rows')
          for (const { rowNumber, row } of pending) {
            try {
              await client.query(insertOf(table), [JSON.stringify([columnsJson(table, row)])])
            } catch (rowFailure) {
              // Data exceptions (22) and integrity violations (23) are the row's; anything else (a full disk, a lost connection) is the store's.
              const code = (rowFailure as pg.DatabaseError).code ?? ''
              if (code.startsWith('22') || code.startsWith('23'))
                throw rowError(rowNumber, row, describePostgresError(rowFailure as pg.DatabaseError))
              throw rowFailure
            }
          }
          throw error
        }
      }

      for await (const { rowNumber, row } of checkedRows(rows, projectId, known, counts)) {
        const head = batch[0]
        if (head && (head.row.kind !== row.kind || batch.length >= INSERT_ROWS)) await flush()
        batch.push({ rowNumber, row })
      }
      await flush()
      return { counts, mediaBefore: media.rows.map((row) => row.media_file) }
    })
  }

  async projectCounts(projectId: string): Promise<ProjectCounts> {
    const selects = ROW_TABLES.map(
      (table) => `(SELECT count(*) FROM ${table.table} t WHERE ${table.ofProject('$1')}) AS "${COUNT_OF_KIND[table.kind]}"`,
    )
    const { rows } = await this.pool.query<ProjectCounts>(`SELECT ${selects.join(', ')}`, [projectId])
    return present(rows[0], 'the counts row')
  }
}

/** A database error in words, with the detail that names the value (`Key (id)=(…) already exists.`). */
function describePostgresError(error: pg.DatabaseError): string {
  return error.detail ? `${error.message} (${error.detail})` : error.message
}
