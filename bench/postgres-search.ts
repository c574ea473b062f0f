/**
 * `npx tsx bench/postgres-search.ts [jobs]`: job search in PostgreSQL at a million jobs (the
 * default), two ways: the store's tsvector of bare lexemes under GIN (prefix queries 'word':*),
 * and pg_trgm (a GIN trigram index on lower(title || ' ' || text), ILIKE '%word%' narrowed to
 * word starts by a regular expression). Also a list page with its exact counts, which come
 * from job_counts and its deltas. Starts a throwaway cluster (test/helpers/postgres-cluster.ts),
 * so it needs PostgreSQL's server binaries. Writes bench/results/postgres-search.json.
 */
import { writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import { jobSearchQuery } from '../src/store/postgres/search-words'
import { openPostgresStore } from '../src/store/postgres/store'
import type { JobListQuery } from '../src/store/records'
import { startPostgresCluster } from '../test/helpers/postgres-cluster'

const JOBS = Number(process.argv[2] ?? 1_000_000)
const BATCH = 100_000
const RUNS = 7
const PROJECT = 'bench-project'

const ENGLISH = [
  'report',
  'revenue',
  'customer',
  'support',
  'call',
  'meeting',
  'quarterly',
  'invoice',
  'delivery',
  'schedule',
  'refund',
  'account',
  'order',
  'payment',
]
const ARABIC = ['مكالمة', 'العميل', 'خدمة', 'تقرير', 'فاتورة', 'موعد', 'طلب', 'دفع', 'حساب', 'شكرا', 'مرحبا', 'استرداد']
const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'te', 'su', 'no', 'vi', 'da', 'pe', 'zu', 'ho', 'ba', 'ge', 'fi', 'wo']

/** 12 000 words: common real ones (they match many jobs) and made-up ones (they match few). */
function vocabulary(): string[] {
  const words = [...ENGLISH, ...ARABIC]
  for (const a of SYLLABLES) for (const b of SYLLABLES) for (const c of SYLLABLES) words.push(`${a}${b}${c}`)
  for (let index = 0; words.length < 12_000; index += 1) words.push(`w${index.toString(36)}`)
  return words
}

async function median(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = []
  await run()
  for (let index = 0; index < RUNS; index += 1) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return Math.round(times[Math.floor(times.length / 2)]! * 100) / 100
}

