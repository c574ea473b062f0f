/**
 * `npm run bench`: the service's speed targets, measured in one run on this machine:
 * start-up, GET of an agent against a bare node:http ceiling, job lists and search at a
 * million jobs, job pickup, TTS throughput, AI content time, webhook throughput and latency,
 * the request journal's cost, live calls, the Test call panel, realtime speech, the monitor's
 * scrolling, media decoding, uploads, transcription, and project snapshots (every part below).
 * Then the PostgreSQL column (team mode, on a throwaway cluster): the same GET, lists and
 * search, pickup across two instances, and jobs per second with one and two instances;
 * skipped, with the reason in the results, when PostgreSQL's server binaries are missing.
 * Writes bench/results/latest.json. Run after `npm run build` (the npm script does).
 *
 * `npx tsx bench/run.ts calls` measures live calls alone (bench/calls.ts), merged into latest.json;
 * `jobs-lists` the SQLite lists and searches at a million jobs alone (bench/jobs.ts), `ui-scroll` the
 * monitor's frame times while scrolling 5,000 jobs in Chromium as the queue drains (bench/ui-scroll.ts),
 * `sip` twenty SIPp calls at once on the SIP line: greeting packet delay, RTP pacing, lost calls (bench/sip.ts).
 * `panel` the Test call panel (bench/panel.ts: a typed turn to the first agent audio, in Chromium).
 * `realtime-tts` realtime speech's time to first audio (bench/realtime-tts.ts).
 * `decode` media decoding for transcription: speed and memory on 10-minute and 2-hour files (bench/decode.ts).
 * `upload` a 300 MB multipart upload's memory (RSS growth) and speed, on files and on PostgreSQL (bench/upload.ts).
 * `transcribe` a transcription job's whole pipeline (streamed upload, decode, VAD, windows sent to a loopback
 * speech server) on 10-minute and 2-hour media: speed and memory (RSS growth), on files and on PostgreSQL (bench/transcribe.ts).
 * `journal` the GET of an agent with the request journal on and off (`--journal off`), each as a ratio to
 * the same bare node:http ceiling, the CPU each process spends per request, and the journal rows written per second meanwhile
 * (with BENCH_BASELINE_CLI=<another build's out/main/cli.js>, that build too, journal on, in the same rounds: a before/after).
 * `hot-path` what each hook on that GET costs (auth, Host check, CORS, faults, journal capture, the handler), from a
 * profile of the served process under the same load (bench/hot-path.ts).
 * `snapshot` a project's data out and back in at 100,000 jobs, on SQLite and PostgreSQL (bench/snapshot.ts).
 * `state-archive` a snapshot taken and restored as the service does it, archive written and read, at 100,000 jobs (bench/state-archive.ts).
 * `understanding` the offline engine against the corpus (bench/understanding/bench.ts): outcome fields right per caller kind and
 * language, turns per call, summary key facts, template titles and greeting questions; detail in bench/results/understanding.json.
 * `tts-pool` first greeting audio of 5 and 20 calls starting together while 200 TTS jobs wait, the speech pool against the engine as it was (bench/tts-pool.ts).
 * `test-runs` 50 typed test scenarios at concurrency 20 and one at a time: scenarios per second, latency percentiles (bench/test-runs.ts).
 * `analytics` the agent analytics reads and the project chart at 100,000 calls, on SQLite and PostgreSQL: target under 100 ms
 * each (bench/analytics.ts; writes bench/results/analytics.json).
 * `starvation` a TTS job of one project while 4 media URLs of another drip a byte every 2 s: its completion time, with the runner's lanes and without (bench/starvation.ts).
 * `npx tsx bench/run.ts postgres-lists` measures the PostgreSQL lists and search alone (seeding
 * JOBS jobs, then the list queries), `postgres` the whole PostgreSQL column (lists, pickup, jobs
 * per second; after `npm run build`), and writes them over those figures in
 * bench/results/latest.json, the rest of the file kept (postgres.jobs.postgresOnlyRun says when).
 * With BENCH_POSTGRES_URL (a superuser URL of a running cluster) it seeds a new database there
 * and leaves it, for EXPLAIN ANALYZE afterwards, instead of a throwaway cluster.
 */
