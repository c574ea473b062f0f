import type { Migration } from '../migrate'

/** A conversation's kept state as jsonb (job_response is JSON text). */
const STATE = `(CASE WHEN type = 'CONVERSATION' THEN job_response::jsonb END)`

/** `path`'s array length, or null when it is no array. */
function arrayLength(path: string): string {
  return `CASE WHEN jsonb_typeof(${STATE} -> '${path}') = 'array' THEN jsonb_array_length(${STATE} -> '${path}') END`
}

/**
 * What analytics reads of a call, as columns PostgreSQL derives from its `job_response` when the
 * row is written (STORED), and a partial index on the project and creation time that carries
 * them: an analytics read never parses a call's JSON. Writes, imports and restores keep them,
 * since they follow the JSON.
 */
export const callAnalytics: Migration = {
  version: 14,
  name: 'call-analytics',
  sql: `
    ALTER TABLE jobs
      ADD COLUMN call_end_reason text GENERATED ALWAYS AS (${STATE} ->> 'endReason') STORED,
      ADD COLUMN call_seconds double precision
        GENERATED ALWAYS AS (CASE WHEN (${STATE} ->> 'startedAt') IS NOT NULL THEN usage_seconds END) STORED,
      ADD COLUMN call_turns integer GENERATED ALWAYS AS (${arrayLength('transcript')}) STORED,
      ADD COLUMN call_barge_ins integer GENERATED ALWAYS AS ((${STATE} ->> 'bargeIns')::integer) STORED,
      ADD COLUMN call_pokes integer GENERATED ALWAYS AS ((${STATE} ->> 'pokes')::integer) STORED,
      ADD COLUMN call_tool_calls integer GENERATED ALWAYS AS (${arrayLength('toolCalls')}) STORED,
      ADD COLUMN call_answers integer GENERATED ALWAYS AS ((${STATE} -> 'answerDelays' ->> 'answers')::integer) STORED,
      ADD COLUMN call_answer_seconds double precision
        GENERATED ALWAYS AS ((${STATE} -> 'answerDelays' ->> 'seconds')::double precision) STORED,
      ADD COLUMN call_outcome_complete boolean GENERATED ALWAYS AS ((${STATE} ->> 'outcomeComplete')::boolean) STORED;
    CREATE INDEX jobs_call_facts ON jobs (project_id, created_at) INCLUDE (voice_agent_id, status, call_end_reason, call_seconds,
      call_turns, call_barge_ins, call_pokes, call_tool_calls, call_answers, call_answer_seconds, call_outcome_complete)
      WHERE type = 'CONVERSATION';
  `,
}
