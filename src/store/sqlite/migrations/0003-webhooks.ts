import type { Migration } from '../migrate'

/**
 * The webhook outbox and its journal. A delivery is written in the transaction that ends its
 * job, so a job never ends without its delivery; it is then claimed with a lease, like a job,
 * so a delivery whose process died is sent again (at least once). Its payload is frozen when
 * it is stored: every attempt sends the same bytes under the same webhook-id.
 */
export const webhooks: Migration = {
  version: 3,
  name: 'webhooks',
  sql: `
    CREATE TABLE webhook_deliveries (
      seq                  INTEGER PRIMARY KEY,
      id                   TEXT NOT NULL UNIQUE,
      project_id           TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      event                TEXT NOT NULL,
      -- The job the event is about; later events (call.ended) leave it null.
      job_id               TEXT,
      url                  TEXT NOT NULL,
      auth_key             TEXT,
      -- Ciphertext from the SecretBox.
      auth_secret          TEXT,
      payload              TEXT NOT NULL,
      status               TEXT NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'EXHAUSTED')),
      -- Every attempt ever made, and the attempts of the current round (send again starts a new round).
      attempts             INTEGER NOT NULL DEFAULT 0,
      round_attempts       INTEGER NOT NULL DEFAULT 0,
      next_attempt_at      INTEGER,
      lease_owner          TEXT,
      lease_expires_at     INTEGER,
      last_status_code     INTEGER,
      last_error           TEXT,
      created_at           TEXT NOT NULL,
      updated_at           TEXT NOT NULL,
      delivered_at         TEXT
    );
    -- The sender's queue: only waiting deliveries, in the order they fall due.
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'PENDING';
    -- The journal's pages, newest first: all of a project's, or those of one status.
    CREATE INDEX webhook_deliveries_project ON webhook_deliveries (project_id, seq);
    CREATE INDEX webhook_deliveries_project_status ON webhook_deliveries (project_id, status, seq);
    CREATE INDEX webhook_deliveries_job ON webhook_deliveries (job_id, seq) WHERE job_id IS NOT NULL;

    CREATE TABLE webhook_attempts (
      seq                  INTEGER PRIMARY KEY,
      delivery_id          TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
      attempt              INTEGER NOT NULL,
      started_at           TEXT NOT NULL,
      -- Null when no answer came (connection refused, timeout, reset).
      status_code          INTEGER,
      latency_ms           REAL NOT NULL,
      error                TEXT,
      -- The first KiB of the answer's body, as text.
      response_excerpt     TEXT
    );
    CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, seq);
  `,
}
