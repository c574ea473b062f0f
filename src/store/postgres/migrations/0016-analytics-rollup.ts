import type { Migration } from '../migrate'

/**
 * The UTC quarter hour a row was created in, 'YYYY-MM-DDTHH:MM' (MM one of 00, 15, 30, 45),
 * by comparing the minutes' two digits as text: no cast that a malformed time could fail.
 */
function slot(row: string): string {
  const minutes = `substr(${row}.created_at, 15, 2)`
  return `(substr(${row}.created_at, 1, 14) || CASE WHEN ${minutes} < '15' THEN '00' WHEN ${minutes} < '30' THEN '15'
    WHEN ${minutes} < '45' THEN '30' ELSE '45' END)`
}

/** The UTC hour a row was created in, 'YYYY-MM-DDTHH:00'. */
function hour(row: string): string {
  return `(substr(${row}.created_at, 1, 14) || '00')`
}

/** The rollup's key: a row's project, slot, type, agent ('' for none), status and end reason ('' and false for none). */
const KEY: [string, (row: string) => string][] = [
  ['project_id', (row) => `${row}.project_id`],
  ['slot', slot],
  ['type', (row) => `${row}.type`],
  ['voice_agent_id', (row) => `coalesce(${row}.voice_agent_id, '')`],
  ['status', (row) => `${row}.status`],
  ['end_reason', (row) => `coalesce(${row}.call_end_reason, '')`],
  ['end_reason_set', (row) => `(${row}.call_end_reason IS NOT NULL)`],
]

/** What one row adds to its group: every figure analytics reads is a sum of these. */
const FIGURES: [string, (row: string) => string][] = [
  ['jobs', () => '1'],
  ['cost', (row) => `${row}.total_cost`],
  ['usage_seconds', (row) => `coalesce(${row}.usage_seconds, 0)`],
  ['timed_calls', (row) => `(${row}.call_seconds IS NOT NULL)::int`],
  ['seconds', (row) => `coalesce(${row}.call_seconds, 0)`],
  ['short_calls', (row) => `coalesce((${row}.call_seconds < 60)::int, 0)`],
  ['medium_calls', (row) => `coalesce((${row}.call_seconds >= 60 AND ${row}.call_seconds <= 300)::int, 0)`],
  ['long_calls', (row) => `coalesce((${row}.call_seconds > 300)::int, 0)`],
  ['turns', (row) => `coalesce(${row}.call_turns, 0)`],
  ['barge_ins', (row) => `coalesce(${row}.call_barge_ins, 0)`],
  ['pokes', (row) => `coalesce(${row}.call_pokes, 0)`],
  ['tool_calls', (row) => `coalesce(${row}.call_tool_calls, 0)`],
  ['answers', (row) => `coalesce(${row}.call_answers, 0)`],
  ['answer_seconds', (row) => `coalesce(${row}.call_answer_seconds, 0)`],
  ['outcome_complete', (row) => `(${row}.call_outcome_complete IS TRUE)::int`],
  ['outcome_partial', (row) => `(${row}.call_outcome_complete IS FALSE)::int`],
]

const KEY_COLUMNS = KEY.map(([column]) => column).join(', ')
const FIGURE_COLUMNS = FIGURES.map(([column]) => column).join(', ')
/** Counts are integers (a sum of integers is a bigint, far quicker than the numeric a sum of bigints is). */
const COUNTS = new Set(['jobs', 'timed_calls', 'short_calls', 'medium_calls', 'long_calls', 'outcome_complete', 'outcome_partial'])

const JOB_COLUMNS = `project_id text COLLATE "C" NOT NULL, slot text COLLATE "C" NOT NULL, type text COLLATE "C" NOT NULL,
  voice_agent_id text COLLATE "C" NOT NULL, status text COLLATE "C" NOT NULL, end_reason text NOT NULL, end_reason_set boolean NOT NULL,
  ${FIGURES.map(([column]) => `${column} ${COUNTS.has(column) ? 'integer' : 'double precision'} NOT NULL`).join(', ')}`
const FIELD_COLUMNS = `project_id text COLLATE "C" NOT NULL, voice_agent_id text COLLATE "C" NOT NULL, slot text COLLATE "C" NOT NULL,
  field text NOT NULL, filled integer NOT NULL`
const RATING_COLUMNS = `project_id text COLLATE "C" NOT NULL, voice_agent_id text COLLATE "C" NOT NULL, slot text COLLATE "C" NOT NULL,
  field text NOT NULL, value double precision NOT NULL, calls integer NOT NULL`

/** The jobs of `source` (alias j) grouped as a rollup keys them (by `slotOf`), each figure summed and signed. */
function jobGroups(source: string, sign: '' | '-', slotOf: (row: string) => string = slot): string {
  return `SELECT ${KEY.map(([column, value]) => (column === 'slot' ? slotOf : value)('j')).join(', ')}, ${FIGURES.map(([, value]) => `${sign}sum(${value('j')})`).join(', ')}
    FROM ${source} j GROUP BY ${KEY.map((_, index) => index + 1).join(', ')}`
}

