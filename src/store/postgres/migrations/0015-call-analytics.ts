import type { Migration } from '../migrate'

/**
 * A conversation's kept state as json (job_response is JSON text). PostgreSQL refuses to read
 * a `\u0000` escape (a caller's words may hold one): it is read as U+FFFD, so the row's write
 * never fails (the columns below never hold text from the transcript).
 */
const STATE = `(CASE WHEN type = 'CONVERSATION' THEN replace(job_response, '\\u0000', '\\ufffd')::json END)`

/** The number at `path` (e.g. `{answerDelays,seconds}`), null when it is no number. */
function number(path: string): string {
  return `CASE WHEN json_typeof(${STATE} #> '${path}') = 'number' THEN (${STATE} #>> '${path}')::double precision END`
}

/** The array at `key`'s length, null when it is no array. */
function arrayLength(key: string): string {
  return `CASE WHEN json_typeof(${STATE} -> '${key}') = 'array' THEN json_array_length(${STATE} -> '${key}') END`
}

/**
 * What analytics reads of a call, as columns PostgreSQL derives from its `job_response` when the
 * row is written (STORED), and a partial index on the project and creation time that carries
 * them: an analytics read never parses a call's JSON. Writes, imports and restores keep them,
 * since they follow the JSON. A value of the wrong kind (a hand-written record) reads as null,
 * never fails the write.
 */
export const callAnalytics: Migration = {
  version: 15,
  name: 'call-analytics',
  sql: `
    ALTER TABLE jobs
      ADD COLUMN call_end_reason text
        GENERATED ALWAYS AS (CASE WHEN json_typeof(${STATE} -> 'endReason') = 'string' THEN ${STATE} ->> 'endReason' END) STORED,
      ADD COLUMN call_seconds double precision
        GENERATED ALWAYS AS (CASE WHEN json_typeof(${STATE} -> 'startedAt') = 'string' THEN usage_seconds END) STORED,
      ADD COLUMN call_turns integer GENERATED ALWAYS AS (${arrayLength('transcript')}) STORED,
      ADD COLUMN call_barge_ins double precision GENERATED ALWAYS AS (${number('{bargeIns}')}) STORED,
      ADD COLUMN call_pokes double precision GENERATED ALWAYS AS (${number('{pokes}')}) STORED,
      ADD COLUMN call_tool_calls integer GENERATED ALWAYS AS (${arrayLength('toolCalls')}) STORED,
      ADD COLUMN call_answers double precision GENERATED ALWAYS AS (${number('{answerDelays,answers}')}) STORED,
      ADD COLUMN call_answer_seconds double precision GENERATED ALWAYS AS (${number('{answerDelays,seconds}')}) STORED,
      ADD COLUMN call_outcome_complete boolean
        GENERATED ALWAYS AS (CASE WHEN json_typeof(${STATE} -> 'outcomeComplete') = 'boolean'
          THEN (${STATE} ->> 'outcomeComplete')::boolean END) STORED,
      ADD COLUMN call_outcome jsonb
        GENERATED ALWAYS AS (CASE WHEN json_typeof(${STATE} -> 'outcomeResult') = 'object' THEN (${STATE} -> 'outcomeResult')::jsonb END) STORED;
    CREATE INDEX jobs_call_facts ON jobs (project_id, created_at) INCLUDE (voice_agent_id, status, call_end_reason, call_seconds,
      call_turns, call_barge_ins, call_pokes, call_tool_calls, call_answers, call_answer_seconds, call_outcome_complete, call_outcome)
      WHERE type = 'CONVERSATION';
  `,
}
