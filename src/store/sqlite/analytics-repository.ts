import type { Database, Statement } from 'better-sqlite3'
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

/** The calls of a range, read off the jobs_call_facts index (migration 0011) alone. */
const CALLS_IN_RANGE = `FROM jobs INDEXED BY jobs_call_facts
  WHERE type = 'CONVERSATION' AND project_id = @projectId AND created_at >= @from AND created_at < @to
    AND (@voiceAgentId IS NULL OR voice_agent_id = @voiceAgentId)`

/** The calls of [@{from}, @{to}) one by one (the edges of a range the rollup cannot answer). */
function callsBetween(from: string, to: string): string {
  return `FROM jobs INDEXED BY jobs_call_facts
  WHERE type = 'CONVERSATION' AND project_id = @projectId AND created_at >= @${from} AND created_at < @${to}
    AND (@voiceAgentId IS NULL OR voice_agent_id = @voiceAgentId)`
}

/** The rollup's rows of the range's whole slots (migration 0012). */
const WHOLE_SLOTS = `project_id = @projectId AND slot >= @slotFrom AND slot < @slotTo`

/** A call's quarter hour, as the rollup keys it. */
const SLOT = `substr(created_at, 1, 14) || printf('%02d', CAST(substr(created_at, 15, 2) AS INTEGER) / 15 * 15)`

/** What one call adds to its group, in the rollup's columns. */
const CALL_FIGURES = `${SLOT} AS slot, status, coalesce(call_end_reason, '') AS end_reason, call_end_reason IS NOT NULL AS end_reason_set,
  1 AS jobs, call_seconds IS NOT NULL AS timed_calls, coalesce(call_seconds, 0) AS seconds, coalesce(call_seconds < 60, 0) AS short_calls,
  coalesce(call_seconds >= 60 AND call_seconds <= 300, 0) AS medium_calls, coalesce(call_seconds > 300, 0) AS long_calls,
  coalesce(call_turns, 0) AS turns, coalesce(call_barge_ins, 0) AS barge_ins, coalesce(call_pokes, 0) AS pokes,
  coalesce(call_tool_calls, 0) AS tool_calls, coalesce(call_answers, 0) AS answers, coalesce(call_answer_seconds, 0) AS answer_seconds,
  coalesce(call_outcome_complete = 1, 0) AS outcome_complete, coalesce(call_outcome_complete = 0, 0) AS outcome_partial`

const FIGURE_COLUMNS = `slot, status, end_reason, end_reason_set, jobs, timed_calls, seconds, short_calls, medium_calls, long_calls, turns,
  barge_ins, pokes, tool_calls, answers, answer_seconds, outcome_complete, outcome_partial`

/** The outcome's filled fields of the calls of [@{from}, @{to}), one row per call and field. */
function filledBetween(from: string, to: string): string {
  return `SELECT DISTINCT j.id, e.key AS field FROM jobs j INDEXED BY jobs_call_facts, json_each(j.call_outcome) e
    WHERE j.type = 'CONVERSATION' AND j.project_id = @projectId AND j.created_at >= @${from} AND j.created_at < @${to}
      AND j.voice_agent_id = @voiceAgentId AND e.type <> 'null' AND e.key IN (SELECT value FROM json_each(@fields))`
}

/** The numeric values the calls of [@{from}, @{to}) gave the outcome field @field, one row per call. */
function ratingsBetween(from: string, to: string): string {
  return `SELECT e.value AS value, 1 AS calls FROM jobs j INDEXED BY jobs_call_facts, json_each(j.call_outcome) e
    WHERE j.type = 'CONVERSATION' AND j.project_id = @projectId AND j.created_at >= @${from} AND j.created_at < @${to}
      AND j.voice_agent_id = @voiceAgentId AND e.key = @field AND e.type IN ('integer', 'real')`
}

/** What the jobs of [@{from}, @{to}) add to their local day. */
function jobsBetween(from: string, to: string): string {
  return `SELECT strftime('%Y-%m-%d', created_at, @shift) AS day, 1 AS jobs, CASE WHEN status = 'COMPLETED' THEN total_cost END AS cost,
      CASE WHEN status = 'COMPLETED' AND type = 'TRANSCRIPTION' THEN usage_seconds END AS transcriptionSeconds
    FROM jobs INDEXED BY jobs_by_created WHERE project_id = @projectId AND created_at >= @${from} AND created_at < @${to}`
}

/** SQLite's modifier that moves a UTC time `minutes` ahead. */
function shift(minutes: number): string {
  return `${minutes >= 0 ? '+' : '-'}${Math.abs(minutes)} minutes`
}

