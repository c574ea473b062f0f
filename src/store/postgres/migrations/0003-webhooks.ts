import type { Migration } from '../migrate'

/**
 * The webhook outbox and its journal, as in SQLite (see src/store/sqlite/migrations/0003-webhooks.ts):
 * a delivery is written in the transaction that ends its job, claimed under a lease in batches
 * (FOR UPDATE SKIP LOCKED), and its payload is frozen when stored.
 */
export const webhooks: Migration = {
  version: 3,
  name: 'webhooks',
  sql: `
    CREATE TABLE webhook_deliveries (
      seq                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id                   text COLLATE "C" NOT NULL UNIQUE,
      project_id           text COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      event                text NOT NULL,
      job_id               text COLLATE "C",
      url                  text NOT NULL,
      auth_key             text,
      auth_secret          text,
      payload              text NOT NULL,
      status               text COLLATE "C" NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'EXHAUSTED')),
      attempts             integer NOT NULL DEFAULT 0,
      round_attempts       integer NOT NULL DEFAULT 0,
      next_attempt_at      bigint,
      lease_owner          text COLLATE "C",
      lease_expires_at     bigint,
      last_status_code     integer,
      last_error           text,
      created_at           text COLLATE "C" NOT NULL,
      updated_at           text COLLATE "C" NOT NULL,
      delivered_at         text COLLATE "C"
    );
    -- The sender's queue: only waiting deliveries, in the order they fall due.
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, seq) WHERE status = 'PENDING';
    CREATE INDEX webhook_deliveries_project ON webhook_deliveries (project_id, seq);
    CREATE INDEX webhook_deliveries_project_status ON webhook_deliveries (project_id, status, seq);
    CREATE INDEX webhook_deliveries_job ON webhook_deliveries (job_id, seq) WHERE job_id IS NOT NULL;

    CREATE TABLE webhook_attempts (
      seq                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      delivery_id          text COLLATE "C" NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
      attempt              integer NOT NULL,
      started_at           text COLLATE "C" NOT NULL,
      status_code          integer,
      latency_ms           double precision NOT NULL,
      error                text,
      response_excerpt     text
    );
    CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, seq);
  `,
}
