import type { Migration } from '../migrate'

/**
 * Jobs and their queue state in one table, as in SQLite: a job is claimed by setting a lease
 * in its own row (UPDATE … WHERE seq = (SELECT … FOR UPDATE SKIP LOCKED)), so concurrent
 * claimers skip each other's rows instead of queueing on them.
 *
 * Counts: SQLite keeps one row per (project, type, status) up to date by trigger. Here every
 * writer would then queue on that one hot row until it commits (and two transactions touching
 * two counters in opposite orders could deadlock), so triggers append deltas instead
 * (job_count_deltas, insert-only, no lock taken on anything shared), a read sums job_counts
 * and the deltas in one snapshot (exact), and the deltas are folded into job_counts now and
 * then (see PostgresJobsRepository.compactCounts).
 *
 * Search: job_search holds the job's words (title and text, folded and split by the
 * application, see search-words.ts) as a tsvector of bare lexemes under a GIN index; a search
 * is a tsquery of 'word':* prefixes. Measured against pg_trgm (GIN gin_trgm_ops on
 * lower(title || ' ' || text), LIKE '%word%' plus a word-start regex) by bench/postgres-search.ts
 * at 1,000,000 jobs, 2 cores, PostgreSQL 15 (bench/results/postgres-search.json), median ms of
 * a page with its exact count, tsvector vs trigram count:
 *   rare word (17k matches) 34 vs 490; two words (4.7k) 50 vs 47; Arabic word (34k) 304 vs 286;
 *   Arabic two-letter prefix (33k) 199 vs 871; common prefix (113k) 392 vs 1110;
 *   a word in half the jobs (489k) 605 vs 2403; no match 2.7 vs 0.7.
 * Trigram pages alone are fast for common words (the created_at index finds 50 at once) but
 * the exact count a list shows is not, and its index is larger; tsvector wins where it counts.
 * Counts cost in proportion to the matches (GIN has no index-only scan): a one-word search
 * hitting half a million jobs takes ~0.6 s. A page without search, with its counts, is ~3 ms
 * (count(*) over the project's index: 244 ms).
 */
export const jobs: Migration = {
  version: 2,
  name: 'jobs',
  sql: `
    CREATE TABLE jobs (
      seq                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id                   text COLLATE "C" NOT NULL UNIQUE,
      project_id           text COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      api_key_id           text COLLATE "C" NOT NULL REFERENCES api_keys (id),
      user_id              text COLLATE "C" NOT NULL REFERENCES users (id),
      type                 text COLLATE "C" NOT NULL CHECK (type IN ('TRANSCRIPTION', 'TRANSLATION', 'TTS', 'AI_CONTENT')),
      status               text COLLATE "C" NOT NULL CHECK (status IN ('PENDING', 'COMPLETED', 'FAILED')),
      title                text COLLATE "C" NOT NULL,
      model                text NOT NULL,
      processing_type      text NOT NULL,
      system_model_key     text NOT NULL,
      voice_id             text,
      text                 text,
      ai_parts             text,
      job_response         text,
      error_code           text,
      error_message        text,
      relevant_job_id      text COLLATE "C",
      voice_agent_id       text COLLATE "C",
      agent_details        text,
      from_lng             text,
      to_lng               text,
      from_script          text,
      to_script            text,
      webhook_url          text,
      webhook_auth_key     text,
      webhook_auth_secret  text,
      media_file           text COLLATE "C" UNIQUE,
      preview_token        text COLLATE "C" NOT NULL UNIQUE,
      usage_seconds        double precision,
      total_cost           double precision NOT NULL,
      attempts             integer NOT NULL DEFAULT 0,
      lease_owner          text COLLATE "C",
      lease_expires_at     bigint,
      run_after            bigint NOT NULL DEFAULT 0,
      created_at           text COLLATE "C" NOT NULL,
      updated_at           text COLLATE "C" NOT NULL,
      search               tsvector NOT NULL DEFAULT ''::tsvector
    );
    -- The queue: pending jobs in arrival order (claims, lease owners, queue counts).
    CREATE INDEX jobs_pending ON jobs (created_at, id) WHERE status = 'PENDING';
    CREATE INDEX jobs_pending_run_after ON jobs (run_after) WHERE status = 'PENDING' AND lease_owner IS NULL;
    -- Lists: every sort is (field, created_at, id), with and without the two filters.
    CREATE INDEX jobs_by_created ON jobs (project_id, created_at, id);
    CREATE INDEX jobs_by_status ON jobs (project_id, status, created_at, id);
    CREATE INDEX jobs_by_type ON jobs (project_id, type, created_at, id);
    CREATE INDEX jobs_by_updated ON jobs (project_id, updated_at, created_at, id);
    CREATE INDEX jobs_by_title ON jobs (project_id, title, created_at, id);
    CREATE INDEX jobs_by_cost ON jobs (project_id, total_cost, created_at, id);
    CREATE INDEX jobs_by_source ON jobs (relevant_job_id, created_at) WHERE relevant_job_id IS NOT NULL;
    CREATE INDEX jobs_search ON jobs USING gin (search);

    CREATE TABLE job_counts (
      project_id  text COLLATE "C" NOT NULL,
      type        text COLLATE "C" NOT NULL,
      status      text COLLATE "C" NOT NULL,
      count       bigint NOT NULL,
      PRIMARY KEY (project_id, type, status)
    );
    CREATE TABLE job_count_deltas (
      seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      project_id  text COLLATE "C" NOT NULL,
      type        text COLLATE "C" NOT NULL,
      status      text COLLATE "C" NOT NULL,
      delta       bigint NOT NULL
    );
    CREATE INDEX job_count_deltas_by_project ON job_count_deltas (project_id);

    -- Inserts and deletes: one delta per group and statement (a bulk insert adds a few rows, not one per job).
    CREATE FUNCTION job_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO job_count_deltas (project_id, type, status, delta)
        SELECT project_id, type, status, count(*) FROM inserted_jobs GROUP BY project_id, type, status;
      RETURN NULL;
    END $$;
    CREATE FUNCTION job_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO job_count_deltas (project_id, type, status, delta)
        SELECT project_id, type, status, -count(*) FROM deleted_jobs GROUP BY project_id, type, status;
      RETURN NULL;
    END $$;
    -- Updates: only rows whose group changed (a lease or a retry changes none).
    CREATE FUNCTION job_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO job_count_deltas (project_id, type, status, delta)
        VALUES (old.project_id, old.type, old.status, -1), (new.project_id, new.type, new.status, 1);
      RETURN NULL;
    END $$;
    CREATE TRIGGER job_counts_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS inserted_jobs
      FOR EACH STATEMENT EXECUTE FUNCTION job_counts_inserted();
    CREATE TRIGGER job_counts_delete AFTER DELETE ON jobs REFERENCING OLD TABLE AS deleted_jobs
      FOR EACH STATEMENT EXECUTE FUNCTION job_counts_deleted();
    CREATE TRIGGER job_counts_update AFTER UPDATE OF project_id, type, status ON jobs FOR EACH ROW
      WHEN (old.project_id IS DISTINCT FROM new.project_id OR old.type IS DISTINCT FROM new.type OR old.status IS DISTINCT FROM new.status)
      EXECUTE FUNCTION job_counts_moved();
  `,
}