/** The calls' figures of a range by bucket, status and end reason, whole slots from `table` (see conversationFacts). */
function facts(table: string): string {
  return `SELECT CASE WHEN @local THEN strftime(@format, slot, @shift) WHEN @quarters THEN slot ELSE substr(slot, 1, 14) || '00' END AS bucket,
          status,
          CASE WHEN end_reason_set THEN end_reason END AS endReason,
          total(jobs) AS calls, total(timed_calls) AS timedCalls, total(seconds) AS seconds, total(short_calls) AS shortCalls,
          total(medium_calls) AS mediumCalls, total(long_calls) AS longCalls, total(turns) AS turns, total(barge_ins) AS bargeIns,
          total(pokes) AS pokes, total(tool_calls) AS toolCalls, total(answers) AS answers, total(answer_seconds) AS answerSeconds,
          total(outcome_complete) AS outcomeComplete, total(outcome_partial) AS outcomePartial
        FROM (
          SELECT ${FIGURE_COLUMNS} FROM ${table}
            WHERE ${WHOLE_SLOTS} AND type = 'CONVERSATION' AND (@voiceAgentId IS NULL OR voice_agent_id = @voiceAgentId)
          UNION ALL SELECT ${CALL_FIGURES} ${callsBetween('from', 'edgeFrom')}
          UNION ALL SELECT ${CALL_FIGURES} ${callsBetween('edgeTo', 'to')}
        ) GROUP BY 1, 2, 3 HAVING total(jobs) > 0 ORDER BY 1, 2, 3`
}

/** The jobs of a range by local day, whole slots from `table`. */
function jobsByDay(table: string): string {
  return `SELECT day, total(jobs) AS jobs, total(cost) AS cost, total(transcriptionSeconds) AS transcriptionSeconds FROM (
          SELECT strftime('%Y-%m-%d', slot, @shift) AS day, jobs, CASE WHEN status = 'COMPLETED' THEN cost END AS cost,
              CASE WHEN status = 'COMPLETED' AND type = 'TRANSCRIPTION' THEN usage_seconds END AS transcriptionSeconds
            FROM ${table} WHERE ${WHOLE_SLOTS}
          UNION ALL ${jobsBetween('from', 'edgeFrom')}
          UNION ALL ${jobsBetween('edgeTo', 'to')}
        ) GROUP BY day HAVING total(jobs) > 0 ORDER BY day`
}

/**
 * Analytics of calls and jobs (see AnalyticsRepository) in SQL on SQLite: a range's whole
 * quarter hours are summed from the rollup tables (migration 0012), its partial edge quarter
 * hours from the calls themselves (splitBySlots).
 */
export class SqliteAnalyticsRepository implements AnalyticsRepository {
  private readonly statements: {
    facts: Statement
    factsByHour: Statement
    fields: Statement
    ratings: Statement
    ratingsOfCalls: Statement
    exported: Statement
    jobsByDay: Statement
    jobsByDayByHour: Statement
    jobsByDayOfJobs: Statement
  }

  constructor(db: Database) {
    this.statements = {
      facts: db.prepare(facts('job_rollup')),
      factsByHour: db.prepare(facts('job_rollup_hours')),
      fields: db.prepare(`SELECT field, total(filled) AS filled FROM (
          SELECT field, filled FROM call_field_rollup
            WHERE project_id = @projectId AND voice_agent_id = @voiceAgentId AND slot >= @slotFrom AND slot < @slotTo
              AND field IN (SELECT value FROM json_each(@fields))
          UNION ALL SELECT field, 1 FROM (${filledBetween('from', 'edgeFrom')})
          UNION ALL SELECT field, 1 FROM (${filledBetween('edgeTo', 'to')})
        ) GROUP BY field`),
      ratings: db.prepare(`SELECT value, total(calls) AS calls FROM (
          SELECT value, calls FROM call_rating_rollup
            WHERE project_id = @projectId AND voice_agent_id = @voiceAgentId AND slot >= @slotFrom AND slot < @slotTo AND field = @field
          UNION ALL ${ratingsBetween('from', 'edgeFrom')}
          UNION ALL ${ratingsBetween('edgeTo', 'to')}
        ) GROUP BY value HAVING total(calls) > 0 ORDER BY value`),
      ratingsOfCalls: db.prepare(
        `SELECT value, total(calls) AS calls FROM (${ratingsBetween('from', 'to')}) GROUP BY value ORDER BY value`,
      ),
      exported: db.prepare(`SELECT id, voice_agent_id AS voiceAgentId, agent_details AS agentName, status, created_at AS createdAt,
          call_end_reason AS endReason, call_seconds AS seconds, call_turns AS turns, call_barge_ins AS bargeIns,
          call_pokes AS pokes, call_tool_calls AS toolCalls, call_outcome_complete AS outcomeComplete,
          CASE WHEN json_valid(job_response) THEN json_extract(job_response, '$.outcomeResult') END AS outcome
        ${CALLS_IN_RANGE} AND (@status IS NULL OR status = @status) ORDER BY created_at, id LIMIT @limit`),
      jobsByDay: db.prepare(jobsByDay('job_rollup')),
      jobsByDayByHour: db.prepare(jobsByDay('job_rollup_hours')),
      jobsByDayOfJobs: db.prepare(`SELECT day, count(*) AS jobs, total(cost) AS cost, total(transcriptionSeconds) AS transcriptionSeconds
        FROM (${jobsBetween('from', 'to')}) GROUP BY day ORDER BY day`),
    }
  }