const cluster = await startPostgresCluster()
try {
  const url = await cluster.createDatabase('bench')
  const store = await openPostgresStore({ url })
  const { pool } = store
  await store.accounts.insertProject({ id: PROJECT, name: 'Bench', isDefault: true, createdAt: '2024-01-01T00:00:00.000Z' })
  await store.accounts.insertLocalUser('bench-user', 'Bench', '2024-01-01T00:00:00.000Z')
  await store.accounts.insertKey({
    id: 'bench-key',
    projectId: PROJECT,
    userId: 'bench-user',
    name: 'k',
    keyHash: 'h',
    keyHint: 'h',
    createdAt: '2024-01-01T00:00:00.000Z',
  })

  // Seeding in SQL: title 3 words, text 12, drawn with a skew (low indexes, the real words, far more often).
  const words = vocabulary()
  const seedStarted = performance.now()
  await pool.query('SELECT setseed(0.42)')
  for (let start = 0; start < JOBS; start += BATCH) {
    const count = Math.min(BATCH, JOBS - start)
    await pool.query(
      `INSERT INTO jobs (id, project_id, api_key_id, user_id, type, status, title, model, processing_type, system_model_key, text,
          preview_token, total_cost, created_at, updated_at, search)
        SELECT 'job-' || i, $1, 'bench-key', 'bench-user', (ARRAY['TRANSCRIPTION','TRANSLATION','TTS','AI_CONTENT'])[1 + i % 4],
          CASE WHEN i % 10 = 0 THEN 'FAILED' ELSE 'COMPLETED' END, t.title, 'm', 'ASYNC', 'k', t.text, 'token-' || i, 1.5,
          to_char(timestamp '2024-01-01' + i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          to_char(timestamp '2024-01-01' + i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          array_to_tsvector(string_to_array(t.title || ' ' || t.text, ' '))
        FROM generate_series($2::int, $3::int) AS i,
          LATERAL (SELECT
            (SELECT string_agg(($4::text[])[1 + floor(power(random(), 3) * $5)::int], ' ') FROM generate_series(1, 3 + (i % 1)) ) AS title,
            (SELECT string_agg(($4::text[])[1 + floor(power(random(), 3) * $5)::int], ' ') FROM generate_series(1, 12 + (i % 1))) AS text) t`,
      [PROJECT, start, start + count - 1, words, words.length],
    )
    process.stdout.write(`seeded ${start + count} jobs (${Math.round((performance.now() - seedStarted) / 1000)} s)\n`)
  }
  const seedSeconds = Math.round((performance.now() - seedStarted) / 1000)
  await pool.query('VACUUM ANALYZE jobs')

  const trigramStarted = performance.now()
  await pool.query('CREATE EXTENSION IF NOT EXISTS pg_trgm')
  await pool.query(`CREATE INDEX bench_jobs_trigram ON jobs USING gin (lower(title || ' ' || coalesce(text, '')) gin_trgm_ops)`)
  const trigramIndexSeconds = Math.round((performance.now() - trigramStarted) / 1000)
  await pool.query('ANALYZE jobs')
  const sizes = (
    await pool.query<{ tsvector: string; trigram: string; table: string }>(
      `SELECT pg_size_pretty(pg_relation_size('jobs_search')) AS tsvector, pg_size_pretty(pg_relation_size('bench_jobs_trigram')) AS trigram,
        pg_size_pretty(pg_total_relation_size('jobs')) AS table`,
    )
  ).rows[0]

  /** The same semantics with pg_trgm: every word at a word start (whole word for one letter), case folded. */
  const trigram = async (searchWords: string[], countOnly: boolean) => {
    const values: unknown[] = [PROJECT]
    const conditions = searchWords.map((word) => {
      const like = `$${values.push(`%${word.toLowerCase()}%`)}`
      const regex = `$${values.push([...word].length > 1 ? `(^|[^[:alnum:]])${word.toLowerCase()}` : `(^|[^[:alnum:]])${word.toLowerCase()}($|[^[:alnum:]])`)}`
      return `lower(title || ' ' || coalesce(text, '')) LIKE ${like} AND lower(title || ' ' || coalesce(text, '')) ~ ${regex}`
    })
    const where = `project_id = $1 AND ${conditions.join(' AND ')}`
    if (countOnly) return (await pool.query(`SELECT count(*) FROM jobs WHERE ${where}`, values)).rows[0]
    return (await pool.query(`SELECT id FROM jobs WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT 50`, values)).rows
  }
  const page: JobListQuery = { sort: 'createdAt', direction: 'desc', limit: 50, offset: 0 }
  const searches: Record<string, string[]> = {
    'common word (report)': ['report'],
    'common prefix (cu)': ['cu'],
    'rare word (kalomi)': ['kalomi'],
    'two words (customer refund)': ['customer', 'refund'],
    'Arabic (العميل)': ['العميل'],
    'Arabic prefix (خد)': ['خد'],
    'no match (zzzz)': ['zzzz'],
  }
  const results: Record<string, unknown> = {}
  for (const [label, searchWords] of Object.entries(searches)) {
    const listed = await store.jobs.list(PROJECT, { ...page, words: searchWords })
    results[label] = {
      matches: listed.filtered,
      tsvectorListWithCountsMs: await median(() => store.jobs.list(PROJECT, { ...page, words: searchWords })),
      tsvectorCountMs: await median(() =>
        pool.query('SELECT count(*) FROM jobs WHERE project_id = $1 AND search @@ $2::tsquery', [PROJECT, jobSearchQuery(searchWords)]),
      ),
      trigramPageMs: await median(() => trigram(searchWords, false)),
      trigramCountMs: await median(() => trigram(searchWords, true)),
    }
    process.stdout.write(`${label}: ${JSON.stringify(results[label])}\n`)
  }
  const lists = {
    firstPageMs: await median(() => store.jobs.list(PROJECT, page)),
    failedFilterMs: await median(() => store.jobs.list(PROJECT, { ...page, status: 'FAILED' })),
    titleSortMs: await median(() => store.jobs.list(PROJECT, { ...page, sort: 'title', direction: 'asc' })),
    countStarMs: await median(() => pool.query('SELECT count(*) FROM jobs WHERE project_id = $1', [PROJECT])),
  }
  process.stdout.write(`lists: ${JSON.stringify(lists)}\n`)
  const server = (await pool.query<{ version: string }>('SHOW server_version')).rows[0]?.version
  const report = {
    at: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, postgres: server },
    jobs: JOBS,
    seedSeconds,
    trigramIndexSeconds,
    sizes,
    medianOfRuns: RUNS,
    search: results,
    lists,
  }
  writeFileSync(fileURLToPath(new URL('results/postgres-search.json', import.meta.url)), `${JSON.stringify(report, null, 2)}\n`)
  await store.close()
} finally {
  await cluster.stop()
}
