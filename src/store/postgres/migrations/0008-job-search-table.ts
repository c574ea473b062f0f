import type { Migration } from '../migrate'

/**
 * A search's count from a narrow table. PostgreSQL counts a bitmap's matches by reading each
 * one's table page (to check it is visible): a word in 10 % of a million jobs is in 67,888 of
 * the jobs table's ~100,000 pages (~780 bytes a job), a count of ~230 ms. job_search holds per
 * job only what a count tests: its project, status, type and its words as ids of job_words
 * (~190 bytes a job: 24,427 pages, 192 MB, for a million), so the same count reads 24,314 pages
 * (~80 ms). jobs-repository.ts counts here when every term of a search stands for at most 64
 * words (else in jobs, as before); pages are still read from jobs. The cost: a job's end also
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

    CREATE TABLE job_search (
      seq         bigint PRIMARY KEY REFERENCES jobs (seq) ON DELETE CASCADE,
      project_id  text COLLATE "C" NOT NULL,
      status      text COLLATE "C" NOT NULL,
      type        text COLLATE "C" NOT NULL,
      words       integer[] NOT NULL
    );
    INSERT INTO job_search (seq, project_id, status, type, words)
      SELECT j.seq, j.project_id, j.status, j.type, ARRAY(SELECT w.id FROM job_words w WHERE w.word = ANY (tsvector_to_array(j.search)) ORDER BY w.id)
      FROM jobs j;
    CREATE INDEX job_search_words ON job_search USING gin (project_id, status, type, words);

    CREATE OR REPLACE FUNCTION job_words_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO job_words (word)
        SELECT DISTINCT unnest(tsvector_to_array(search)) AS word FROM inserted_jobs ORDER BY word
        ON CONFLICT (word) DO NOTHING;
      INSERT INTO job_search (seq, project_id, status, type, words)
        SELECT i.seq, i.project_id, i.status, i.type, ARRAY(SELECT w.id FROM job_words w WHERE w.word = ANY (tsvector_to_array(i.search)) ORDER BY w.id)
        FROM inserted_jobs i;
      RETURN NULL;
    END $$;

    CREATE FUNCTION job_search_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE job_search SET project_id = new.project_id, status = new.status, type = new.type WHERE seq = new.seq;
      RETURN NULL;
    END $$;
    CREATE TRIGGER job_search_update AFTER UPDATE OF project_id, type, status ON jobs FOR EACH ROW
      WHEN (old.project_id IS DISTINCT FROM new.project_id OR old.type IS DISTINCT FROM new.type OR old.status IS DISTINCT FROM new.status)
      EXECUTE FUNCTION job_search_moved();
  `,
}
