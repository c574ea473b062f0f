import type { Migration } from '../migrate'

/** A conversation's kept state, when the row is a conversation whose jobResponse is JSON. */
const STATE = `type = 'CONVERSATION' AND json_valid(job_response)`

/** The number at `path`, null when it is no number (a hand-written state). */
function number(path: string): string {
  return `CASE WHEN ${STATE} AND json_type(job_response, '${path}') IN ('integer', 'real') THEN json_extract(job_response, '${path}') END`
}

/** The array at `path`'s length, null when it is no array. */
function arrayLength(path: string): string {
  return `CASE WHEN ${STATE} AND json_type(job_response, '${path}') = 'array' THEN json_array_length(job_response, '${path}') END`
}

/**
 * What analytics reads of a call, as columns SQLite derives from its `job_response` (VIRTUAL:
 * computed, never stored in the row) and a partial index that holds them with the project and
 * creation time: an analytics read scans that index alone, never a call's JSON. Writes keep the
 * index as they keep any other; imports and restores too, since the columns follow the JSON.
 */
export const callAnalytics: Migration = {
  version: 11,
  name: 'call-analytics',
  sql: `
    ALTER TABLE jobs ADD COLUMN call_end_reason TEXT
      GENERATED ALWAYS AS (CASE WHEN ${STATE} AND json_type(job_response, '$.endReason') = 'text' THEN json_extract(job_response, '$.endReason') END) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_seconds REAL
      GENERATED ALWAYS AS (CASE WHEN ${STATE} AND json_type(job_response, '$.startedAt') = 'text' THEN usage_seconds END) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_turns INTEGER
      GENERATED ALWAYS AS (${arrayLength('$.transcript')}) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_barge_ins REAL
      GENERATED ALWAYS AS (${number('$.bargeIns')}) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_pokes REAL
      GENERATED ALWAYS AS (${number('$.pokes')}) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_tool_calls INTEGER
      GENERATED ALWAYS AS (${arrayLength('$.toolCalls')}) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_answers REAL
      GENERATED ALWAYS AS (${number('$.answerDelays.answers')}) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_answer_seconds REAL
      GENERATED ALWAYS AS (${number('$.answerDelays.seconds')}) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_outcome_complete INTEGER
      GENERATED ALWAYS AS (CASE WHEN ${STATE} AND json_type(job_response, '$.outcomeComplete') IN ('true', 'false')
        THEN json_extract(job_response, '$.outcomeComplete') END) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_outcome TEXT
      GENERATED ALWAYS AS (CASE WHEN ${STATE} AND json_type(job_response, '$.outcomeResult') = 'object'
        THEN json_extract(job_response, '$.outcomeResult') END) VIRTUAL;
    CREATE INDEX jobs_call_facts ON jobs (project_id, created_at, voice_agent_id, status, call_end_reason, call_seconds,
      call_turns, call_barge_ins, call_pokes, call_tool_calls, call_answers, call_answer_seconds, call_outcome_complete, call_outcome)
      WHERE type = 'CONVERSATION';
  `,
}
