/**
 * Agent test runs (issue 26): 50 typed scenarios (a template's starter suite, repeated) through
 * the real call path (conversation-init, the service's own /stream over 127.0.0.1, the offline
 * dialogue, eSpeak voices, unpaced playback), at concurrency 20 and then one at a time, against a
 * real runtime on SQLite. Reports scenarios per second and the runs' latency percentiles (first
 * greeting audio, voice-to-voice per caller line), with the process's CPU per scenario.
 * `npx tsx bench/run.ts test-runs` merges it into bench/results/latest.json and writes
 * bench/results/test-runs.json.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRuntime } from '../src/service/runtime'
import type { TestRun, TestSuite } from '../src/shared/api/test-suites'

const KEY = 'vd_bench_test_runs_0123456789abcdef0123'
const TEMPLATE = 'Restaurant Reservations'
const SCENARIOS = 50

interface RunFigures {
  concurrency: number
  scenarios: number
  passed: number
  wallSeconds: number
  scenariosPerSecond: number
  firstAudioMs: TestRun['summary']['firstAudioMs']
  voiceToVoiceMs: TestRun['summary']['voiceToVoiceMs']
  cpuMsPerScenario: number
}

export async function benchTestRuns(): Promise<object> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-test-runs-'))
  const runtime = await createRuntime({ dataDir, fixedApiKey: KEY, port: 0, host: '127.0.0.1', calls: { maxConcurrent: 50 } })
  try {
    const base = (await runtime.start()).replace('localhost', '127.0.0.1')
    const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Token ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const json = (await response.json()) as { data: T; message?: string }
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${json.message ?? ''}`)
      return json.data
    }
    const templates = await call<{ id: string; agentName: string }[]>('GET', '/v1/voice-agents/templates')
    const template = templates.find((candidate) => candidate.agentName === TEMPLATE)
    if (!template) throw new Error(`No template ${TEMPLATE}`)
    const agent = await call<{ id: string }>('POST', `/v1/voice-agents/clone?voiceAgentId=${template.id}`, {})
    const starter = await call<TestSuite>('GET', `/_voicedesk/agents/${agent.id}/test-suite/starter`)
    const suite: TestSuite = {
      scenarios: Array.from({ length: SCENARIOS }, (_, index) => {
        const scenario = starter.scenarios[index % starter.scenarios.length]!
        return { ...scenario, name: `${scenario.name} #${index + 1}` }
      }),
    }
    const measure = async (concurrency: number): Promise<RunFigures> => {
      const cpuBefore = process.cpuUsage()
      const started = performance.now()
      const { id } = await call<{ id: string }>('POST', `/_voicedesk/agents/${agent.id}/test-runs`, { suite, concurrency })
      let run: TestRun
      for (;;) {
        run = await call<TestRun>('GET', `/_voicedesk/test-runs/${id}`)
        if (run.status !== 'RUNNING') break
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const wallSeconds = (performance.now() - started) / 1000
      const cpu = process.cpuUsage(cpuBefore)
      return {
        concurrency,
        scenarios: run.summary.scenarios,
        passed: run.summary.passed,
        wallSeconds: Math.round(wallSeconds * 10) / 10,
        scenariosPerSecond: Math.round((run.summary.finished / wallSeconds) * 100) / 100,
        firstAudioMs: run.summary.firstAudioMs,
        voiceToVoiceMs: run.summary.voiceToVoiceMs,
        cpuMsPerScenario: Math.round((cpu.user + cpu.system) / 1000 / run.summary.scenarios),
      }
    }
    // A first run warms the voices and the dialogue's indexes, as a service that has taken calls has them.
    await call('POST', `/_voicedesk/agents/${agent.id}/test-runs`, { suite: { scenarios: starter.scenarios.slice(0, 2) }, concurrency: 2 })
    await new Promise((resolve) => setTimeout(resolve, 5_000))
    const parallel = await measure(20)
    const serial = await measure(1)
    const results = {
      measuredAt: new Date().toISOString(),
      what: `${SCENARIOS} typed scenarios (the "${TEMPLATE}" starter suite, repeated) through /stream with unpaced playback, offline dialogue and eSpeak, SQLite`,
      parallel,
      serial,
      speedup: Math.round((parallel.scenariosPerSecond / serial.scenariosPerSecond) * 100) / 100,
    }
    writeFileSync(join(import.meta.dirname, 'results/test-runs.json'), JSON.stringify(results, null, 2) + '\n')
    return results
  } finally {
    await runtime.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
