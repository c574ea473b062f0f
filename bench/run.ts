/**
 * `npm run bench`: the service's speed targets, measured in one run on this machine:
 * start-up, GET of an agent against a bare node:http ceiling, job lists and search at a
 * million jobs, job pickup, TTS throughput, AI content time, webhook throughput and latency.
 * Writes bench/results/latest.json. Run after `npm run build` (the npm script does).
 */
import autocannon from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { benchAiContent } from './ai-content'
import { benchJobs } from './jobs'
import { benchTts } from './tts'
import { benchWebhooks } from './webhooks'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI = join(ROOT, 'out/main/cli.js')
const BIN = join(ROOT, 'bin/voicedesk.js')
const KEY = 'vd_bench_key_0123456789abcdef0123456789'
const ROUNDS = 4
const ROUND_SECONDS = 5
const CONNECTIONS = 10
const STARTUP_RUNS = 15

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = output.match(pattern)
      if (match) resolve(match)
    })
    child.on('exit', (code) => reject(new Error(`exited with ${code} before printing ${pattern}: ${output}`)))
  })
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

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

async function load(url: string, headers: Record<string, string>): Promise<{ requestsPerSecond: number; p99Ms: number; errors: number; non2xx: number }> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: ROUND_SECONDS, pipelining: 1 })
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, errors: result.errors, non2xx: result.non2xx }
}

async function main(): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-'))
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}`,
  }
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
    const summary = (values: number[]) => ({ p50: round(percentile(values, 50)), p90: round(percentile(values, 90)), max: round(Math.max(...values)) })
    results.startup = {
      method: 'spawn to the first 200 on GET /healthz',
      runs: STARTUP_RUNS,
      voicedeskFreshDataDirMs: summary(cold),
      voicedeskExistingDataDirMs: summary(warm),
      npmRunServeExistingDataDirMs: { runs: viaNpm.length, ...summary(viaNpm) },
      target: 'npm run serve under 1000 ms',
    }
    console.log('startup', results.startup)

    // 2. GET /v1/voice-agents/{id} against a bare node:http server answering the same bytes.
    const port = await freePort()
    const service = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--data-dir', join(workDir, 'service')], {
      env: { ...process.env, VOICEDESK_API_KEY: KEY },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    await waitForLine(service, /listening on (http:\/\/\S+)/)
    const base = `http://127.0.0.1:${port}`
    const headers = { authorization: `Token ${KEY}` }
    const templates = (await (await fetch(`${base}/v1/voice-agents/templates`, { headers })).json()) as { data: { id: string }[] }
    const cloned = (await (
      await fetch(`${base}/v1/voice-agents/clone?voiceAgentId=${templates.data[0]!.id}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ agentName: 'Benchmark agent' }),
      })
    ).json()) as { data: { id: string } }
    const agentUrl = `${base}/v1/voice-agents/${cloned.data.id}`
    const body = await (await fetch(agentUrl, { headers })).text()

    const bare = spawn(process.execPath, [join(ROOT, 'bench/bare-server.mjs')], {
      env: { ...process.env, BARE_BODY: body },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const [, bareUrl] = await waitForLine(bare, /listening on (http:\/\/\S+)/)
    const bareBody = await (await fetch(bareUrl!)).text()
    if (bareBody !== body) throw new Error('the bare server does not answer the same bytes')

    const rounds: { bare: number; voicedesk: number; voicedeskP99Ms: number; bareP99Ms: number }[] = []
    await load(bareUrl!, headers) // warm-up, not counted
    await load(agentUrl, headers)
    for (let index = 0; index < ROUNDS; index += 1) {
      const ceiling = await load(bareUrl!, headers)
      const ours = await load(agentUrl, headers)
      if (ours.errors || ours.non2xx) throw new Error(`VoiceDesk answered ${ours.non2xx} non-2xx and ${ours.errors} errors`)
      rounds.push({ bare: round(ceiling.requestsPerSecond), voicedesk: round(ours.requestsPerSecond), bareP99Ms: ceiling.p99Ms, voicedeskP99Ms: ours.p99Ms })
      console.log(`round ${index + 1}: bare ${ceiling.requestsPerSecond} req/s, voicedesk ${ours.requestsPerSecond} req/s`)
    }
    const bareMedian = percentile(
      rounds.map((r) => r.bare),
      50,
    )
    const oursMedian = percentile(
      rounds.map((r) => r.voicedesk),
      50,
    )
    results.getVoiceAgent = {
      method: `autocannon, ${CONNECTIONS} connections, ${ROUND_SECONDS} s per round, ${ROUNDS} alternating rounds after a warm-up`,
      responseBytes: Buffer.byteLength(body),
      rounds,
      bareMedianRps: bareMedian,
      voicedeskMedianRps: oursMedian,
      ratio: Number((oursMedian / bareMedian).toFixed(3)),
      target: 'ratio >= 0.5',
    }
    console.log('getVoiceAgent ratio', (oursMedian / bareMedian).toFixed(3))
    await stopChild(bare)
    await stopChild(service)
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
  // In-process measurements, after the HTTP ones so they do not share the CPU with them.
  results.jobs = await benchJobs()
  console.log('jobs', results.jobs)
  results.tts = await benchTts()
  console.log('tts', results.tts)
  results.aiContent = await benchAiContent()
  console.log('aiContent', results.aiContent)
  results.webhooks = await benchWebhooks()
  console.log('webhooks', results.webhooks)
  const file = join(ROOT, 'bench/results/latest.json')
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n')
  console.log(`written to ${file}`)
}

await main()