  async conversationFacts(projectId: string, query: ConversationAnalyticsQuery): Promise<ConversationFactsRow[]> {
    // By hour, but by quarter hour for local times a part of an hour away from UTC.
    return (query.quarterHours ? this.statements.facts : this.statements.factsByHour).all({
      projectId,
      from: query.from,
      to: query.to,
      ...splitBySlots(query.from, query.to, query.quarterHours ? QUARTER_HOUR : HOUR),
      voiceAgentId: query.voiceAgentId ?? null,
      quarters: query.quarterHours ? 1 : 0,
      local: query.local ? 1 : 0,
      format: query.local?.bucket === 'day' ? '%Y-%m-%d 00:00:00' : '%Y-%m-%d %H:00:00',
      shift: shift(query.local?.offsetMinutes ?? 0),
    }) as ConversationFactsRow[]
  }

  async outcomeFields(
    projectId: string,
    voiceAgentId: string,
    fields: readonly string[],
    from: string,
    to: string,
  ): Promise<OutcomeFieldCount[]> {
    if (fields.length === 0) return []
    const rows = this.statements.fields.all({
      projectId,
      voiceAgentId,
      from,
      to,
      ...splitBySlots(from, to, HOUR),
      fields: JSON.stringify(fields),
    }) as OutcomeFieldCount[]
    const filled = new Map(rows.map((row) => [row.field, row.filled]))
    return fields.map((field) => ({ field, filled: filled.get(field) ?? 0 }))
  }

  async ratingValues(projectId: string, voiceAgentId: string, field: string, from: string, to: string): Promise<RatingValueCount[]> {
    // The rollup counts the values of fields named like a rating only; another field's are read from the calls.
    if (!RATING_FIELD_NAME.test(field))
      return this.statements.ratingsOfCalls.all({ projectId, voiceAgentId, field, from, to }) as RatingValueCount[]
    return this.statements.ratings.all({ projectId, voiceAgentId, field, from, to, ...splitBySlots(from, to, HOUR) }) as RatingValueCount[]
  }

  async exportConversations(
    projectId: string,
    query: { voiceAgentId?: string; status?: string; from: string; to: string; limit: number },
  ): Promise<ConversationExportRow[]> {
    const rows = this.statements.exported.all({
      projectId,
      voiceAgentId: query.voiceAgentId ?? null,
      status: query.status ?? null,
      from: query.from,
      to: query.to,
      limit: query.limit,
    }) as (Omit<ConversationExportRow, 'outcomeComplete'> & { outcomeComplete: number | null })[]
    return rows.map((row) => ({ ...row, outcomeComplete: row.outcomeComplete === null ? null : row.outcomeComplete === 1 }))
  }

  async jobsByDay(projectId: string, from: string, to: string, offsetMinutes: number): Promise<JobsByDayRow[]> {
    const values = { projectId, from, to, shift: shift(offsetMinutes) }
    // A quarter hour lies in one local day only when local time is whole quarter hours away from UTC.
    if (offsetMinutes % HOUR === 0)
      return this.statements.jobsByDayByHour.all({ ...values, ...splitBySlots(from, to, HOUR) }) as JobsByDayRow[]
    if (offsetMinutes % QUARTER_HOUR !== 0) return this.statements.jobsByDayOfJobs.all(values) as JobsByDayRow[]
    return this.statements.jobsByDay.all({ ...values, ...splitBySlots(from, to, QUARTER_HOUR) }) as JobsByDayRow[]
  }
}
