import type { Migration } from '../migrate'

/**
 * Conversations are jobs: type CONVERSATION, and status IN_PROGRESS while a call runs. The
 * checks are replaced (the old rows all satisfy the wider ones), and running calls get an
 * index for the sweep that ends calls whose instance died. A call's words change as it goes
 * (its transcript is its text), so a job whose search words change gets its new words in
 * job_words and its row of job_search rewritten, as an inserted job does (0007, 0008).
 */
export const conversations: Migration = {
  version: 9,
  name: 'conversations',
  sql: `
    ALTER TABLE jobs DROP CONSTRAINT jobs_type_check;
    ALTER TABLE jobs ADD CONSTRAINT jobs_type_check CHECK (type IN ('TRANSCRIPTION', 'TRANSLATION', 'TTS', 'AI_CONTENT', 'CONVERSATION'));
    ALTER TABLE jobs DROP CONSTRAINT jobs_status_check;
    ALTER TABLE jobs ADD CONSTRAINT jobs_status_check CHECK (status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'));
    -- Keyed by seq, not the lease: an index that names a lease column would make every claim a non-HOT update (0006).
    CREATE INDEX jobs_in_progress ON jobs (seq) WHERE status = 'IN_PROGRESS';

    CREATE FUNCTION job_search_rewritten() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO job_words (word)
        SELECT DISTINCT n.word FROM unnest(tsvector_to_array(new.search)) AS n (word)
          WHERE NOT EXISTS (SELECT FROM job_words w WHERE w.word = n.word) ORDER BY n.word
        ON CONFLICT (word) DO NOTHING;
      UPDATE job_search
        SET words = ARRAY(SELECT w.id FROM job_words w WHERE w.word = ANY (tsvector_to_array(new.search)) ORDER BY w.id)
        WHERE seq = new.seq;
      RETURN NULL;
    END $$;
    CREATE TRIGGER job_search_words_update AFTER UPDATE OF search ON jobs FOR EACH ROW
      WHEN (old.search IS DISTINCT FROM new.search)
      EXECUTE FUNCTION job_search_rewritten();
  `,
}
