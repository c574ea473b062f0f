import type { Migration } from '../migrate'

/*
 * Conversations are jobs: type CONVERSATION, and status IN_PROGRESS while a call runs. SQLite
 * cannot change a CHECK constraint in place (and better-sqlite3 keeps the schema table
 * read-only), so the jobs table is rebuilt as SQLite's documented procedure says: a new table
 * with the wider checks, the rows copied (seq included, so the search index stays in step),
 * the old table dropped with its indexes and triggers, the new one renamed, and the indexes
 * and triggers made again from their stored definitions. The counts table and the search
 * index are tables of their own and are kept as they are.
 */
export const conversations: Migration = {
  version: 5,
  name: 'conversations',
  sql: `
    CREATE TABLE jobs_next (
      seq                  INTEGER PRIMARY KEY,
      id                   TEXT NOT NULL UNIQUE,
      project_id           TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      api_key_id           TEXT NOT NULL REFERENCES api_keys (id),
      user_id              TEXT NOT NULL REFERENCES users (id),
      type                 TEXT NOT NULL CHECK (type IN ('TRANSCRIPTION', 'TRANSLATION', 'TTS', 'AI_CONTENT', 'CONVERSATION')),
      status               TEXT NOT NULL CHECK (status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED')),
      title                TEXT NOT NULL,
      model                TEXT NOT NULL,
      processing_type      TEXT NOT NULL,
      system_model_key     TEXT NOT NULL,
      voice_id             TEXT,
      text                 TEXT,
      ai_parts             TEXT,
      job_response         TEXT,
      error_code           TEXT,
      error_message        TEXT,
      relevant_job_id      TEXT,
      voice_agent_id       TEXT,
      agent_details        TEXT,
      from_lng             TEXT,
      to_lng               TEXT,
      from_script          TEXT,
      to_script            TEXT,
      webhook_url          TEXT,
      webhook_auth_key     TEXT,
      webhook_auth_secret  TEXT,
      media_file           TEXT UNIQUE,
      preview_token        TEXT NOT NULL UNIQUE,
      usage_seconds        REAL,
      total_cost           REAL NOT NULL,
      attempts             INTEGER NOT NULL DEFAULT 0,
      lease_owner          TEXT,
      lease_expires_at     INTEGER,
      run_after            INTEGER NOT NULL DEFAULT 0,
      created_at           TEXT NOT NULL,
      updated_at           TEXT NOT NULL
    );
    CREATE TEMP TABLE jobs_schema_kept AS
      SELECT sql FROM sqlite_schema WHERE tbl_name = 'jobs' AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name;
    INSERT INTO jobs_next SELECT * FROM jobs;
    DROP TABLE jobs;
    ALTER TABLE jobs_next RENAME TO jobs;
    -- Running calls: the sweep for calls whose service died looks at their leases.
    CREATE INDEX jobs_in_progress ON jobs (lease_expires_at) WHERE status = 'IN_PROGRESS';
  `,
  after: (db) => {
    const kept = db.prepare('SELECT sql FROM temp.jobs_schema_kept').pluck().all() as string[]
    for (const definition of kept) db.exec(definition)
    db.exec('DROP TABLE temp.jobs_schema_kept')
  },
}
