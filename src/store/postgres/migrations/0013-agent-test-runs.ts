import type { Migration } from '../migrate'

/**
 * Agent test suites (one per agent, the suite as JSON text) and test runs with their results
 * (JSON text, rewritten as scenarios finish). Deleting an agent deletes both. `lease_until` (ms)
 * is renewed by the runner while the run is RUNNING: a run whose lease ran out was cut off by a
 * stopped service. `seq` orders runs made in the same millisecond.
 */
export const agentTestRuns: Migration = {
  version: 13,
  name: 'agent-test-runs',
  sql: `
    CREATE TABLE agent_test_suites (
      agent_id    text COLLATE "C" NOT NULL PRIMARY KEY REFERENCES voice_agents (id) ON DELETE CASCADE,
      project_id  text COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      suite       text NOT NULL,
      updated_at  text COLLATE "C" NOT NULL
    );
    CREATE TABLE agent_test_runs (
      id            text COLLATE "C" NOT NULL PRIMARY KEY,
      seq           bigint GENERATED ALWAYS AS IDENTITY,
      project_id    text COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      agent_id      text COLLATE "C" NOT NULL REFERENCES voice_agents (id) ON DELETE CASCADE,
      agent_version integer,
      status        text NOT NULL CHECK (status IN ('RUNNING', 'PASSED', 'FAILED')),
      error         text,
      concurrency   integer NOT NULL,
      repeat        integer NOT NULL,
      results       text NOT NULL,
      lease_until   bigint,
      created_at    text COLLATE "C" NOT NULL,
      updated_at    text COLLATE "C" NOT NULL
    );
    CREATE INDEX agent_test_runs_by_agent ON agent_test_runs (project_id, agent_id, created_at);
    CREATE INDEX agent_test_runs_running ON agent_test_runs (lease_until) WHERE status = 'RUNNING';
  `,
}