import autocannon from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { benchAiContent } from './ai-content'
import { benchAnalyticsToFile } from './analytics'
import { benchJobs } from './jobs'
import { benchSnapshot } from './snapshot'
import { benchStateArchive } from './state-archive'
import { benchStarvation } from './starvation'
import pg from 'pg'
import type { PostgresCluster } from '../test/helpers/postgres-cluster'
import { benchPostgresJobs, spawnTeamInstance, startBenchCluster } from './postgres'
import { cpuTimeMs, freePort, stopChild, waitForLine, withOthersCores } from './processes'
import { benchHotPath } from './hot-path'
import { benchCalls } from './calls'
import { benchSip } from './sip'
import { benchDecode } from './decode'
import { benchPanel } from './panel'
import { benchRealtimeTts } from './realtime-tts'
import { benchTranscribe } from './transcribe'
import { benchTestRuns } from './test-runs'
import { benchTts } from './tts'
import { benchTtsPool } from './tts-pool'
import { benchUiScroll } from './ui-scroll'
import { benchUpload } from './upload'
import { benchUnderstanding } from './understanding/bench'
import { benchWebhooks } from './webhooks'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI = join(ROOT, 'out/main/cli.js')
// The services the parts start inherit this: none but the SIP part (which asks for a free port)
// measures the SIP line, and the second of several would only warn that 5060 is taken.
process.env.VOICEDESK_SIP_PORT ??= 'off'
const BIN = join(ROOT, 'bin/voicedesk.js')
const KEY = 'vd_bench_key_0123456789abcdef0123456789'
const ROUNDS = 4
/** The journal part runs up to this many rounds to get ROUNDS undisturbed ones. */
const MAX_ROUNDS = 10
/**
 * Cores other programs may take during a round before it counts as disturbed: on two cores the
 * service and the load generator fill both, so a neighbour's work moves the ratio (the bare
 * ceiling swung 20.6k-35.4k req/s between rounds on a busy day).
 */
const DISTURBED_CORES = 0.15
const ROUND_SECONDS = 5
const CONNECTIONS = 10
const STARTUP_RUNS = 15

const round = (value: number) => Math.round(value * 10) / 10

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/** How the service is started: the `voicedesk` bin (as installed), or `npm run serve` in a checkout. */
const START_COMMANDS = {
  voicedesk: (options: string[]) => [process.execPath, [BIN, 'serve', ...options]] as const,
  // The npm script already says `serve`: only the options follow `--` (a second `serve` is refused).
  npmRunServe: (options: string[]) => ['npm', ['run', '--silent', 'serve', '--', ...options]] as const,
}

/** Spawn to the first 200 on /healthz, polling every 2 ms. */
async function timeStartup(dataDir: string, command: keyof typeof START_COMMANDS = 'voicedesk'): Promise<number> {
  const port = await freePort()
  const [file, args] = START_COMMANDS[command](['--port', String(port), '--data-dir', dataDir])
  const started = performance.now()
  const child = spawn(file, args, {
    cwd: ROOT,
    env: { ...process.env, VOICEDESK_API_KEY: KEY },
    stdio: ['ignore', 'pipe', 'inherit'],
    // npm runs the service as its child: signal the whole group to stop both.
    detached: command === 'npmRunServe',
  })
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`)
        if (response.status === 200) return performance.now() - started
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error('serve exited during start-up')
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  } finally {
    if (command === 'npmRunServe') {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      process.kill(-child.pid!, 'SIGTERM')
      await exited
    } else {
      await stopChild(child)
    }
  }
}

/** One round of load; with the serving process's `pid`, also the CPU it spent per request (µs, from /proc; undefined elsewhere). */
async function load(
  url: string,
  headers: Record<string, string>,
  pid?: number,
): Promise<{ requestsPerSecond: number; p99Ms: number; errors: number; non2xx: number; cpuUsPerRequest?: number }> {
  const cpuBefore = cpuTimeMs(pid)
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: ROUND_SECONDS, pipelining: 1 })
  const cpuAfter = cpuTimeMs(pid)
  const cpuUsPerRequest =
    cpuBefore === undefined || cpuAfter === undefined ? undefined : round(((cpuAfter - cpuBefore) * 1000) / result.requests.total)
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    cpuUsPerRequest,
  }
}

/** Clones the first template agent through the API: answers its URL and the body of its GET. */
async function benchAgent(base: string, headers: Record<string, string>): Promise<{ agentUrl: string; body: string }> {
  const templates = (await (await fetch(`${base}/v1/voice-agents/templates`, { headers })).json()) as { data: { id: string }[] }
  const cloned = (await (
    await fetch(`${base}/v1/voice-agents/clone?voiceAgentId=${templates.data[0]!.id}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ agentName: 'Benchmark agent' }),
    })
  ).json()) as { data: { id: string } }
  const agentUrl = `${base}/v1/voice-agents/${cloned.data.id}`
  return { agentUrl, body: await (await fetch(agentUrl, { headers })).text() }
}

