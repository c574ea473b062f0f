import type { Migration } from '../migrate'

/** The UTC quarter hour a row was created in, 'YYYY-MM-DDTHH:MM' (MM one of 00, 15, 30, 45). */
function slot(row: string): string {
  return `substr(${row}.created_at, 1, 14) || printf('%02d', CAST(substr(${row}.created_at, 15, 2) AS INTEGER) / 15 * 15)`
}

/** The UTC hour a row was created in, 'YYYY-MM-DDTHH:00'. */
function hour(row: string): string {
  return `substr(${row}.created_at, 1, 14) || '00'`
}

/** The two rollups of jobs: by quarter hour, and the same by hour (a quarter of the rows, for local times whole hours from UTC). */
const JOB_ROLLUPS: [string, (row: string) => string][] = [
  ['job_rollup', slot],
  ['job_rollup_hours', hour],
]

/** The rollup's key: a row's project, slot, type, agent ('' for none), status and end reason ('' and 0 for none). */
const KEY: [string, (row: string) => string][] = [
  ['project_id', (row) => `${row}.project_id`],
  ['slot', slot],
  ['type', (row) => `${row}.type`],
  ['voice_agent_id', (row) => `coalesce(${row}.voice_agent_id, '')`],
  ['status', (row) => `${row}.status`],
  ['end_reason', (row) => `coalesce(${row}.call_end_reason, '')`],
  ['end_reason_set', (row) => `${row}.call_end_reason IS NOT NULL`],
]

/** What one row adds to its group: every figure analytics reads is a sum of these. */
const FIGURES: [string, (row: string) => string][] = [
  ['jobs', () => '1'],
  ['cost', (row) => `${row}.total_cost`],
  ['usage_seconds', (row) => `coalesce(${row}.usage_seconds, 0)`],
  ['timed_calls', (row) => `${row}.call_seconds IS NOT NULL`],
  ['seconds', (row) => `coalesce(${row}.call_seconds, 0)`],
  ['short_calls', (row) => `coalesce(${row}.call_seconds < 60, 0)`],
  ['medium_calls', (row) => `coalesce(${row}.call_seconds >= 60 AND ${row}.call_seconds <= 300, 0)`],
  ['long_calls', (row) => `coalesce(${row}.call_seconds > 300, 0)`],
  ['turns', (row) => `coalesce(${row}.call_turns, 0)`],
  ['barge_ins', (row) => `coalesce(${row}.call_barge_ins, 0)`],
  ['pokes', (row) => `coalesce(${row}.call_pokes, 0)`],
  ['tool_calls', (row) => `coalesce(${row}.call_tool_calls, 0)`],
  ['answers', (row) => `coalesce(${row}.call_answers, 0)`],
  ['answer_seconds', (row) => `coalesce(${row}.call_answer_seconds, 0)`],
  ['outcome_complete', (row) => `coalesce(${row}.call_outcome_complete = 1, 0)`],
  ['outcome_partial', (row) => `coalesce(${row}.call_outcome_complete = 0, 0)`],
]

const KEY_COLUMNS = KEY.map(([column]) => column).join(', ')
const FIGURE_COLUMNS = FIGURES.map(([column]) => column).join(', ')

/** The key with the slot of one rollup. */
function keyOf(slotOf: (row: string) => string): [string, (row: string) => string][] {
  return KEY.map(([column, value]) => [column, column === 'slot' ? slotOf : value])
}

/** Adds `row` (new or old) to its group in both job rollups, or takes it away (sign -1); a group left with no job goes. */
function move(row: 'new' | 'old', sign: 1 | -1): string {
  const signed = (expression: string) => (sign === 1 ? `(${expression})` : `-(${expression})`)
  return JOB_ROLLUPS.map(([table, slotOf]) => {
    const key = keyOf(slotOf)
    return `
    INSERT INTO ${table} (${KEY_COLUMNS}, ${FIGURE_COLUMNS})
      VALUES (${key.map(([, value]) => value(row)).join(', ')}, ${FIGURES.map(([, value]) => signed(value(row))).join(', ')})
      ON CONFLICT (${KEY_COLUMNS}) DO UPDATE SET ${FIGURES.map(([column]) => `${column} = ${column} + excluded.${column}`).join(', ')};
    ${sign === -1 ? `DELETE FROM ${table} WHERE ${key.map(([column, value]) => `${column} = (${value(row)})`).join(' AND ')} AND jobs = 0;` : ''}`
  }).join('\n')
}

/** Names SQLite's LIKE matches as the satisfaction reads' rating names do (ASCII letters, any case). */
const RATING_NAME = `(key LIKE '%rating%' OR key LIKE '%satisfaction%' OR key LIKE '%csat%' OR key LIKE '%nps%' OR key LIKE '%score%')`

