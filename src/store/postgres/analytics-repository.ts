import type { AnalyticsRepository } from '../ports'
import type {
  ConversationAnalyticsQuery,
  ConversationExportRow,
  ConversationFactsRow,
  JobsByDayRow,
  OutcomeFieldCount,
  RatingValueCount,
} from '../records'
import type { Db } from './db'

/** The calls of a range ($1 project, $2 from, $3 to, $4 agent or null), found through jobs_call_facts (migration 0014). */
const CALLS_IN_RANGE = `FROM jobs
  WHERE type = 'CONVERSATION' AND project_id = $1 AND created_at >= $2 AND created_at < $3 AND ($4::text IS NULL OR voice_agent_id = $4)`

/** A call's outcome as json (its text as written, keys in their order), a `\u0000` read as U+FFFD (see migration 0014). */
const OUTCOME = `(replace(job_response, '\\u0000', '\\ufffd')::json -> 'outcomeResult')`

/** The local time of created_at, `$n` minutes ahead of UTC, in `format`. */
function localTime(minutesParameter: string, format: string): string {
  return `to_char((created_at::timestamptz + make_interval(mins => ${minutesParameter})) AT TIME ZONE 'UTC', '${format}')`
}

/** Analytics of calls and jobs (see AnalyticsRepository) in SQL on PostgreSQL. */
export class PostgresAnalyticsRepository implements AnalyticsRepository {
  constructor(private readonly db: Db) {}

  async conversationFacts(projectId: string, query: ConversationAnalyticsQuery): Promise<ConversationFactsRow[]> {
    const { rows } = await this.db.query<ConversationFactsRow>(
      `SELECT substr(created_at, 1, 13) || CASE WHEN $5::boolean
            THEN ':' || lpad((substr(created_at, 15, 2)::integer / 15 * 15)::text, 2, '0') ELSE ':00' END AS bucket, status, call_end_reason AS "endReason",
          count(*)::float8 AS calls, count(call_seconds)::float8 AS "timedCalls", coalesce(sum(call_seconds), 0)::float8 AS seconds,
          count(*) FILTER (WHERE call_seconds < 60)::float8 AS "shortCalls",
          count(*) FILTER (WHERE call_seconds >= 60 AND call_seconds <= 300)::float8 AS "mediumCalls",
          count(*) FILTER (WHERE call_seconds > 300)::float8 AS "longCalls",
          coalesce(sum(call_turns), 0)::float8 AS turns, coalesce(sum(call_barge_ins), 0)::float8 AS "bargeIns",
          coalesce(sum(call_pokes), 0)::float8 AS pokes, coalesce(sum(call_tool_calls), 0)::float8 AS "toolCalls",
          coalesce(sum(call_answers), 0)::float8 AS answers, coalesce(sum(call_answer_seconds), 0)::float8 AS "answerSeconds",
          count(*) FILTER (WHERE call_outcome_complete)::float8 AS "outcomeComplete",
          count(*) FILTER (WHERE NOT call_outcome_complete)::float8 AS "outcomePartial"
        ${CALLS_IN_RANGE} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      [projectId, query.from, query.to, query.voiceAgentId ?? null, query.quarterHours],
    )
    return rows
  }

  async outcomeFields(
    projectId: string,
    voiceAgentId: string,
    fields: readonly string[],
    from: string,
    to: string,
  ): Promise<OutcomeFieldCount[]> {
    if (fields.length === 0) return []
    const counts = fields.map(
      (_, index) => `count(*) FILTER (WHERE jsonb_typeof(call_outcome -> $${index + 5}::text) <> 'null')::float8 AS c${index}`,
    )
    const { rows } = await this.db.query<Record<string, number>>(`SELECT ${counts.join(', ')} ${CALLS_IN_RANGE}`, [
      projectId,
      from,
      to,
      voiceAgentId,
      ...fields,
    ])
    const row = rows[0] ?? {}
    return fields.map((field, index) => ({ field, filled: row[`c${index}`] ?? 0 }))
  }

  async ratingValues(projectId: string, voiceAgentId: string, field: string, from: string, to: string): Promise<RatingValueCount[]> {
    const { rows } = await this.db.query<RatingValueCount>(
      `SELECT value, count(*)::float8 AS calls FROM (
          SELECT CASE WHEN jsonb_typeof(call_outcome -> $5::text) = 'number' THEN (call_outcome ->> $5::text)::float8 END AS value
          ${CALLS_IN_RANGE}
        ) AS rated WHERE value IS NOT NULL GROUP BY value ORDER BY value`,
      [projectId, from, to, voiceAgentId, field],
    )
    return rows
  }

  async exportConversations(
    projectId: string,
    query: { voiceAgentId?: string; status?: string; from: string; to: string; limit: number },
  ): Promise<ConversationExportRow[]> {
    const { rows } = await this.db.query<ConversationExportRow>(
      `SELECT id, voice_agent_id AS "voiceAgentId", agent_details AS "agentName", status, created_at AS "createdAt",
          call_end_reason AS "endReason", call_seconds AS seconds, call_turns AS turns, call_barge_ins AS "bargeIns",
          call_pokes AS pokes, call_tool_calls AS "toolCalls", call_outcome_complete AS "outcomeComplete",
          CASE WHEN json_typeof(${OUTCOME}) IS NOT NULL AND json_typeof(${OUTCOME}) <> 'null' THEN ${OUTCOME}::text END AS outcome
        ${CALLS_IN_RANGE} AND ($5::text IS NULL OR status = $5) ORDER BY created_at, id LIMIT $6`,
      [projectId, query.from, query.to, query.voiceAgentId ?? null, query.status ?? null, query.limit],
    )
    return rows
  }

  async jobsByDay(projectId: string, from: string, to: string, offsetMinutes: number): Promise<JobsByDayRow[]> {
    const { rows } = await this.db.query<JobsByDayRow>(
      `SELECT ${localTime('$4::integer', 'YYYY-MM-DD')} AS day, count(*)::float8 AS jobs,
          coalesce(sum(total_cost) FILTER (WHERE status = 'COMPLETED'), 0)::float8 AS cost,
          coalesce(sum(usage_seconds) FILTER (WHERE status = 'COMPLETED' AND type = 'TRANSCRIPTION'), 0)::float8 AS "transcriptionSeconds"
        FROM jobs WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY 1 ORDER BY 1`,
      [projectId, from, to, offsetMinutes],
    )
    return rows
  }
}
