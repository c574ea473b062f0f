import type { Migration } from '../migrate'

/**
 * A search's count from a narrow table. PostgreSQL counts a bitmap's matches by reading each
 * one's table page (to check it is visible): a word in 10 % of a million jobs is in 67,888 of
 * the jobs table's ~100,000 pages (~780 bytes a job), a count of ~230 ms. job_search holds per
 * job only what a count tests: its project, status and type as small integer codes (projects.code,
 * job_status_code, job_type_code) and its words as ids of job_words; the same count reads only
 * the pages of its matches here: at a million jobs ~142 bytes a job, 18,643 pages (146 MB; with
 * text codes 24,427 pages, 192 MB), against jobs' 111,458. A word in 10 % of them is on every
 * page, so its count reads all of job_search (EXPLAIN ANALYZE: 107 ms with the default
 * shared_buffers of 128 MB, read from the OS cache each time; 48 ms once it fits, at 512 MB).
 * GIN cannot answer a count from its index alone (no index-only scans) and PostgreSQL 15.18
 * fetches all-visible pages of a bitmap scan too, so pages are what a count costs.
 * jobs-repository.ts counts here when every term of a search stands for at most 64 words (else
 * in jobs, as before); pages are still read from jobs. The cost: a job's end also
 * moves its row here (~0.07 ms more per status change, measured over 2,000 of them).
 *
 * Kept exact in the writing transaction: the insert trigger of 0007 adds a job's words, then
 * its row here; an update of its project, status or type moves it; a deleted job's row goes
 * with it (ON DELETE CASCADE).
 */
export const jobSearchTable: Migration = {
  version: 8,
  name: 'job-search-table',
  sql: `
    ALTER TABLE job_words ADD COLUMN id integer GENERATED ALWAYS AS IDENTITY;
    CREATE UNIQUE INDEX job_words_id ON job_words (id);
    ALTER TABLE projects ADD COLUMN code integer GENERATED ALWAYS AS IDENTITY;
    CREATE UNIQUE INDEX projects_code ON projects (code);

    -- A status's and a type's code in job_search; NULL for a value no job can have (the jobs CHECKs).
    CREATE FUNCTION job_status_code(status text) RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN
      CASE status WHEN 'PENDING' THEN 1 WHEN 'IN_PROGRESS' THEN 2 WHEN 'COMPLETED' THEN 3 WHEN 'FAILED' THEN 4 END;
    CREATE FUNCTION job_type_code(type text) RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN
      CASE type WHEN 'TRANSCRIPTION' THEN 1 WHEN 'TRANSLATION' THEN 2 WHEN 'TTS' THEN 3 WHEN 'AI_CONTENT' THEN 4 WHEN 'CONVERSATION' THEN 5 END;

    -- Columns in alignment order (8, 4, 2, 2 bytes, then the array): no padding.
    CREATE TABLE job_search (
      seq      bigint PRIMARY KEY REFERENCES jobs (seq) ON DELETE CASCADE,
      project  integer NOT NULL,
      status   smallint NOT NULL,
      type     smallint NOT NULL,
      words    integer[] NOT NULL
    );
    INSERT INTO job_search (seq, project, status, type, words)
      SELECT j.seq, p.code, job_status_code(j.status), job_type_code(j.type), ARRAY(SELECT w.id FROM job_words w WHERE w.word = ANY (tsvector_to_array(j.search)) ORDER BY w.id)
      FROM jobs j JOIN projects p ON p.id = j.project_id;
    CREATE INDEX job_search_words ON job_search USING gin (project, status, type, words);

    -- New words only: ON CONFLICT alone would draw an id for every word of every job (ids run out).
    CREATE OR REPLACE FUNCTION job_words_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO job_words (word)
        SELECT DISTINCT n.word FROM (SELECT unnest(tsvector_to_array(search)) AS word FROM inserted_jobs) n
          WHERE NOT EXISTS (SELECT FROM job_words w WHERE w.word = n.word) ORDER BY n.word
        ON CONFLICT (word) DO NOTHING;
      INSERT INTO job_search (seq, project, status, type, words)
        SELECT i.seq, p.code, job_status_code(i.status), job_type_code(i.type), ARRAY(SELECT w.id FROM job_words w WHERE w.word = ANY (tsvector_to_array(i.search)) ORDER BY w.id)
        FROM inserted_jobs i JOIN projects p ON p.id = i.project_id;
      RETURN NULL;
    END $$;

    CREATE FUNCTION job_search_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE job_search
        SET project = (SELECT p.code FROM projects p WHERE p.id = new.project_id), status = job_status_code(new.status), type = job_type_code(new.type)
        WHERE seq = new.seq;
      RETURN NULL;
    END $$;
    CREATE TRIGGER job_search_update AFTER UPDATE OF project_id, type, status ON jobs FOR EACH ROW
      WHEN (old.project_id IS DISTINCT FROM new.project_id OR old.type IS DISTINCT FROM new.type OR old.status IS DISTINCT FROM new.status)
      EXECUTE FUNCTION job_search_moved();
  `,
}
