import type { AnalyticsRepository } from '../ports'
import type {
  ConversationAnalyticsQuery,
  ConversationExportRow,
  ConversationFactsRow,
  JobsByDayRow,
  OutcomeFieldCount,
  RatingValueCount,
} from '../records'
import { HOUR, QUARTER_HOUR, RATING_FIELD_NAME, splitBySlots } from '../analytics-slots'
import type { Db } from './db'

/** The calls of a range ($1 project, $2 from, $3 to, $4 agent or null), found through jobs_call_facts (migration 0015). */
const CALLS_IN_RANGE = `FROM jobs
  WHERE type = 'CONVERSATION' AND project_id = $1 AND created_at >= $2 AND created_at < $3 AND ($4::text IS NULL OR voice_agent_id = $4)`

/** The calls created in [from, to) (two parameters) of $1's project, of $2's agent when not null. */
function callsBetween(from: string, to: string): string {
  return `FROM jobs j WHERE j.type = 'CONVERSATION' AND j.project_id = $1 AND j.created_at >= ${from} AND j.created_at < ${to}
    AND ($2::text IS NULL OR j.voice_agent_id = $2)`
}

/** A call's UTC quarter hour, as the rollup keys it (migration 0016). */
const SLOT = `(substr(j.created_at, 1, 14) || CASE WHEN substr(j.created_at, 15, 2) < '15' THEN '00'
  WHEN substr(j.created_at, 15, 2) < '30' THEN '15' WHEN substr(j.created_at, 15, 2) < '45' THEN '30' ELSE '45' END)`

const FIGURE_COLUMNS = `slot, status, end_reason, end_reason_set, jobs, timed_calls, seconds, short_calls, medium_calls, long_calls, turns,
  barge_ins, pokes, tool_calls, answers, answer_seconds, outcome_complete, outcome_partial`

/** What one call (alias j) adds to its group, in the rollup's columns. */
const CALL_FIGURES = `${SLOT} AS slot, j.status, coalesce(j.call_end_reason, '') AS end_reason, j.call_end_reason IS NOT NULL AS end_reason_set,
  1 AS jobs, (j.call_seconds IS NOT NULL)::int AS timed_calls, coalesce(j.call_seconds, 0) AS seconds,
  coalesce((j.call_seconds < 60)::int, 0) AS short_calls, coalesce((j.call_seconds >= 60 AND j.call_seconds <= 300)::int, 0) AS medium_calls,
  coalesce((j.call_seconds > 300)::int, 0) AS long_calls, coalesce(j.call_turns, 0) AS turns, coalesce(j.call_barge_ins, 0) AS barge_ins,
  coalesce(j.call_pokes, 0) AS pokes, coalesce(j.call_tool_calls, 0) AS tool_calls, coalesce(j.call_answers, 0) AS answers,
  coalesce(j.call_answer_seconds, 0) AS answer_seconds, (j.call_outcome_complete IS TRUE)::int AS outcome_complete,
  (j.call_outcome_complete IS FALSE)::int AS outcome_partial`

/** The rows of a rollup table (or its deltas) of $1's project and $2's agent in the whole slots [$3, $4). */
function wholeSlots(table: string): string {
  return `FROM ${table} WHERE project_id = $1 AND slot >= $3 AND slot < $4 AND ($2::text IS NULL OR voice_agent_id = $2)`
}

/** A call's outcome as json (its text as written, keys in their order), a `\u0000` read as U+FFFD (see migration 0015). */
const OUTCOME = `(replace(job_response, '\\u0000', '\\ufffd')::json -> 'outcomeResult')`

/** The local time of `column`, `$n` minutes ahead of UTC, in `format`. */
function localTime(minutesParameter: string, format: string, column = 'created_at'): string {
  return `to_char((${column}::timestamptz + make_interval(mins => ${minutesParameter})) AT TIME ZONE 'UTC', '${format}')`
}

/** The parameters of a read by slots: project, agent, whole slots, edges (see splitBySlots). */
function slotParameters(projectId: string, voiceAgentId: string | null, from: string, to: string, slotMinutes = HOUR): unknown[] {
  const split = splitBySlots(from, to, slotMinutes)
  return [projectId, voiceAgentId, split.slotFrom, split.slotTo, from, split.edgeFrom, split.edgeTo, to]
}