/** Names matched as the satisfaction reads' rating names are (ASCII letters, any case). */
const RATING_NAME = `e.key ~* '(rating|satisfaction|csat|nps|score)'`

/** The filled outcome fields of the calls of `source` (alias j), counted per group and signed. */
function fieldGroups(source: string, sign: '' | '-'): string {
  return `SELECT j.project_id, j.voice_agent_id, ${hour('j')}, e.key, ${sign}count(*)
    FROM ${source} j CROSS JOIN LATERAL jsonb_each(j.call_outcome) e
    WHERE j.call_outcome IS NOT NULL AND j.voice_agent_id IS NOT NULL AND jsonb_typeof(e.value) <> 'null' GROUP BY 1, 2, 3, 4`
}

/** The numeric values the calls of `source` (alias j) gave fields named like a rating, counted per group and signed. */
function ratingGroups(source: string, sign: '' | '-'): string {
  return `SELECT j.project_id, j.voice_agent_id, ${hour('j')}, e.key, (e.value #>> '{}')::double precision, ${sign}count(*)
    FROM ${source} j CROSS JOIN LATERAL jsonb_each(j.call_outcome) e
    WHERE j.call_outcome IS NOT NULL AND j.voice_agent_id IS NOT NULL AND jsonb_typeof(e.value) = 'number' AND ${RATING_NAME}
    GROUP BY 1, 2, 3, 4, 5`
}

/** Writes the deltas of the rows of `source` (a transition table, or one row's `(SELECT old.*)`). */
function deltas(source: string, sign: '' | '-', withJobs: boolean, withOutcome: boolean): string {
  return [
    withJobs
      ? `INSERT INTO job_rollup_deltas (${KEY_COLUMNS}, ${FIGURE_COLUMNS}) ${jobGroups(source, sign)};
         INSERT INTO job_rollup_hours_deltas (${KEY_COLUMNS}, ${FIGURE_COLUMNS}) ${jobGroups(source, sign, hour)};`
      : '',
    withOutcome
      ? `INSERT INTO call_field_deltas (project_id, voice_agent_id, slot, field, filled) ${fieldGroups(source, sign)};
         INSERT INTO call_rating_deltas (project_id, voice_agent_id, slot, field, value, calls) ${ratingGroups(source, sign)};`
      : '',
  ].join('\n')
}

/**
 * Folds one delta table into its rollup (see PostgresAnalyticsRepository): deltas another fold
 * holds are skipped. A fold that wrote many groups (a restore, an import) refreshes the rollup's
 * statistics at once, as autovacuum would a minute later: a read planned meanwhile on a table the
 * planner believes empty sorts where it should hash.
 */
function fold(table: string, deltaTable: string, keys: string, figures: string[]): string {
  return `WITH moved AS (
      DELETE FROM ${deltaTable} WHERE seq IN (SELECT seq FROM ${deltaTable} FOR UPDATE SKIP LOCKED) RETURNING *)
    INSERT INTO ${table} (${keys}, ${figures.join(', ')})
      SELECT ${keys}, ${figures.map((figure) => `sum(${figure})`).join(', ')} FROM moved GROUP BY ${keys} ORDER BY ${keys}
    ON CONFLICT (${keys}) DO UPDATE SET ${figures.map((figure) => `${figure} = ${table}.${figure} + excluded.${figure}`).join(', ')};
    GET DIAGNOSTICS folded = ROW_COUNT;
    IF folded > 1000 THEN ANALYZE ${table}; END IF;`
}

/** A change of any of these moves a job to another group or changes what it adds. */
const JOB_CHANGED = `old.project_id IS DISTINCT FROM new.project_id OR old.type IS DISTINCT FROM new.type
  OR old.voice_agent_id IS DISTINCT FROM new.voice_agent_id OR old.status IS DISTINCT FROM new.status
  OR old.created_at IS DISTINCT FROM new.created_at OR old.total_cost IS DISTINCT FROM new.total_cost
  OR old.usage_seconds IS DISTINCT FROM new.usage_seconds
  OR ((old.type = 'CONVERSATION' OR new.type = 'CONVERSATION') AND old.job_response IS DISTINCT FROM new.job_response)`

/** A change of any of these changes what a call's outcome adds. */
const OUTCOME_CHANGED = `(old.call_outcome IS NOT NULL OR new.call_outcome IS NOT NULL) AND (old.project_id IS DISTINCT FROM new.project_id
  OR old.voice_agent_id IS DISTINCT FROM new.voice_agent_id OR old.created_at IS DISTINCT FROM new.created_at
  OR old.call_outcome IS DISTINCT FROM new.call_outcome)`

