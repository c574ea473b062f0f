import type { Migration } from '../migrate'

/**
 * Conversations are jobs: type CONVERSATION, and status IN_PROGRESS while a call runs. The
 * checks are replaced (the old rows all satisfy the wider ones), and running calls get an
 * index for the sweep that ends calls whose instance died.
 */
export const conversations: Migration = {
  version: 6,
  name: 'conversations',
  sql: `
    ALTER TABLE jobs DROP CONSTRAINT jobs_type_check;
    ALTER TABLE jobs ADD CONSTRAINT jobs_type_check CHECK (type IN ('TRANSCRIPTION', 'TRANSLATION', 'TTS', 'AI_CONTENT', 'CONVERSATION'));
    ALTER TABLE jobs DROP CONSTRAINT jobs_status_check;
    ALTER TABLE jobs ADD CONSTRAINT jobs_status_check CHECK (status IN ('PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'));
    CREATE INDEX jobs_in_progress ON jobs (lease_expires_at) WHERE status = 'IN_PROGRESS';
  `,
}
