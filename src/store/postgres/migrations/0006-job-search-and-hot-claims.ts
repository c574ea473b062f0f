import type { Migration } from '../migrate'

/**
 * Searches whose index holds all their conditions, and claims that rewrite no index.
 *
 * Search: a list's `filtered` is the exact number of matching jobs. Under 0002's GIN index over
 * `search` alone, a search's bitmap held every job with the words in any project, status or type,
 * and each was fetched from the table to be tested against the rest. The GIN index now holds
 * the project, status and type too (btree_gin: PostgreSQL's contrib, a trusted extension any
 * database owner may create), so the bitmap holds exactly the matching jobs and nothing is
 * tested again: at a million jobs, 'payment':* & 'late':* among FAILED jobs visits 6,484 table
 * pages instead of 20,639. It replaces the old index (every search names its project). A match
 * is still visited once, to check it is visible (PostgreSQL 15.18's bitmap scans read every page
 * they count, all-visible or not): a word in 10 % of a million jobs costs ~65,000 page reads.
 *
 * Claims: a claim sets lease_owner, which jobs_pending_run_after's predicate named, so no claim
 * was a HOT update: each wrote a new entry in all ten indexes, the GIN one included. The index
 * is rebuilt without lease columns, and new table pages keep a tenth free (fillfactor 90) so
 * a claim's new row version fits on its page; a claim now touches no index.
 *
 * On an existing database the GIN index is built in this migration's transaction (the table
 * is locked for writes meanwhile: 6 s for a million jobs on two cores).
 */
export const jobSearchAndHotClaims: Migration = {
  version: 6,
  name: 'job-search-and-hot-claims',
  sql: `
    CREATE EXTENSION IF NOT EXISTS btree_gin;
    CREATE INDEX jobs_search_by_project ON jobs USING gin (project_id, status, type, search);
    DROP INDEX jobs_search;

    DROP INDEX jobs_pending_run_after;
    CREATE INDEX jobs_pending_run_after ON jobs (run_after) WHERE status = 'PENDING';
    ALTER TABLE jobs SET (fillfactor = 90);
  `,
}
