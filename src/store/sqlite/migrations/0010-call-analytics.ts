import type { Migration } from '../migrate'

/** A conversation's kept state, when the row is a conversation whose jobResponse is JSON. */
const STATE = `type = 'CONVERSATION' AND json_valid(job_response)`

/**
 * What analytics reads of a call, as columns SQLite derives from its `job_response` (VIRTUAL:
 * computed, never stored in the row) and a partial index that holds them with the project and
 * creation time: an analytics read scans that index alone, never a call's JSON. Writes keep the
 * index as they keep any other; imports and restores too, since the columns follow the JSON.
 */
export const callAnalytics: Migration = {
  version: 10,
  name: 'call-analytics',
  sql: `
    ALTER TABLE jobs ADD COLUMN call_end_reason TEXT
      GENERATED ALWAYS AS (CASE WHEN ${STATE} THEN json_extract(job_response, '$.endReason') END) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_seconds REAL
      GENERATED ALWAYS AS (CASE WHEN ${STATE} AND json_extract(job_response, '$.startedAt') IS NOT NULL THEN usage_seconds END) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_turns INTEGER
      GENERATED ALWAYS AS (CASE WHEN ${STATE} THEN json_array_length(job_response, '$.transcript') END) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_barge_ins INTEGER
      GENERATED ALWAYS AS (CASE WHEN ${STATE} THEN json_extract(job_response, '$.bargeIns') END) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_pokes INTEGER
      GENERATED ALWAYS AS (CASE WHEN ${STATE} THEN json_extract(job_response, '$.pokes') END) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_tool_calls INTEGER
      GENERATED ALWAYS AS (CASE WHEN ${STATE} THEN json_array_length(job_response, '$.toolCalls') END) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_answers INTEGER
      GENERATED ALWAYS AS (CASE WHEN ${STATE} THEN json_extract(job_response, '$.answerDelays.answers') END) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_answer_seconds REAL
      GENERATED ALWAYS AS (CASE WHEN ${STATE} THEN json_extract(job_response, '$.answerDelays.seconds') END) VIRTUAL;
    ALTER TABLE jobs ADD COLUMN call_outcome_complete INTEGER
      GENERATED ALWAYS AS (CASE WHEN ${STATE} THEN json_extract(job_response, '$.outcomeComplete') END) VIRTUAL;
    CREATE INDEX jobs_call_facts ON jobs (project_id, created_at, voice_agent_id, status, call_end_reason, call_seconds,
      call_turns, call_barge_ins, call_pokes, call_tool_calls, call_answers, call_answer_seconds, call_outcome_complete)
      WHERE type = 'CONVERSATION';
  `,
}