/** Adds a call's outcome fields (filled ones, and rating values) to their groups, or takes them away. */
function moveOutcome(row: 'new' | 'old', sign: 1 | -1): string {
  const where = `${row}.voice_agent_id IS NOT NULL`
  const group = `${row}.project_id, ${row}.voice_agent_id, ${hour(row)}`
  const gone = (table: string, count: string) =>
    sign === -1
      ? `DELETE FROM ${table} WHERE project_id = ${row}.project_id AND voice_agent_id = ${row}.voice_agent_id AND slot = ${hour(row)} AND ${count} = 0;`
      : ''
  return `
    INSERT INTO call_field_rollup (project_id, voice_agent_id, slot, field, filled)
      SELECT DISTINCT ${group}, key, ${sign} FROM json_each(${row}.call_outcome) WHERE ${where} AND type <> 'null'
      ON CONFLICT (project_id, voice_agent_id, slot, field) DO UPDATE SET filled = filled + excluded.filled;
    ${gone('call_field_rollup', 'filled')}
    INSERT INTO call_rating_rollup (project_id, voice_agent_id, slot, field, value, calls)
      SELECT ${group}, key, value, ${sign} FROM json_each(${row}.call_outcome)
        WHERE ${where} AND type IN ('integer', 'real') AND ${RATING_NAME}
      ON CONFLICT (project_id, voice_agent_id, slot, field, value) DO UPDATE SET calls = calls + excluded.calls;
    ${gone('call_rating_rollup', 'calls')}`
}

/** A change of any of these moves a job to another group or changes what it adds. */
const JOB_CHANGED = `old.project_id IS NOT new.project_id OR old.type IS NOT new.type OR old.voice_agent_id IS NOT new.voice_agent_id
  OR old.status IS NOT new.status OR old.created_at IS NOT new.created_at OR old.total_cost IS NOT new.total_cost
  OR old.usage_seconds IS NOT new.usage_seconds
  OR (old.job_response IS NOT new.job_response AND (old.type = 'CONVERSATION' OR new.type = 'CONVERSATION'))`

/** A change of any of these changes what a call's outcome adds. */
const OUTCOME_CHANGED = `(old.call_outcome IS NOT NULL OR new.call_outcome IS NOT NULL) AND (old.project_id IS NOT new.project_id
  OR old.voice_agent_id IS NOT new.voice_agent_id OR old.created_at IS NOT new.created_at OR old.call_outcome IS NOT new.call_outcome)`

/** The top-level fields `e` of the outcomes of the calls `where` picks (jobs `j`), as the outcome rollups count them. */
function outcomeFieldsOf(where: string): string {
  return `FROM jobs j, json_each(j.call_outcome) e
      WHERE ${where} AND j.type = 'CONVERSATION' AND j.voice_agent_id IS NOT NULL AND j.call_outcome IS NOT NULL`
}

/**
 * The four rollups' rows for the jobs `where` picks (an SQL condition on jobs \`j\`, which may
 * hold named parameters), one statement each: the migration fills them once for every job; a bulk load (a project's
 * snapshot restored) fills them for its project after writing the jobs with the triggers off.
 */
export function rollupsOf(where: string): string[] {
  return [
    ...JOB_ROLLUPS.map(
      ([table, slotOf]) => `INSERT INTO ${table} (${KEY_COLUMNS}, ${FIGURE_COLUMNS})
      SELECT ${keyOf(slotOf)
        .map(([, value]) => value('j'))
        .join(', ')}, ${FIGURES.map(([, value]) => `total(${value('j')})`).join(', ')}
      FROM jobs j WHERE ${where} GROUP BY ${KEY.map((_, index) => index + 1).join(', ')};`,
    ),
    `INSERT INTO call_field_rollup (project_id, voice_agent_id, slot, field, filled)
      SELECT j.project_id, j.voice_agent_id, ${hour('j')}, e.key, count(DISTINCT j.id)
      ${outcomeFieldsOf(where)} AND e.type <> 'null'
      GROUP BY 1, 2, 3, 4;`,
    `INSERT INTO call_rating_rollup (project_id, voice_agent_id, slot, field, value, calls)
      SELECT j.project_id, j.voice_agent_id, ${hour('j')}, e.key, e.value, count(*)
      ${outcomeFieldsOf(where)} AND e.type IN ('integer', 'real') AND ${RATING_NAME.replaceAll('key', 'e.key')}
      GROUP BY 1, 2, 3, 4, 5;`,
  ]
}

/** The tables the triggers keep from jobs, besides job_counts and the search index: a bulk load empties a project's rows here and fills them with rollupsOf. */
export const ROLLUP_TABLES = ['job_rollup', 'job_rollup_hours', 'call_field_rollup', 'call_rating_rollup'] as const

