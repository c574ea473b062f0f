import type { Migration } from '../migrate'

/**
 * Jobs and their queue state in one table: a job is claimed by setting a lease in the
 * same row (compare-and-swap on status and lease), so no second table can drift from it.
 */
export const jobs: Migration = {
  version: 2,
  name: 'jobs',
  sql: `
    CREATE TABLE jobs (
      -- An explicit rowid: VACUUM keeps it, so the search index below stays in step. Jobs are
      -- written in creation order, so seq is also the order of created_at.
      seq                  INTEGER PRIMARY KEY,
      id                   TEXT NOT NULL UNIQUE,
      project_id           TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      api_key_id           TEXT NOT NULL REFERENCES api_keys (id),
      user_id              TEXT NOT NULL REFERENCES users (id),
      type                 TEXT NOT NULL CHECK (type IN ('TRANSCRIPTION', 'TRANSLATION', 'TTS', 'AI_CONTENT')),
      status               TEXT NOT NULL CHECK (status IN ('PENDING', 'COMPLETED', 'FAILED')),
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
    -- The queue: pending jobs in arrival order.
    CREATE INDEX jobs_pending ON jobs (created_at, id) WHERE status = 'PENDING';
    -- Lists: every sort is (field, created_at, id), with and without the two filters.
    CREATE INDEX jobs_by_created ON jobs (project_id, created_at, id);
    CREATE INDEX jobs_by_status ON jobs (project_id, status, created_at, id);
    CREATE INDEX jobs_by_type ON jobs (project_id, type, created_at, id);
    CREATE INDEX jobs_by_updated ON jobs (project_id, updated_at, created_at, id);
    CREATE INDEX jobs_by_title ON jobs (project_id, title, created_at, id);
    CREATE INDEX jobs_by_cost ON jobs (project_id, total_cost, created_at, id);
    CREATE INDEX jobs_by_source ON jobs (relevant_job_id, created_at) WHERE relevant_job_id IS NOT NULL;

    -- Counts by project, type and status, kept by triggers: totals and filtered counts of
    -- lists stay O(1) at a million jobs, where COUNT(*) over an index takes 100 ms.
    CREATE TABLE job_counts (
      project_id  TEXT NOT NULL,
      type        TEXT NOT NULL,
      status      TEXT NOT NULL,
      count       INTEGER NOT NULL,
      PRIMARY KEY (project_id, type, status)
    ) WITHOUT ROWID;
    CREATE TRIGGER job_counts_insert AFTER INSERT ON jobs BEGIN
      INSERT INTO job_counts (project_id, type, status, count) VALUES (new.project_id, new.type, new.status, 1)
        ON CONFLICT (project_id, type, status) DO UPDATE SET count = count + 1;
    END;
    CREATE TRIGGER job_counts_delete AFTER DELETE ON jobs BEGIN
      UPDATE job_counts SET count = count - 1 WHERE project_id = old.project_id AND type = old.type AND status = old.status;
    END;
    CREATE TRIGGER job_counts_update AFTER UPDATE OF project_id, type, status ON jobs BEGIN
      UPDATE job_counts SET count = count - 1 WHERE project_id = old.project_id AND type = old.type AND status = old.status;
      INSERT INTO job_counts (project_id, type, status, count) VALUES (new.project_id, new.type, new.status, 1)
        ON CONFLICT (project_id, type, status) DO UPDATE SET count = count + 1;
    END;

    -- Word and prefix search over title and text. The scope column holds a job's project,
    -- status and type as tokens (p<project> s<status> t<type>), so FTS5 itself narrows a
    -- search to them: counting the matches never visits the jobs table.
    CREATE VIRTUAL TABLE jobs_search USING fts5 (
      title, text, scope, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER jobs_search_insert AFTER INSERT ON jobs BEGIN
      INSERT INTO jobs_search (rowid, title, text, scope) VALUES (new.seq, new.title, coalesce(new.text, ''),
        'p' || replace(new.project_id, '-', '') || ' s' || lower(new.status) || ' t' || lower(replace(new.type, '_', '')));
    END;
    CREATE TRIGGER jobs_search_delete AFTER DELETE ON jobs BEGIN
      DELETE FROM jobs_search WHERE rowid = old.seq;
    END;
    CREATE TRIGGER jobs_search_update AFTER UPDATE OF title, text, status, type, project_id ON jobs BEGIN
      DELETE FROM jobs_search WHERE rowid = old.seq;
      INSERT INTO jobs_search (rowid, title, text, scope) VALUES (new.seq, new.title, coalesce(new.text, ''),
        'p' || replace(new.project_id, '-', '') || ' s' || lower(new.status) || ' t' || lower(replace(new.type, '_', '')));
    END;
  `,
}