/**
 * Analytics reads sums, not rows: job_rollup holds, per project, UTC quarter hour (slot), type,
 * agent, status and end reason, how many jobs there are and the sums of what analytics reads
 * of them (cost, usage, and what a call kept: migration 0015's columns); job_rollup_hours the same
 * by UTC hour (a quarter of the rows: what a read takes for local times whole hours from UTC).
 * call_field_rollup counts, per project, agent and UTC hour, the calls whose outcome has each top-level field (not
 * null), and call_rating_rollup how many gave each numeric value to a field named like a
 * rating. Kept as job_counts is (migration 0002): triggers append signed deltas (insert-only,
 * so concurrent writers never queue on a shared row), a read sums a rollup and its deltas in
 * one snapshot (exact), and analytics_rollup_fold() folds the deltas in now and then. A group
 * whose count falls to 0 stays, and reads leave it out. A read over a range sums the whole
 * slots here and reads the jobs of its partial edge slots from jobs (see
 * PostgresAnalyticsRepository). The rows there now are summed once, here.
 */
export const analyticsRollup: Migration = {
  version: 16,
  name: 'analytics-rollup',
  sql: `
    CREATE TABLE job_rollup (${JOB_COLUMNS}, PRIMARY KEY (${KEY_COLUMNS}));
    CREATE TABLE job_rollup_deltas (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, ${JOB_COLUMNS});
    CREATE INDEX job_rollup_deltas_by_slot ON job_rollup_deltas (project_id, slot);
    CREATE TABLE job_rollup_hours (${JOB_COLUMNS}, PRIMARY KEY (${KEY_COLUMNS}));
    CREATE TABLE job_rollup_hours_deltas (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, ${JOB_COLUMNS});
    CREATE INDEX job_rollup_hours_deltas_by_slot ON job_rollup_hours_deltas (project_id, slot);
    CREATE TABLE call_field_rollup (${FIELD_COLUMNS}, PRIMARY KEY (project_id, voice_agent_id, slot, field));
    CREATE TABLE call_field_deltas (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, ${FIELD_COLUMNS});
    CREATE INDEX call_field_deltas_by_slot ON call_field_deltas (project_id, voice_agent_id, slot);
    CREATE TABLE call_rating_rollup (${RATING_COLUMNS}, PRIMARY KEY (project_id, voice_agent_id, slot, field, value));
    CREATE TABLE call_rating_deltas (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, ${RATING_COLUMNS});
    CREATE INDEX call_rating_deltas_by_slot ON call_rating_deltas (project_id, voice_agent_id, slot);

    INSERT INTO job_rollup (${KEY_COLUMNS}, ${FIGURE_COLUMNS}) ${jobGroups('jobs', '')};
    INSERT INTO job_rollup_hours (${KEY_COLUMNS}, ${FIGURE_COLUMNS}) ${jobGroups('jobs', '', hour)};
    INSERT INTO call_field_rollup (project_id, voice_agent_id, slot, field, filled) ${fieldGroups('jobs', '')};
    INSERT INTO call_rating_rollup (project_id, voice_agent_id, slot, field, value, calls) ${ratingGroups('jobs', '')};

    CREATE FUNCTION analytics_rollup_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${deltas('inserted_jobs', '', true, true)}
      RETURN NULL;
    END $$;
    CREATE FUNCTION analytics_rollup_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${deltas('deleted_jobs', '-', true, true)}
      RETURN NULL;
    END $$;
    CREATE FUNCTION job_rollup_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${deltas('(SELECT old.*)', '-', true, false)}
      ${deltas('(SELECT new.*)', '', true, false)}
      RETURN NULL;
    END $$;
    CREATE FUNCTION call_outcome_rollup_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${deltas('(SELECT old.*)', '-', false, true)}
      ${deltas('(SELECT new.*)', '', false, true)}
      RETURN NULL;
    END $$;
    CREATE TRIGGER analytics_rollup_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS inserted_jobs
      FOR EACH STATEMENT EXECUTE FUNCTION analytics_rollup_inserted();
    CREATE TRIGGER analytics_rollup_delete AFTER DELETE ON jobs REFERENCING OLD TABLE AS deleted_jobs
      FOR EACH STATEMENT EXECUTE FUNCTION analytics_rollup_deleted();
    CREATE TRIGGER job_rollup_update AFTER UPDATE ON jobs FOR EACH ROW WHEN (${JOB_CHANGED})
      EXECUTE FUNCTION job_rollup_moved();
    CREATE TRIGGER call_outcome_rollup_update AFTER UPDATE ON jobs FOR EACH ROW WHEN (${OUTCOME_CHANGED})
      EXECUTE FUNCTION call_outcome_rollup_moved();

    CREATE FUNCTION analytics_rollup_fold() RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      folded bigint;
    BEGIN
      ${fold(
        'job_rollup',
        'job_rollup_deltas',
        KEY_COLUMNS,
        FIGURES.map(([column]) => column),
      )}
      ${fold('call_field_rollup', 'call_field_deltas', 'project_id, voice_agent_id, slot, field', ['filled'])}
      ${fold('call_rating_rollup', 'call_rating_deltas', 'project_id, voice_agent_id, slot, field, value', ['calls'])}
    END $$;
  `,
}
