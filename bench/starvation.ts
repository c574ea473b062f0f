/**
 * Starvation (issue 22, finding 2): with 4 transcriptions of one project queued whose media URLs
 * drip one byte every 2 s (a real loopback HTTP server written here, standing for a hostile media
 * host: never silent long enough for the fetch's idle limit), how long a TTS job of another
 * project takes from its POST to COMPLETED, over a real socket on 127.0.0.1 against a real
 * runtime on SQLite (the speech engine already started by a TTS job before the drips). Measured with the default lanes, then with the runner as it was before
 * lanes (one lane of 2 slots for every job type), where the TTS job waits behind the drips
 * (cut off at BEFORE_LIMIT_MS). The speech recognition server is never reached (the fetches
 * come first): its setting points at a closed port. The least-rate cut is set beyond the run
 * (`minFetchBytesPerSecond: 0`), so the drips hold their slots for the whole measurement.
 * `npx tsx bench/run.ts starvation` merges it into bench/results/latest.json.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JobLane } from '../src/jobs/job-runner'
import { JOB_TYPES } from '../src/shared/api/jobs'
import { VOICES } from '../src/shared/voices'
import { createProject } from '../src/service/ops/api-keys'
import { createRuntime } from '../src/service/runtime'
import { STT_SETTING_KEY } from '../src/service/settings/stt-settings'

const KEY = 'vd_bench_starvation_0123456789abcdef0123'
const AVA = VOICES.find((voice) => voice.name === 'Ava')!.id
const DRIPS = 4
const TTS_RUNS = 5
const BEFORE_LIMIT_MS = 20_000

/** One run: the TTS completion times (ms) of TTS_RUNS jobs in turn, or how long the first stayed PENDING when it never ended. */
async function measure(
  lanes: readonly JobLane[] | undefined,
  limitMs: number,
): Promise<{ firstTtsMs: number; completionMs: number[]; pendingAfterMs?: number; fetchesHeld: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-starvation-'))
  const open = new Set<object>()
  const drip = createServer((_request, response) => {
    open.add(response)
    response.writeHead(200, { 'content-type': 'audio/mpeg' })
    const timer = setInterval(() => response.write('D'), 2_000)
    response.on('close', () => {
      clearInterval(timer)
      open.delete(response)
    })
  })
  await new Promise<void>((resolve) => drip.listen(0, '127.0.0.1', resolve))
  const runtime = await createRuntime({
    dataDir,
    fixedApiKey: KEY,
    port: 0,
    host: '127.0.0.1',
    jobs: { lanes, graceMs: 100 },
    mediaIntake: { minFetchBytesPerSecond: 0 },
  })
  try {
    const base = await runtime.start()
    await runtime.store.settings.set(STT_SETTING_KEY, { engine: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' })
    const other = await createProject(runtime.context, 'Other project')
    /** True once the job is COMPLETED, false when still PENDING after `limitMs`. */
    const spoken = async (id: string, limitMs: number): Promise<boolean> => {
      const started = performance.now()
      for (;;) {
        const job = (
          (await (await fetch(`${base}/v1/jobs?jobId=${id}`, { headers: { authorization: `Token ${other.key}` } })).json()) as {
            data: { status: string }
          }
        ).data
        if (job.status === 'COMPLETED') return true
        if (job.status !== 'PENDING') throw new Error(`the TTS job ended ${job.status}`)
        if (performance.now() - started > limitMs) return false
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    }
    const post = async (key: string, path: string, body: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
      return ((await response.json()) as { data: { id: string } }).data.id
    }
    // The speech engine starts with the process's first TTS job: timed alone, before the drips.
    const warmUp = performance.now()
    await spoken(await post(other.key, '/v1/jobs/text-to-speech', { voiceId: AVA, text: 'Warm up.' }), Infinity)
    const firstTtsMs = Math.round(performance.now() - warmUp)
    const dripUrl = `http://127.0.0.1:${(drip.address() as AddressInfo).port}`
    for (let index = 0; index < DRIPS; index += 1)
      await post(KEY, '/v1/jobs/transcribe', { model: 'General-V2.0', processingType: 'async', mediaUrl: `${dripUrl}/a${index}.mp3` })
    const heldSince = Date.now()
    while (open.size < 2 && Date.now() - heldSince < 10_000) await new Promise((resolve) => setTimeout(resolve, 10))
    const completionMs: number[] = []
    for (let run = 0; run < TTS_RUNS; run += 1) {
      const queued = performance.now()
      const id = await post(other.key, '/v1/jobs/text-to-speech', { voiceId: AVA, text: 'Your appointment is confirmed for Tuesday.' })
      if (!(await spoken(id, limitMs)))
        return { firstTtsMs, completionMs, pendingAfterMs: Math.round(performance.now() - queued), fetchesHeld: open.size }
      completionMs.push(Math.round(performance.now() - queued))
    }
    return { firstTtsMs, completionMs, fetchesHeld: open.size }
  } finally {
    await runtime.stop()
    drip.closeAllConnections()
    await new Promise((resolve) => drip.close(resolve))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export async function benchStarvation(): Promise<object> {
  const withLanes = await measure(undefined, 30_000)
  const oneLane = await measure([{ name: 'all', types: JOB_TYPES, slots: 2, perProject: 2 }], BEFORE_LIMIT_MS)
  const sorted = [...withLanes.completionMs].sort((a, b) => a - b)
  return {
    method: `${DRIPS} transcriptions of one project whose media URLs drip 1 byte every 2 s (loopback server), then ${TTS_RUNS} TTS jobs of another project in turn, POST to COMPLETED over HTTP (SQLite, in process)`,
    ttsCompletionMs: {
      first: withLanes.completionMs[0],
      p50: sorted[Math.floor(sorted.length / 2)],
      max: sorted.at(-1),
      runs: withLanes.completionMs,
    },
    fetchesHeldMeanwhile: withLanes.fetchesHeld,
    firstTtsOfProcessMs: { note: "the speech engine's start (WebAssembly), before the drips, not counted above", ms: withLanes.firstTtsMs },
    beforeLanes: {
      lanes: 'one lane of 2 slots for every job type (the runner before lanes)',
      ttsCompleted: oneLane.completionMs.length > 0,
      ttsPendingAfterMs: oneLane.pendingAfterMs,
      fetchesHeldMeanwhile: oneLane.fetchesHeld,
    },
    target: 'the TTS job completes in < 5000 ms',
  }
}
