import type { Migration } from '../migrate'

/**
 * A transcription job keeps the media URL its client gave until the job runs and fetches it,
 * and a long job says how far it got (progress, 0 to 1) as it renews its lease.
 */
export const jobSourceUrlAndProgress: Migration = {
  version: 10,
  name: 'job-source-url-and-progress',
  sql: `
    ALTER TABLE jobs ADD COLUMN source_url text;
    ALTER TABLE jobs ADD COLUMN progress double precision;
  `,
}
