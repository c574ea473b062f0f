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

/** The calls of a range, read off the jobs_call_facts index (migration 0010) alone. */
const CALLS_IN_RANGE = `FROM jobs INDEXED BY jobs_call_facts
  WHERE type = 'CONVERSATION' AND project_id = @projectId AND created_at >= @from AND created_at < @to
    AND (@voiceAgentId IS NULL OR voice_agent_id = @voiceAgentId)`

/** SQLite's modifier that moves a UTC time `minutes` ahead. */
function shift(minutes: number): string {
  return `${minutes >= 0 ? '+' : '-'}${Math.abs(minutes)} minutes`
}

/** Analytics of calls and jobs (see AnalyticsRepository) in SQL on SQLite. */
export class SqliteAnalyticsRepository implements AnalyticsRepository {
  private readonly statements: { facts: Statement; ratings: Statement; exported: Statement; jobsByDay: Statement }
  private readonly fieldStatements = new Map<number, Statement>()

  constructor(private readonly db: Database) {
    this.statements = {
      facts: db.prepare(`SELECT substr(created_at, 1, 13) || CASE WHEN @quarters
            THEN ':' || printf('%02d', CAST(substr(created_at, 15, 2) AS INTEGER) / 15 * 15) ELSE ':00' END AS bucket, status, call_end_reason AS endReason,
          count(*) AS calls, count(call_seconds) AS timedCalls, total(call_seconds) AS seconds,
          total(call_seconds < 60) AS shortCalls, total(call_seconds >= 60 AND call_seconds <= 300) AS mediumCalls,
          total(call_seconds > 300) AS longCalls, total(call_turns) AS turns, total(call_barge_ins) AS bargeIns,
          total(call_pokes) AS pokes, total(call_tool_calls) AS toolCalls, total(call_answers) AS answers,
          total(call_answer_seconds) AS answerSeconds, total(call_outcome_complete = 1) AS outcomeComplete,
          total(call_outcome_complete = 0) AS outcomePartial
        ${CALLS_IN_RANGE} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
      ratings: db.prepare(`SELECT value, count(*) AS calls FROM (
          SELECT call_outcome ->> @field AS value ${CALLS_IN_RANGE}
        ) WHERE typeof(value) IN ('integer', 'real') GROUP BY value ORDER BY value`),
      exported: db.prepare(`SELECT id, voice_agent_id AS voiceAgentId, agent_details AS agentName, status, created_at AS createdAt,
          call_end_reason AS endReason, call_seconds AS seconds, call_turns AS turns, call_barge_ins AS bargeIns,
          call_pokes AS pokes, call_tool_calls AS toolCalls, call_outcome_complete AS outcomeComplete,
          CASE WHEN json_valid(job_response) THEN json_extract(job_response, '$.outcomeResult') END AS outcome
        ${CALLS_IN_RANGE} AND (@status IS NULL OR status = @status) ORDER BY created_at, id LIMIT @limit`),
      jobsByDay: db.prepare(`SELECT strftime('%Y-%m-%d', created_at, @shift) AS day, count(*) AS jobs,
          total(CASE WHEN status = 'COMPLETED' THEN total_cost END) AS cost,
          total(CASE WHEN status = 'COMPLETED' AND type = 'TRANSCRIPTION' THEN usage_seconds END) AS transcriptionSeconds
        FROM jobs INDEXED BY jobs_by_created WHERE project_id = @projectId AND created_at >= @from AND created_at < @to
        GROUP BY 1 ORDER BY 1`),
    }
  }

  async conversationFacts(projectId: string, query: ConversationAnalyticsQuery): Promise<ConversationFactsRow[]> {
    return this.statements.facts.all({
      projectId,
      from: query.from,
      to: query.to,
      voiceAgentId: query.voiceAgentId ?? null,
      quarters: query.quarterHours ? 1 : 0,
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
    let statement = this.fieldStatements.get(fields.length)
    if (!statement) {
      const counts = fields.map((_, index) => `total(coalesce(call_outcome -> @f${index}, 'null') <> 'null') AS c${index}`)
      statement = this.db.prepare(`SELECT ${counts.join(', ')} ${CALLS_IN_RANGE} AND call_outcome IS NOT NULL`)
      this.fieldStatements.set(fields.length, statement)
    }
    const named = Object.fromEntries(fields.map((field, index) => [`f${index}`, field]))
    const row = statement.get({ projectId, voiceAgentId, from, to, ...named }) as Record<string, number>
    return fields.map((field, index) => ({ field, filled: row[`c${index}`] ?? 0 }))
  }

  async ratingValues(projectId: string, voiceAgentId: string, field: string, from: string, to: string): Promise<RatingValueCount[]> {
    return this.statements.ratings.all({ projectId, voiceAgentId, field, from, to }) as RatingValueCount[]
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
    return this.statements.jobsByDay.all({ projectId, from, to, shift: shift(offsetMinutes) }) as JobsByDayRow[]
  }
}