/**
 * Analytics reads sums, not rows: job_rollup holds, per project, UTC quarter hour (slot), type,
 * agent, status and end reason, how many jobs there are and the sums of what analytics reads
 * of them (cost, usage, and what a call kept: migration 0011's columns); job_rollup_hours the same
 * by UTC hour (a quarter of the rows: what a read takes for local times whole hours from UTC).
 * call_field_rollup counts, per project, agent and UTC hour, the calls whose outcome has each top-level field (not
 * null), and call_rating_rollup how many gave each numeric value to a field named like a
 * rating. Triggers keep all four as rows are written, like job_counts (migration 0002): a
 * group left empty is deleted. A read over a range sums the whole slots here and reads the
 * jobs of its partial edge slots from jobs_call_facts (see SqliteAnalyticsRepository). The
 * rows there now are summed once, here.
 */
export const analyticsRollup: Migration = {
  version: 12,
  name: 'analytics-rollup',
  sql: `
    CREATE TABLE job_rollup (
      project_id TEXT NOT NULL, slot TEXT NOT NULL, type TEXT NOT NULL, voice_agent_id TEXT NOT NULL, status TEXT NOT NULL,
      end_reason TEXT NOT NULL, end_reason_set INTEGER NOT NULL,
      jobs INTEGER NOT NULL, cost REAL NOT NULL, usage_seconds REAL NOT NULL, timed_calls INTEGER NOT NULL, seconds REAL NOT NULL,
      short_calls INTEGER NOT NULL, medium_calls INTEGER NOT NULL, long_calls INTEGER NOT NULL, turns REAL NOT NULL,
      barge_ins REAL NOT NULL, pokes REAL NOT NULL, tool_calls REAL NOT NULL, answers REAL NOT NULL, answer_seconds REAL NOT NULL,
      outcome_complete INTEGER NOT NULL, outcome_partial INTEGER NOT NULL,
      PRIMARY KEY (${KEY_COLUMNS})
    ) WITHOUT ROWID;
    CREATE TABLE job_rollup_hours (
      project_id TEXT NOT NULL, slot TEXT NOT NULL, type TEXT NOT NULL, voice_agent_id TEXT NOT NULL, status TEXT NOT NULL,
      end_reason TEXT NOT NULL, end_reason_set INTEGER NOT NULL,
      jobs INTEGER NOT NULL, cost REAL NOT NULL, usage_seconds REAL NOT NULL, timed_calls INTEGER NOT NULL, seconds REAL NOT NULL,
      short_calls INTEGER NOT NULL, medium_calls INTEGER NOT NULL, long_calls INTEGER NOT NULL, turns REAL NOT NULL,
      barge_ins REAL NOT NULL, pokes REAL NOT NULL, tool_calls REAL NOT NULL, answers REAL NOT NULL, answer_seconds REAL NOT NULL,
      outcome_complete INTEGER NOT NULL, outcome_partial INTEGER NOT NULL,
      PRIMARY KEY (${KEY_COLUMNS})
    ) WITHOUT ROWID;
    CREATE TABLE call_field_rollup (
      project_id TEXT NOT NULL, voice_agent_id TEXT NOT NULL, slot TEXT NOT NULL, field TEXT NOT NULL, filled INTEGER NOT NULL,
      PRIMARY KEY (project_id, voice_agent_id, slot, field)
    ) WITHOUT ROWID;
    CREATE TABLE call_rating_rollup (
      project_id TEXT NOT NULL, voice_agent_id TEXT NOT NULL, slot TEXT NOT NULL, field TEXT NOT NULL, value REAL NOT NULL,
      calls INTEGER NOT NULL,
      PRIMARY KEY (project_id, voice_agent_id, slot, field, value)
    ) WITHOUT ROWID;

    ${rollupsOf('1').join('\n')}

    CREATE TRIGGER job_rollup_insert AFTER INSERT ON jobs BEGIN ${move('new', 1)} END;
    CREATE TRIGGER job_rollup_delete AFTER DELETE ON jobs BEGIN ${move('old', -1)} END;
    CREATE TRIGGER job_rollup_update AFTER UPDATE OF project_id, type, voice_agent_id, status, created_at, total_cost, usage_seconds, job_response
      ON jobs WHEN ${JOB_CHANGED} BEGIN ${move('old', -1)} ${move('new', 1)} END;
    CREATE TRIGGER call_outcome_rollup_insert AFTER INSERT ON jobs WHEN new.call_outcome IS NOT NULL BEGIN ${moveOutcome('new', 1)} END;
    CREATE TRIGGER call_outcome_rollup_delete AFTER DELETE ON jobs WHEN old.call_outcome IS NOT NULL BEGIN ${moveOutcome('old', -1)} END;
    CREATE TRIGGER call_outcome_rollup_update AFTER UPDATE OF project_id, voice_agent_id, created_at, job_response, type
      ON jobs WHEN ${OUTCOME_CHANGED} BEGIN ${moveOutcome('old', -1)} ${moveOutcome('new', 1)} END;
  `,
}