/**
 * Analytics of calls and jobs (see AnalyticsRepository) in SQL on PostgreSQL: a range's whole
 * quarter hours are summed from the rollup tables and their deltas (migration 0016), its partial
 * edge quarter hours from the calls themselves (splitBySlots). Each read folds the deltas in
 * first (analytics_rollup_fold), so they stay few.
 */
export class PostgresAnalyticsRepository implements AnalyticsRepository {
  constructor(private readonly db: Db) {}

  private async fold(): Promise<void> {
    await this.db.query('SELECT analytics_rollup_fold()')
  }

  async conversationFacts(projectId: string, query: ConversationAnalyticsQuery): Promise<ConversationFactsRow[]> {
    await this.fold()
    // By hour, but by quarter hour for local times a part of an hour away from UTC.
    const table = query.quarterHours ? 'job_rollup' : 'job_rollup_hours'
    const { rows } = await this.db.query<ConversationFactsRow>(
      `SELECT CASE WHEN $10::integer IS NOT NULL THEN to_char(((slot || ':00Z')::timestamptz + make_interval(mins => $10::integer)) AT TIME ZONE 'UTC', $11::text)
            WHEN $9::boolean THEN slot ELSE substr(slot, 1, 14) || '00' END AS bucket, status,
          CASE WHEN end_reason_set THEN end_reason END AS "endReason",
          sum(jobs)::float8 AS calls, sum(timed_calls)::float8 AS "timedCalls", sum(seconds)::float8 AS seconds,
          sum(short_calls)::float8 AS "shortCalls", sum(medium_calls)::float8 AS "mediumCalls", sum(long_calls)::float8 AS "longCalls",
          sum(turns)::float8 AS turns, sum(barge_ins)::float8 AS "bargeIns", sum(pokes)::float8 AS pokes,
          sum(tool_calls)::float8 AS "toolCalls", sum(answers)::float8 AS answers, sum(answer_seconds)::float8 AS "answerSeconds",
          sum(outcome_complete)::float8 AS "outcomeComplete", sum(outcome_partial)::float8 AS "outcomePartial"
        FROM (
          SELECT ${FIGURE_COLUMNS} ${wholeSlots(table)} AND type = 'CONVERSATION'
          UNION ALL SELECT ${FIGURE_COLUMNS} ${wholeSlots(`${table}_deltas`)} AND type = 'CONVERSATION'
          UNION ALL SELECT ${CALL_FIGURES} ${callsBetween('$5', '$6')}
          UNION ALL SELECT ${CALL_FIGURES} ${callsBetween('$7', '$8')}
        ) AS f GROUP BY 1, 2, 3 HAVING sum(jobs) > 0 ORDER BY 1, 2, 3`,
      [
        ...slotParameters(projectId, query.voiceAgentId ?? null, query.from, query.to, query.quarterHours ? QUARTER_HOUR : HOUR),
        query.quarterHours,
        query.local?.offsetMinutes ?? null,
        query.local?.bucket === 'day' ? 'YYYY-MM-DD 00:00:00' : 'YYYY-MM-DD HH24:00:00',
      ],
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
    await this.fold()
    const edge = (a: string, b: string) =>
      `SELECT e.key AS field, 1 AS filled ${callsBetween(a, b).replace('FROM jobs j', 'FROM jobs j CROSS JOIN LATERAL jsonb_each(j.call_outcome) e')}
        AND j.call_outcome IS NOT NULL AND jsonb_typeof(e.value) <> 'null' AND e.key = ANY($9::text[])`
    const { rows } = await this.db.query<OutcomeFieldCount>(
      `SELECT field, sum(filled)::float8 AS filled FROM (
          SELECT field, filled ${wholeSlots('call_field_rollup')} AND field = ANY($9::text[])
          UNION ALL SELECT field, filled ${wholeSlots('call_field_deltas')} AND field = ANY($9::text[])
          UNION ALL ${edge('$5', '$6')}
          UNION ALL ${edge('$7', '$8')}
        ) AS f GROUP BY field`,
      [...slotParameters(projectId, voiceAgentId, from, to), fields],
    )
    const filled = new Map(rows.map((row) => [row.field, row.filled]))
    return fields.map((field) => ({ field, filled: filled.get(field) ?? 0 }))
  }

  async ratingValues(projectId: string, voiceAgentId: string, field: string, from: string, to: string): Promise<RatingValueCount[]> {
    const calls = (a: string, b: string, fieldParameter: string) =>
      `SELECT (e.value #>> '{}')::float8 AS value, 1 AS calls
        ${callsBetween(a, b).replace('FROM jobs j', 'FROM jobs j CROSS JOIN LATERAL jsonb_each(j.call_outcome) e')}
        AND j.call_outcome IS NOT NULL AND e.key = ${fieldParameter}::text AND jsonb_typeof(e.value) = 'number'`
    const byValue = (source: string) => `SELECT value, sum(calls)::float8 AS calls FROM (${source}) AS rated
      GROUP BY value HAVING sum(calls) > 0 ORDER BY value`
    // The rollup counts the values of fields named like a rating only; another field's are read from the calls.
    if (!RATING_FIELD_NAME.test(field)) {
      return (await this.db.query<RatingValueCount>(byValue(calls('$3', '$4', '$5')), [projectId, voiceAgentId, from, to, field])).rows
    }
    await this.fold()
    const { rows } = await this.db.query<RatingValueCount>(
      byValue(`SELECT value, calls ${wholeSlots('call_rating_rollup')} AND field = $9::text
        UNION ALL SELECT value, calls ${wholeSlots('call_rating_deltas')} AND field = $9::text
        UNION ALL ${calls('$5', '$6', '$9')} UNION ALL ${calls('$7', '$8', '$9')}`),
      [...slotParameters(projectId, voiceAgentId, from, to), field],
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
    const jobs = (a: string, b: string) => `SELECT ${localTime('$2::integer', 'YYYY-MM-DD')} AS day, 1 AS jobs,
        CASE WHEN status = 'COMPLETED' THEN total_cost END AS cost,
        CASE WHEN status = 'COMPLETED' AND type = 'TRANSCRIPTION' THEN usage_seconds END AS "transcriptionSeconds"
      FROM jobs WHERE project_id = $1 AND created_at >= ${a} AND created_at < ${b}`
    const byDay = (source: string) => `SELECT day, sum(jobs)::float8 AS jobs, coalesce(sum(cost), 0)::float8 AS cost,
        coalesce(sum("transcriptionSeconds"), 0)::float8 AS "transcriptionSeconds"
      FROM (${source}) AS d GROUP BY day HAVING sum(jobs) > 0 ORDER BY day`
    // A quarter hour (an hour) lies in one local day only when local time is whole quarter hours (hours) away from UTC.
    if (offsetMinutes % QUARTER_HOUR !== 0)
      return (await this.db.query<JobsByDayRow>(byDay(jobs('$3', '$4')), [projectId, offsetMinutes, from, to])).rows
    await this.fold()
    const fromRollup = (table: string) => `SELECT ${localTime('$2::integer', 'YYYY-MM-DD', "(slot || ':00Z')")} AS day, jobs,
        CASE WHEN status = 'COMPLETED' THEN cost END AS cost,
        CASE WHEN status = 'COMPLETED' AND type = 'TRANSCRIPTION' THEN usage_seconds END AS "transcriptionSeconds"
      FROM ${table} WHERE project_id = $1 AND slot >= $3 AND slot < $4`
    const [table, slotMinutes] = offsetMinutes % HOUR === 0 ? ['job_rollup_hours', HOUR] : ['job_rollup', QUARTER_HOUR]
    const split = splitBySlots(from, to, slotMinutes)
    const { rows } = await this.db.query<JobsByDayRow>(
      byDay(`${fromRollup(table)} UNION ALL ${fromRollup(`${table}_deltas`)}
        UNION ALL ${jobs('$5', '$6')} UNION ALL ${jobs('$7', '$8')}`),
      [projectId, offsetMinutes, split.slotFrom, split.slotTo, from, split.edgeFrom, split.edgeTo, to],
    )
    return rows
  }
}