type Timing = { p50: number; p99: number }

/** The figures to quote side by side: SQLite's and PostgreSQL's, and their ratio (PostgreSQL / SQLite). */
function comparison(results: Record<string, unknown>): Record<string, unknown> {
  const postgres = results.postgres as { jobs?: Record<string, unknown>; skipped?: string }
  if (!postgres.jobs) return { skipped: postgres.skipped }
  const sqliteJobs = results.jobs as Record<string, unknown>
  const agent = results.getVoiceAgent as { ratio: number; postgres: { ratio: number } }
  const lists: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(sqliteJobs)) {
    const theirs = postgres.jobs[name] as Timing | undefined
    if (!name.endsWith('Ms') || typeof value !== 'object' || !theirs || !('p99' in theirs)) continue
    const ours = value as Timing
    lists[name] = {
      sqliteP50: ours.p50,
      postgresP50: theirs.p50,
      sqliteP99: ours.p99,
      postgresP99: theirs.p99,
      p99Ratio: Number((theirs.p99 / ours.p99).toFixed(1)),
    }
  }
  const pickup = sqliteJobs.pickupLatencyMs as Timing
  const pickupAcross = postgres.jobs.pickupAcrossInstancesMs as Timing
  const sqliteThroughput = sqliteJobs.throughput as { jobsPerSecond: number }
  const pgThroughput = postgres.jobs.throughput as {
    oneInstanceInThisProcess: { jobsPerSecond: number }
    oneInstance: { jobsPerSecond: number }
    twoInstances: { jobsPerSecond: number }
    twoToOneRatio: number
  }
  return {
    getVoiceAgentRatioToBare: { sqlite: agent.ratio, postgres: agent.postgres.ratio },
    jobListsAt: `${String(sqliteJobs.jobs)} jobs (SQLite) / ${String(postgres.jobs.jobs)} jobs (PostgreSQL), ms through listJobs`,
    jobLists: lists,
    pickupMs: {
      sqliteSameInstanceP50: pickup.p50,
      postgresAcrossInstancesP50: pickupAcross.p50,
      sqliteSameInstanceP99: pickup.p99,
      postgresAcrossInstancesP99: pickupAcross.p99,
    },
    jobsPerSecond: {
      sqliteOneInstanceInProcess: sqliteThroughput.jobsPerSecond,
      postgresOneInstanceInProcess: pgThroughput.oneInstanceInThisProcess.jobsPerSecond,
      postgresOneInstanceProcess: pgThroughput.oneInstance.jobsPerSecond,
      postgresTwoInstanceProcesses: pgThroughput.twoInstances.jobsPerSecond,
      postgresTwoToOneRatio: pgThroughput.twoToOneRatio,
      postgresToSqliteInProcessRatio: Number(
        (pgThroughput.oneInstanceInThisProcess.jobsPerSecond / sqliteThroughput.jobsPerSecond).toFixed(3),
      ),
    },
  }
}

