/**
 * Agent analytics at ANALYTICS_CALLS conversations (100,000) of one agent over the last 30 days,
 * on SQLite and on PostgreSQL (a throwaway cluster; skipped, with the reason, without its
 * binaries): each `/v1/agent-analytics/*` read and the project chart, through the service's
 * whole HTTP pipeline (a real runtime, Fastify's inject), for the project and for the agent.
 * Target: every read under 100 ms (p50 of 15 runs after 3 warm-ups; the max is written too).
 * The CSV export of all the calls is timed too, without a target. Runnable alone:
 * `npx tsx bench/run.ts analytics` (writes bench/results/analytics.json).
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRuntime, type Runtime } from '../src/service/runtime'
import { END_REASONS } from '../src/shared/api/conversations'
import type { ProjectRow } from '../src/store/records'
import { jobRecord } from '../test/helpers/job-record'
import { startBenchCluster } from './postgres'

export const ANALYTICS_CALLS = Number(process.env.BENCH_ANALYTICS_CALLS ?? 100_000)
const KEY = `vd_bench_${randomBytes(16).toString('hex')}`
const DAY_MS = 86_400_000
const RUNS = 15
const WARM = 3
const TARGET_MS = 100

const SHAPE = {
  type: 'object',
  properties: {
    guestName: { type: 'string' },
    visitDate: { type: 'string' },
    partySize: { type: 'integer' },
    satisfactionRating: { type: 'integer', enum: [1, 2, 3, 4, 5] },
  },
}

/** A call's state as a finished call writes it: eight turns, a tool call now and then, an outcome. */
function stateOf(index: number, createdAt: string): Record<string, unknown> {
  const transcript = Array.from({ length: 8 }, (_, turn) => ({
    role: turn % 2 === 0 ? 'agent' : 'caller',
    content: turn % 2 === 0 ? 'May I have the name for the booking, please?' : 'It is Sara, for four people on Friday.',
    startTime: turn * 3,
    endTime: turn * 3 + 2.5,
  }))
  return {
    startedAt: createdAt,
    endedAt: createdAt,
    endReason: END_REASONS[index % 5],
    transcript,
    toolCalls: index % 4 === 0 ? [{ id: `t${index}`, name: 'lookup', arguments: {}, at: 4 }] : [],
    outcomeResult: {
      guestName: 'Sara',
      visitDate: index % 3 === 0 ? null : '2026-11-20',
      partySize: 4,
      satisfactionRating: (index % 5) + 1,
    },
    outcomeComplete: index % 3 !== 0,
    bargeIns: index % 3,
    pokes: index % 2,
    answerDelays: { answers: 4, seconds: 3.2 },
    callerGender: null,
    speechRecognition: { enabled: false, engine: null, model: null },
    dialogueEngine: 'offline',
    params: {},
    tools: [],
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

async function measureEngine(runtime: Runtime): Promise<object> {
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    runtime.app.inject({
      method,
      url,
      headers: { authorization: `Token ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    })
  const created = await call('POST', '/v1/voice-agents', { agentName: 'Bench desk', outcomeResponseShape: SHAPE })
  const agentId = created.json<{ data: { id: string } }>().data.id
  const projectId = runtime.bootstrap.projectId
  const [key] = await runtime.store.accounts.listKeys(projectId)
  if (!key) throw new Error('the bench project has no key')
  const keyId = key.id
  const now = Date.now()
  const rows: ProjectRow[] = []
  for await (const row of runtime.store.projectData.exportProject(projectId)) rows.push(row)
  function* all(): Generator<ProjectRow> {
    yield* rows
    for (let index = 0; index < ANALYTICS_CALLS; index += 1) {
      const createdAt = new Date(now - 30 * DAY_MS + Math.floor((index / ANALYTICS_CALLS) * 30 * DAY_MS)).toISOString()
      yield {
        kind: 'job',
        record: jobRecord({
          projectId,
          apiKeyId: keyId,
          userId: runtime.bootstrap.userId,
          type: 'CONVERSATION',
          status: index % 10 === 0 ? 'FAILED' : 'COMPLETED',
          voiceAgentId: agentId,
          agentDetails: 'Bench desk',
          title: `Call with Bench desk`,
          text: null,
          jobResponse: stateOf(index, createdAt),
          usageSeconds: 20 + (index % 400),
          totalCost: 1,
          createdAt,
          updatedAt: createdAt,
        }),
      }
    }
  }
  const seedStarted = performance.now()
  await runtime.store.projectData.replaceProject(projectId, all())
  const seedSeconds = Math.round(performance.now() - seedStarted) / 1000
  const range = `period=CUSTOM&startPeriod=${now - 31 * DAY_MS}&endPeriod=${now}`
  const reads: Record<string, string> = {
    overviewProject: `/v1/agent-analytics/overview?${range}`,
    overviewAgent: `/v1/agent-analytics/overview?voiceAgentId=${agentId}&${range}`,
    callsProject: `/v1/agent-analytics/calls?${range}`,
    callsAgentWithOutcomeFields: `/v1/agent-analytics/calls?voiceAgentId=${agentId}&${range}`,
    satisfactionProject: `/v1/agent-analytics/satisfaction?${range}`,
    satisfactionAgent: `/v1/agent-analytics/satisfaction?voiceAgentId=${agentId}&${range}`,
    overviewThisMonthUtcPlus3: `/v1/agent-analytics/overview?period=THIS_MONTH&timeDifference=-3`,
    statisticsChart: `/v1/projects/statistics/chart?startPeriod=${now - 31 * DAY_MS}&endPeriod=${now}`,
  }
  const timings: Record<string, object> = {}
  let allUnderTarget = true
  for (const [name, url] of Object.entries(reads)) {
    const times: number[] = []
    for (let run = 0; run < WARM + RUNS; run += 1) {
      const started = performance.now()
      const response = await call('GET', url)
      const elapsed = performance.now() - started
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`)
      if (run >= WARM) times.push(elapsed)
    }
    const p50 = Math.round(percentile(times, 50) * 10) / 10
    if (p50 >= TARGET_MS) allUnderTarget = false
    timings[name] = { p50Ms: p50, maxMs: Math.round(Math.max(...times) * 10) / 10 }
  }
  const calls = (await call('GET', reads.overviewProject ?? '')).json<{ data: { totalSessionsNumber: number } }>()
  const exportStarted = performance.now()
  const exported = await call('GET', `/v1/agent-analytics/conversations/export?voiceAgentId=${agentId}&${range}`)
  const exportMs = Math.round(performance.now() - exportStarted)
  return {
    seedSeconds,
    callsCounted: calls.data.totalSessionsNumber,
    reads: timings,
    allUnderTarget,
    exportAllCalls: { ms: exportMs, bytes: exported.body.length, lines: exported.body.split('\r\n').length - 2 },
  }
}

async function withRuntime<T>(config: Parameters<typeof createRuntime>[0], use: (runtime: Runtime) => Promise<T>): Promise<T> {
  const runtime = await createRuntime(config)
  try {
    return await use(runtime)
  } finally {
    await runtime.stop()
  }
}

export async function benchAnalytics(): Promise<object> {
  const loadAtStart = loadavg().map((load) => Number(load.toFixed(2)))
  const folder = mkdtempSync(join(tmpdir(), 'voicedesk-bench-analytics-'))
  try {
    const sqlite = await withRuntime({ dataDir: join(folder, 'sqlite'), fixedApiKey: KEY, journal: { enabled: false } }, measureEngine)
    console.log('analytics sqlite', JSON.stringify(sqlite))
    let postgres: object
    const started = await startBenchCluster()
    if ('skipped' in started) postgres = { skipped: started.skipped }
    else {
      try {
        const url = await started.cluster.createDatabase()
        postgres = {
          server: started.version,
          ...(await withRuntime(
            {
              dataDir: join(folder, 'postgres'),
              fixedApiKey: KEY,
              journal: { enabled: false },
              database: { url },
              secretKey: randomBytes(32),
            },
            measureEngine,
          )),
        }
      } finally {
        await started.cluster.stop()
      }
    }
    console.log('analytics postgres', JSON.stringify(postgres))
    return {
      method: `${ANALYTICS_CALLS} conversations of one agent spread over the last 30 days (8 turns, an outcome of 4 fields, a tool call in 4), seeded with Store.projectData.replaceProject; each read through the runtime's HTTP pipeline (Fastify inject), ${WARM} warm-ups then ${RUNS} runs, p50 and max; the range covers every call`,
      targetMs: TARGET_MS,
      machine: {
        cores: cpus().length,
        loadAverageAtStart: loadAtStart,
        loadAverageAtEnd: loadavg().map((load) => Number(load.toFixed(2))),
      },
      date: new Date().toISOString(),
      sqlite,
      postgres,
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** Measures and writes bench/results/analytics.json (the whole run and `npx tsx bench/run.ts analytics` alike). */
export async function benchAnalyticsToFile(): Promise<object> {
  const results = await benchAnalytics()
  const file = join(dirname(fileURLToPath(import.meta.url)), 'results/analytics.json')
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n')
  console.log(`written to ${file}`)
  return results
}
