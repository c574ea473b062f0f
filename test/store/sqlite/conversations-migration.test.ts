import BetterSqlite3 from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { migrate } from '../../../src/store/sqlite/migrate'
import { MIGRATIONS } from '../../../src/store/sqlite/migrations'
import { SqliteJobsRepository } from '../../../src/store/sqlite/jobs-repository'
import { jobRecord } from '../../helpers/job-record'
import { JOB_COLUMNS } from '../../../src/store/columns'
import type { JobRecord } from '../../../src/store/records'
import { makeTempDir } from '../../helpers/temp-dir'

describe('the conversations migration (jobs rebuilt with wider checks)', () => {
  it('keeps every job, its counts, its search entry, the indexes and triggers, and then takes CONVERSATION and IN_PROGRESS', async () => {
    const db = new BetterSqlite3(join(makeTempDir(), 'voicedesk.db'))
    db.pragma('foreign_keys = ON')
    const before = MIGRATIONS.findIndex((migration) => migration.name === 'conversations')
    expect(before).toBeGreaterThan(0)
    migrate(db, MIGRATIONS.slice(0, before))
    db.prepare("INSERT INTO projects (id, name, is_default, created_at) VALUES ('p', 'P', 1, 'x')").run()
    db.prepare("INSERT INTO users (id, name, created_at) VALUES ('u', 'U', 'x')").run()
    db.prepare(
      "INSERT INTO api_keys (id, project_id, user_id, name, key_hash, key_hint, created_at) VALUES ('k', 'p', 'u', 'k', 'h', 'x…y', 'x')",
    ).run()
    // Written as the schema before it holds a job: without the columns later migrations added (0006's source_url and progress).
    const columns = JOB_COLUMNS.filter(([field]) => field !== 'sourceUrl' && field !== 'progress')
    const insertOld = db.prepare(
      `INSERT INTO jobs (${columns.map(([, column]) => column).join(', ')}) VALUES (${columns.map(([field]) => `@${field}`).join(', ')})`,
    )
    const jobs = {
      insert: async (record: JobRecord) =>
        insertOld.run(
          Object.fromEntries(
            columns.map(([field]) => [
              field,
              field === 'aiParts' || field === 'jobResponse'
                ? record[field] === null
                  ? null
                  : JSON.stringify(record[field])
                : record[field],
            ]),
          ),
        ),
    }
    const old = [
      jobRecord({ projectId: 'p', apiKeyId: 'k', userId: 'u', text: 'zebra crossing' }),
      jobRecord({ projectId: 'p', apiKeyId: 'k', userId: 'u', status: 'PENDING', type: 'TTS' }),
    ]
    for (const record of old) await jobs.insert(record)
    const schemaBefore = db
      .prepare("SELECT type, name, sql FROM sqlite_schema WHERE tbl_name = 'jobs' AND type IN ('index', 'trigger') ORDER BY name")
      .all()

    migrate(db, MIGRATIONS)

    const migrated = new SqliteJobsRepository(db)
    expect(await migrated.findById(old[0]!.id)).toEqual(old[0])
    expect(await migrated.findById(old[1]!.id)).toEqual(old[1])
    const schemaAfter = db
      .prepare(
        // Besides the rebuild: the index this migration adds, the call-facts index a later one (0011) adds, and 0012's rollup triggers.
        `SELECT type, name, sql FROM sqlite_schema WHERE tbl_name = 'jobs' AND type IN ('index', 'trigger')
          AND name NOT IN ('jobs_in_progress', 'jobs_call_facts', 'job_rollup_insert', 'job_rollup_delete', 'job_rollup_update',
            'call_outcome_rollup_insert', 'call_outcome_rollup_delete', 'call_outcome_rollup_update') ORDER BY name`,
      )
      .all()
    expect(schemaAfter).toEqual(schemaBefore)
    const search = await migrated.list('p', { words: ['zebra'], sort: 'createdAt', direction: 'desc', limit: 10, offset: 0 })
    expect(search.records.map((record) => record.id)).toEqual([old[0]!.id])
    expect(search.total).toBe(2)

    const call = jobRecord({ projectId: 'p', apiKeyId: 'k', userId: 'u', type: 'CONVERSATION', status: 'IN_PROGRESS', text: 'hello there' })
    await migrated.insert(call)
    const inProgress = await migrated.list('p', { status: 'IN_PROGRESS', sort: 'createdAt', direction: 'desc', limit: 10, offset: 0 })
    expect(inProgress).toMatchObject({ total: 3, filtered: 1 })
    expect(inProgress.records[0]!.id).toBe(call.id)
    expect(() => db.prepare("UPDATE jobs SET status = 'RUNNING' WHERE id = ?").run(call.id)).toThrow(/CHECK constraint/)
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
  })
})