async function main(): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-'))
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}`,
  }
  // Started after the start-up runs, stopped at the very end: idle but for the PostgreSQL measurements.
  let cluster: PostgresCluster | undefined
  try {
    await measure(workDir, results, (started) => (cluster = started))
  } finally {
    await cluster?.stop()
  }
}

/** Every measurement, in order; the PostgreSQL cluster is started between the start-up runs and the GET, and handed to `clusterStarted`. */
async function measure(
  workDir: string,
  results: Record<string, unknown>,
  clusterStarted: (cluster: PostgresCluster) => void,
): Promise<void> {
  let cluster: PostgresCluster | undefined
  let skipped: string | undefined
  let postgresVersion: string | undefined
  try {
    // 1. Start-up: a fresh data folder (migrations, first key) and an existing one.
    const cold: number[] = []
    const warm: number[] = []
    for (let run = 0; run < STARTUP_RUNS; run += 1) {
      const dataDir = join(workDir, `startup-${run}`)
      cold.push(await timeStartup(dataDir))
      warm.push(await timeStartup(dataDir))
    }
    const viaNpm: number[] = []
    for (let run = 0; run < 5; run += 1) viaNpm.push(await timeStartup(join(workDir, `startup-${run}`), 'npmRunServe'))
    const summary = (values: number[]) => ({
      p50: round(percentile(values, 50)),
      p90: round(percentile(values, 90)),
      max: round(Math.max(...values)),
    })
    results.startup = {
      method: 'spawn to the first 200 on GET /healthz',
      runs: STARTUP_RUNS,
      voicedeskFreshDataDirMs: summary(cold),
      voicedeskExistingDataDirMs: summary(warm),
      npmRunServeExistingDataDirMs: { runs: viaNpm.length, ...summary(viaNpm) },
      target: 'npm run serve under 1000 ms',
    }
    console.log('startup', results.startup)

    const started = await startBenchCluster()
    if ('skipped' in started) {
      skipped = started.skipped
      console.log(`PostgreSQL skipped: ${skipped}`)
    } else {
      ;({ cluster, version: postgresVersion } = started)
      clusterStarted(cluster)
    }

    // 2. GET /v1/voice-agents/{id} against a bare node:http server answering the same bytes, on
    // SQLite and (team mode) on PostgreSQL, in alternating rounds.
    const port = await freePort()
    const service = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--data-dir', join(workDir, 'service')], {
      env: { ...process.env, VOICEDESK_API_KEY: KEY },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    await waitForLine(service, /listening on (http:\/\/\S+)/)
    const headers = { authorization: `Token ${KEY}` }
    const { agentUrl, body } = await benchAgent(`http://127.0.0.1:${port}`, headers)
    let teamService: ChildProcess | undefined
    let teamAgent: { agentUrl: string; body: string } | undefined
    if (cluster) {
      const team = await spawnTeamInstance(await cluster.createDatabase('bench_http'), KEY)
      teamService = team.child
      teamAgent = await benchAgent(team.base, headers)
    }

    const bare = spawn(process.execPath, [join(ROOT, 'bench/bare-server.mjs')], {
      env: { ...process.env, BARE_BODY: body },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const [, bareUrl] = await waitForLine(bare, /listening on (http:\/\/\S+)/)
    const bareBody = await (await fetch(bareUrl!)).text()
    if (bareBody !== body) throw new Error('the bare server does not answer the same bytes')

    const rounds: {
      bare: number
      voicedesk: number
      voicedeskP99Ms: number
      bareP99Ms: number
      postgres?: number
      postgresP99Ms?: number
    }[] = []
    await load(bareUrl!, headers) // warm-up, not counted
    await load(agentUrl, headers)
    if (teamAgent) await load(teamAgent.agentUrl, headers)
    for (let index = 0; index < ROUNDS; index += 1) {
      const ceiling = await load(bareUrl!, headers)
      const ours = await load(agentUrl, headers)
      if (ours.errors || ours.non2xx) throw new Error(`VoiceDesk answered ${ours.non2xx} non-2xx and ${ours.errors} errors`)
      const row: (typeof rounds)[number] = {
        bare: round(ceiling.requestsPerSecond),
        voicedesk: round(ours.requestsPerSecond),
        bareP99Ms: ceiling.p99Ms,
        voicedeskP99Ms: ours.p99Ms,
      }
      if (teamAgent) {
        const team = await load(teamAgent.agentUrl, headers)
        if (team.errors || team.non2xx) throw new Error(`VoiceDesk on PostgreSQL answered ${team.non2xx} non-2xx and ${team.errors} errors`)
        row.postgres = round(team.requestsPerSecond)
        row.postgresP99Ms = team.p99Ms
      }
      rounds.push(row)
      console.log(
        `round ${index + 1}: bare ${ceiling.requestsPerSecond} req/s, voicedesk ${ours.requestsPerSecond} req/s, on PostgreSQL ${row.postgres ?? '-'} req/s`,
      )
    }
    const bareMedian = percentile(
      rounds.map((r) => r.bare),
      50,
    )
    const oursMedian = percentile(
      rounds.map((r) => r.voicedesk),
      50,
    )
    const teamMedian = teamAgent
      ? percentile(
          rounds.map((r) => r.postgres!),
          50,
        )
      : undefined
    results.getVoiceAgent = {
      method: `autocannon, ${CONNECTIONS} connections, ${ROUND_SECONDS} s per round, ${ROUNDS} alternating rounds (bare, SQLite, PostgreSQL) after a warm-up`,
      responseBytes: Buffer.byteLength(body),
      rounds,
      bareMedianRps: bareMedian,
      voicedeskMedianRps: oursMedian,
      ratio: Number((oursMedian / bareMedian).toFixed(3)),
      target: 'ratio >= 0.5',
      postgres:
        teamAgent && teamMedian !== undefined
          ? {
              method:
                "'serve --database-url' on a throwaway cluster (one instance, pool of 10), the same agent cloned; ratio to the same bare ceiling",
              responseBytes: Buffer.byteLength(teamAgent.body),
              voicedeskMedianRps: teamMedian,
              ratio: Number((teamMedian / bareMedian).toFixed(3)),
            }
          : { skipped: skipped! },
    }
    console.log(
      'getVoiceAgent ratio',
      (oursMedian / bareMedian).toFixed(3),
      'on PostgreSQL',
      teamMedian === undefined ? '-' : (teamMedian / bareMedian).toFixed(3),
    )
    await stopChild(bare)
    await stopChild(service)
    if (teamService) await stopChild(teamService)
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
  // The journal's own GET rounds (its bare ceiling measured again, alternating with them).
  results.journal = await benchJournal()
  console.log('journal', JSON.stringify(results.journal, null, 2))
  results.hotPath = await hotPath()
  console.log('hotPath', JSON.stringify(results.hotPath, null, 2))
  // In-process measurements, after the HTTP ones so they do not share the CPU with them.
  results.jobs = await benchJobs()
  console.log('jobs', results.jobs)
  results.tts = await benchTts()
  console.log('tts', results.tts)
  results.aiContent = await benchAiContent()
  console.log('aiContent', results.aiContent)
  results.webhooks = await benchWebhooks()
  console.log('webhooks', results.webhooks)
  results.calls = await benchCalls()
  console.log('calls', JSON.stringify(results.calls, null, 2))
  results.sip = await benchSip()
  console.log('sip', JSON.stringify(results.sip, null, 2))
  results.panel = await benchPanel()
  console.log('panel', JSON.stringify(results.panel, null, 2))
  results.realtimeTts = await benchRealtimeTts()
  console.log('realtimeTts', JSON.stringify(results.realtimeTts, null, 2))
  results.uiScroll = await benchUiScroll()
  console.log('uiScroll', JSON.stringify(results.uiScroll, null, 2))
  for (const [key, measurePart] of [
    ['decode', benchDecode],
    ['upload', benchUpload],
    ['transcribe', benchTranscribe],
    ['snapshot', benchSnapshot],
    ['stateArchive', benchStateArchive],
    ['understanding', benchUnderstanding],
    ['starvation', benchStarvation],
    ['ttsPool', benchTtsPool],
    ['testRuns', benchTestRuns],
    ['analytics', benchAnalyticsToFile],
  ] as const) {
    results[key] = await measurePart()
    console.log(key, JSON.stringify(results[key], null, 2))
  }
  results.postgres = cluster ? { server: postgresVersion, jobs: await benchPostgresJobs(cluster) } : { skipped }
  results.sqliteVsPostgres = comparison(results)
  console.log('sqliteVsPostgres', JSON.stringify(results.sqliteVsPostgres, null, 2))
  const file = join(ROOT, 'bench/results/latest.json')
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n')
  console.log(`written to ${file}`)
}

/** The PostgreSQL column alone (`listsOnly`: its lists and search), merged into latest.json (see the header). */
async function postgresOnly(listsOnly: boolean): Promise<void> {
  const file = join(ROOT, 'bench/results/latest.json')
  const results = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  const external = process.env.BENCH_POSTGRES_URL
  let cluster: PostgresCluster
  let version: string
  if (external) {
    const client = new pg.Client({ connectionString: external })
    await client.connect()
    version = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version
    await client.end()
    cluster = {
      url: external,
      async createDatabase(name) {
        const admin = new pg.Client({ connectionString: external })
        await admin.connect()
        try {
          await admin.query(`CREATE DATABASE "${name}"`)
        } finally {
          await admin.end()
        }
        const url = new URL(external)
        url.pathname = `/${name}`
        return url.toString()
      },
      async stop() {},
    }
  } else {
    const started = await startBenchCluster()
    if ('skipped' in started) throw new Error(started.skipped)
    ;({ cluster, version } = started)
  }
  try {
    const database = external ? `bench_jobs_${Date.now()}` : 'bench_jobs'
    const measured = await benchPostgresJobs(cluster, { listsOnly, database })
    const postgres = (results.postgres ?? {}) as { jobs?: Record<string, unknown> }
    const run = {
      date: new Date().toISOString(),
      node: process.version,
      database: external ? database : 'throwaway cluster',
      measured: listsOnly ? 'lists and search' : 'the whole PostgreSQL column',
    }
    results.postgres = { server: version, jobs: { ...postgres.jobs, ...measured, postgresOnlyRun: run } }
    results.sqliteVsPostgres = comparison(results)
    writeFileSync(file, JSON.stringify(results, null, 2) + '\n')
    console.log(`written to ${file}`)
  } finally {
    await cluster.stop()
  }
}

/** `npx tsx bench/run.ts jobs-lists`: the SQLite lists and searches alone (no pickup or throughput), merged into latest.json. */
async function jobListsOnly(): Promise<void> {
  const file = join(ROOT, 'bench/results/latest.json')
  const results = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  const measured = await benchJobs({ listsOnly: true })
  results.jobs = {
    ...(results.jobs as Record<string, unknown>),
    ...measured,
    listsOnlyRun: { date: new Date().toISOString(), node: process.version },
  }
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n')
  console.log(JSON.stringify(measured, null, 2))
}

/**
 * One part measured alone and merged into latest.json under `key`, beside the figures of the
 * last whole run, with when and on which Node it ran (`<key>OnlyRun`).
 */
async function partOnly(key: string, measure: () => Promise<object>): Promise<void> {
  const file = join(ROOT, 'bench/results/latest.json')
  const results = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  results[key] = { ...(await measure()), [`${key}OnlyRun`]: { date: new Date().toISOString(), node: process.version } }
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n')
  console.log(JSON.stringify(results[key], null, 2))
}

/**
 * The GET agent with the request journal on and with `--journal off`, in alternating rounds
 * against the same bare ceiling as part 2 of the whole run; then the journal's rows: every
 * request of the "on" rounds is one row, written in batches while the load runs.
 */
async function benchJournal(): Promise<object> {
  const workDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-journal-'))
  const children: ChildProcess[] = []
  try {
    const serve = async (name: string, options: string[], cli = CLI) => {
      const port = await freePort()
      const child = spawn(process.execPath, [cli, 'serve', '--port', String(port), '--data-dir', join(workDir, name), ...options], {
        env: { ...process.env, VOICEDESK_API_KEY: KEY },
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      children.push(child)
      await waitForLine(child, /listening on (http:\/\/\S+)/)
      return { base: `http://127.0.0.1:${port}`, pid: child.pid }
    }
    const headers = { authorization: `Token ${KEY}` }
    const { base: onBase, pid: onPid } = await serve('journal-on', [])
    const { base: offBase, pid: offPid } = await serve('journal-off', ['--journal', 'off'])
    const on = await benchAgent(onBase, headers)
    const off = await benchAgent(offBase, headers)
    // BENCH_BASELINE_CLI: another build's cli.js (say main's), journal on, in the same alternating rounds: a before/after in one run.
    const baselineCli = process.env.BENCH_BASELINE_CLI
    const baseline = baselineCli ? await serve('baseline-journal-on', [], baselineCli) : undefined
    const baselineAgent = baseline ? await benchAgent(baseline.base, headers) : undefined
    const bare = spawn(process.execPath, [join(ROOT, 'bench/bare-server.mjs')], {
      env: { ...process.env, BARE_BODY: on.body },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    children.push(bare)
    const [, bareUrl] = await waitForLine(bare, /listening on (http:\/\/\S+)/)
    await load(bareUrl!, headers) // warm-up, not counted
    await load(on.agentUrl, headers)
    await load(off.agentUrl, headers)
    if (baselineAgent) await load(baselineAgent.agentUrl, headers)
    const rows = async () => {
      const answer = (await (await fetch(`${onBase}/_voicedesk/requests?take=1`, { headers })).json()) as {
        data: { requests: { id: number }[]; dropped: number }
      }
      return { lastId: answer.data.requests[0]?.id ?? 0, dropped: answer.data.dropped }
    }
    const before = await rows()
    let onRequests = 0
    const rounds: {
      othersCores: number
      disturbed: boolean
      bare: number
      journalOn: number
      journalOff: number
      journalOnP99Ms: number
      journalOffP99Ms: number
      cpuUsPerRequest: { bare?: number; journalOn?: number; journalOff?: number; baselineOn?: number }
      baselineOn?: number
    }[] = []
    // A round counts when the machine did little else meanwhile (see DISTURBED_CORES); up to MAX_ROUNDS are run to get ROUNDS such.
    let others = 0
    const measured = async (url: string, pid: number | undefined) => {
      const { result, othersCores } = await withOthersCores([pid], () => load(url, headers, pid))
      others = Math.max(others, othersCores ?? 0)
      return result
    }
    for (let index = 0; index < MAX_ROUNDS && rounds.filter((row) => !row.disturbed).length < ROUNDS; index += 1) {
      others = 0
      const ceiling = await measured(bareUrl!, bare.pid)
      const withJournal = await measured(on.agentUrl, onPid)
      const without = await measured(off.agentUrl, offPid)
      const before = baselineAgent ? await measured(baselineAgent.agentUrl, baseline?.pid) : undefined
      for (const [name, result] of [
        ['on', withJournal],
        ['off', without],
      ] as const) {
        if (result.errors || result.non2xx) throw new Error(`journal ${name}: ${result.non2xx} non-2xx and ${result.errors} errors`)
      }
      onRequests += withJournal.requestsPerSecond * ROUND_SECONDS
      rounds.push({
        othersCores: others,
        disturbed: others > DISTURBED_CORES,
        bare: round(ceiling.requestsPerSecond),
        journalOn: round(withJournal.requestsPerSecond),
        journalOff: round(without.requestsPerSecond),
        journalOnP99Ms: withJournal.p99Ms,
        journalOffP99Ms: without.p99Ms,
        cpuUsPerRequest: {
          bare: ceiling.cpuUsPerRequest,
          journalOn: withJournal.cpuUsPerRequest,
          journalOff: without.cpuUsPerRequest,
          baselineOn: before?.cpuUsPerRequest,
        },
        ...(before ? { baselineOn: round(before.requestsPerSecond) } : {}),
      })
      console.log(
        `round ${index + 1}: bare ${ceiling.requestsPerSecond} req/s, journal on ${withJournal.requestsPerSecond}, off ${without.requestsPerSecond}${before ? `, baseline on ${before.requestsPerSecond}` : ''}; other programs ${others} cores${others > DISTURBED_CORES ? ' (disturbed: not counted)' : ''}`,
      )
    }
    // The first read after the load: it writes the queue and indexes what the load left unindexed (the idle service had time to index some already).
    const readStarted = performance.now()
    const after = await rows()
    const firstReadMs = Math.round(performance.now() - readStarted)
    // The undisturbed rounds when there are ROUNDS of them; else every round, and the result says the machine was busy.
    const quiet = rounds.filter((row) => !row.disturbed)
    const counted = quiet.length >= ROUNDS ? quiet : rounds
    const median = (pick: (row: (typeof rounds)[number]) => number) => percentile(counted.map(pick), 50)
    const bareMedian = median((row) => row.bare)
    return {
      method: `autocannon, ${CONNECTIONS} connections, ${ROUND_SECONDS} s per round, ${ROUNDS} alternating rounds (bare, journal on, journal off) after a warm-up, each counted only when other programs took at most ${DISTURBED_CORES} of a core meanwhile (up to ${MAX_ROUNDS} rounds run); GET /v1/voice-agents/{id}`,
      rounds,
      roundsCounted: counted.length,
      machineBusy: quiet.length < ROUNDS,
      bareMedianRps: bareMedian,
      journalOnMedianRps: median((row) => row.journalOn),
      journalOffMedianRps: median((row) => row.journalOff),
      ratioOn: Number((median((row) => row.journalOn) / bareMedian).toFixed(3)),
      ratioOff: Number((median((row) => row.journalOff) / bareMedian).toFixed(3)),
      ...(baselineCli
        ? { baseline: { cli: baselineCli, ratioOn: Number((median((row) => row.baselineOn!) / bareMedian).toFixed(3)) } }
        : {}),
      target: 'ratioOn >= 0.6',
      cpuUsPerRequestMedian: Object.fromEntries(
        (['bare', 'journalOn', 'journalOff', 'baselineOn'] as const).map((name) => {
          const values = counted.map((row) => row.cpuUsPerRequest[name]).filter((value): value is number => value !== undefined)
          return [name, values.length === 0 ? null : percentile(values, 50)]
        }),
      ),
      cpuNote:
        "CPU time (user + system, /proc) the serving process spent per request in each round: steadier than req/s on a shared machine, since another process's load takes the CPU away but does not add to it",
      rows: {
        written: after.lastId - before.lastId,
        requestsServed: Math.round(onRequests),
        dropped: after.dropped - before.dropped,
        perSecondSustained: round((after.lastId - before.lastId) / (rounds.length * ROUND_SECONDS)),
        firstReadMs,
        note: 'journal entries written during the "on" rounds (one per request, its 5.9 KB answer body kept and stored once), per second of those rounds; the read after them writes what was still queued and indexes what is kept',
      },
    }
  } finally {
    for (const child of children) await stopChild(child)
    rmSync(workDir, { recursive: true, force: true })
  }
}

/** What each hook on the GET agent's path costs (bench/hot-path.ts), under the journal part's load. */
function hotPath(): Promise<object> {
  return benchHotPath({ cli: CLI, key: KEY, connections: CONNECTIONS, seconds: ROUND_SECONDS, agent: benchAgent })
}

/** The parts `npx tsx bench/run.ts <part>` runs alone (see the header). */
const PARTS: Record<string, () => Promise<void>> = {
  postgres: () => postgresOnly(false),
  'postgres-lists': () => postgresOnly(true),
  'jobs-lists': jobListsOnly,
  'ui-scroll': () => partOnly('uiScroll', benchUiScroll),
  calls: () => partOnly('calls', benchCalls),
  sip: () => partOnly('sip', benchSip),
  panel: () => partOnly('panel', benchPanel),
  'realtime-tts': () => partOnly('realtimeTts', benchRealtimeTts),
  decode: () => partOnly('decode', benchDecode),
  upload: () => partOnly('upload', benchUpload),
  transcribe: () => partOnly('transcribe', benchTranscribe),
  journal: () => partOnly('journal', benchJournal),
  'hot-path': () => partOnly('hotPath', hotPath),
  snapshot: () => partOnly('snapshot', benchSnapshot),
  'state-archive': () => partOnly('stateArchive', benchStateArchive),
  understanding: () => partOnly('understanding', benchUnderstanding),
  starvation: () => partOnly('starvation', benchStarvation),
  'tts-pool': () => partOnly('ttsPool', benchTtsPool),
  'test-runs': () => partOnly('testRuns', benchTestRuns),
  analytics: async () => void (await benchAnalyticsToFile()),
}

const part = process.argv[2]
if (part === undefined) await main()
else if (Object.hasOwn(PARTS, part)) await PARTS[part]!()
else {
  console.error(`No bench part "${part}": run all with no argument, or one of ${Object.keys(PARTS).join(', ')}`)
  process.exitCode = 2
}
