import type { Migration } from '../migrate'

/**
 * Agent test suites (one per agent, the suite as JSON) and test runs with their results (JSON,
 * rewritten as scenarios finish). Deleting an agent deletes both. `lease_until` (ms) is renewed
 * by the runner while the run is RUNNING: a run whose lease ran out was cut off by a stopped service.
 */
export const agentTestRuns: Migration = {
  version: 9,
  name: 'agent-test-runs',
  sql: `
    CREATE TABLE agent_test_suites (
      agent_id    TEXT NOT NULL PRIMARY KEY REFERENCES voice_agents (id) ON DELETE CASCADE,
      project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      suite       TEXT NOT NULL,
      updated_at  TEXT NOT NULL
    );
    CREATE TABLE agent_test_runs (
      id            TEXT NOT NULL PRIMARY KEY,
      project_id    TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      agent_id      TEXT NOT NULL REFERENCES voice_agents (id) ON DELETE CASCADE,
      agent_version INTEGER,
      status        TEXT NOT NULL CHECK (status IN ('RUNNING', 'PASSED', 'FAILED')),
      error         TEXT,
      concurrency   INTEGER NOT NULL,
      repeat        INTEGER NOT NULL,
      results       TEXT NOT NULL,
      lease_until   INTEGER,
      created_at    TEXT NOT NULL,
      updated_at    TEXT NOT NULL
    );
    CREATE INDEX agent_test_runs_by_agent ON agent_test_runs (project_id, agent_id, created_at);
    CREATE INDEX agent_test_runs_running ON agent_test_runs (lease_until) WHERE status = 'RUNNING';
  `,
}
