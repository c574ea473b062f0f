/**
 * Live calls, measured as a client hears them: a real `voicedesk serve` child process (the build
 * in out/), callers that speak exactly the web SDK's frames over real sockets, and 200 TTS jobs
 * queued through the API just before twenty calls start together. Per run it reports:
 * - first greeting audio: `start` to the first `media` frame (targets p50 < 400 ms, p99 < 1.5 s);
 * - lead: the agent's audio queued at the client (audio received minus time since the
 *   utterance's first frame), its least value over every utterance (target >= 200 ms);
 * - caption gap: an utterance's first `answer` frame against its first audio frame (target <= 100 ms);
 * - voice-to-voice overhead: the caller's end of voice (real speech) to the agent's first audio,
 *   less the 600 ms of silence that ends a turn and the speech server's own time (target p50 < 150 ms);
 * - CPU per call: the service process's CPU time over the run, divided by the calls.
 * It runs twice: with the callers offering permessage-deflate (as browsers do) and without; then
 * `deflateCost` alternates ten calls with and without the offer, no flood, for the service's CPU time.
 * Speech recognition is a loopback double that answers at once (it stands for a server outside
 * this machine, whose time is not VoiceDesk's); the dialogue is the offline engine.
 * The bench reports; it never fails on a target.
 * Part of `npm run bench` (bench/run.ts); alone: `npx tsx bench/run.ts calls` (or `npx tsx bench/calls.ts`);
 * both write bench/results/calls.json.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createResampler } from '../src/engines/audio/speex-resampler'
import { parseWavPcm16Mono } from '../src/engines/audio/wav-file'
import { createEspeakTtsEngine } from '../src/engines/tts/tts-engine'
import { SdkCallClient, quietNoise } from '../test/helpers/sdk-call-client'
import { percentile } from './jobs'
import { freePort, stopChild, waitForLine } from './processes'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = join(ROOT, 'bin/voicedesk.js')
const KEY = 'vd_bench_calls_0123456789abcdef01234567'
const AVA = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'
const TRAILING_SILENCE_MS = 600
const CONCURRENT_CALLS = 20
const QUEUED_TTS_JOBS = 200
const DEFLATE_COST_CALLS = 10
const SAMPLE_RATE = 16_000

export const CALL_TARGETS = {
  firstGreetingAudioMs: 'p50 < 400 ms, p99 < 1500 ms',
  minLeadMs: '>= 200 ms over every utterance',
  captionGapMs: '<= 100 ms',
  voiceToVoiceOverheadMs: 'p50 < 150 ms',
}

/** One run: twenty calls starting together over a flood of TTS jobs. */
export interface CallsRunResult {
  /** Whether the callers offered permessage-deflate, and whether the service accepted it. */
  deflateOffered: boolean
  deflateAccepted: boolean
  calls: number
  ttsJobsQueued: number
  seconds: number
  firstGreetingAudioMs: { p50: number; p99: number; max: number }
  /** The least audio queued at the client over every utterance, just before a frame arrives, once the utterance's first burst is in. */
  lead: { minMs: number; p1Ms: number; utterances: number; utterancesBelow200Ms: number; underruns: number }
  captionGapMs: { p50: number; p99: number; max: number; utterances: number }
  voiceToVoiceOverheadMs: { p50: number; p99: number; turns: number }
  voiceToVoiceTotalMs: { p50: number; p99: number }
  cpu: { serviceCpuSeconds: number; cpuSecondsPerCall: number; percentOfCorePerCall: number }
  /** TTS jobs still queued or running when the last call ended (the flood was still on). */
  ttsJobsLeft: number
}

export interface CallsBenchResult {
  setup: { concurrentCalls: number; queuedTtsJobs: number; cores: number; loadAverageAtStart: number; note: string }
  targets: typeof CALL_TARGETS
  withDeflateOffered: CallsRunResult
  withoutDeflate: CallsRunResult
  /**
   * What compression alone costs: the same calls without the TTS flood, alternating with and
   * without deflate offered (CPU time is the steadier measure on a shared machine).
   */
  deflateCost: {
    calls: number
    rounds: {
      deflateOffered: boolean
      deflateAccepted: boolean
      serviceCpuSeconds: number
      firstGreetingAudioP50Ms: number
      minLeadMs: number
    }[]
  }
}

const round = (value: number) => Math.round(value * 10) / 10

/** User and system CPU seconds of a process so far (Linux /proc). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** The speech double: answers every upload at once with the same words, and says how long it took. */
async function startSpeechDouble(): Promise<{ server: Server; url: string; handlingMs: number[] }> {
  const handlingMs: number[] = []
  const server = createServer((request, response) => {
    const started = performance.now()
    request.resume()
    request.on('end', () => {
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({ text: 'My name is Sara Haddad' }))
      handlingMs.push(performance.now() - started)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, handlingMs }
}

async function callerSpeech(): Promise<Float32Array> {
  const engine = await createEspeakTtsEngine()
  try {
    const audio = parseWavPcm16Mono((await engine.synthesize('My name is Sara Haddad.', 'd7c17d05-0c73-4196-8cd2-25f2687d90b0')).wav)
    const resampler = await createResampler(audio.sampleRate, 16_000)
    const samples = resampler.resample(audio.samples)
    resampler.dispose()
    // Only the voice: eSpeak's trailing quiet would count as the caller's silence and hide part of the latency.
    let end = samples.length
    while (end > 0 && Math.abs(samples[end - 1]!) < 330) end -= 1
    return Float32Array.from(samples.subarray(0, end), (sample) => sample / 32768)
  } finally {
    await engine.close()
  }
}

interface Service {
  child: ChildProcess
  base: string
  agentId: string
  projectId: string
}

async function startService(dataDir: string, sttUrl: string): Promise<Service> {
  const engine = spawnSync(process.execPath, [BIN, 'stt-engine', 'openai-compatible', '--base-url', sttUrl, '--data-dir', dataDir], {
    encoding: 'utf8',
  })
  if (engine.status !== 0) throw new Error(`stt-engine failed: ${engine.stderr}`)
  const port = await freePort()
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, VOICEDESK_API_KEY: KEY },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await waitForLine(child, /listening on (http:\/\/\S+)/)
  const base = `http://127.0.0.1:${port}`
  const created = await fetch(`${base}/v1/voice-agents`, {
    method: 'POST',
    headers: { authorization: `Token ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      agentName: 'Bench desk',
      lang: 'en',
      greetingMessage: 'Hello, thanks for calling.',
      outcomeResponseShape: {
        type: 'object',
        properties: {
          customerName: { type: 'string' },
          guests: { type: 'integer' },
          notes: { type: 'string', description: 'Anything else' },
        },
        required: ['customerName', 'guests', 'notes'],
      },
      silenceThreshold: 60,
      interrupt: false,
    }),
  })
  const { id: agentId, projectId } = ((await created.json()) as { data: { id: string; projectId: string } }).data
  return { child, base, agentId, projectId }
}

async function api<T>(service: Service, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${service.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Token ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
  return ((await response.json()) as { data: T }).data
}

/** The flood: TTS jobs queued through the API, in parallel batches as busy clients would. */
async function queueTtsJobs(service: Service, count: number): Promise<void> {
  for (let batch = 0; batch < count; batch += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, count - batch) }, (_, index) =>
        api(service, '/v1/jobs/text-to-speech', {
          voiceId: AVA,
          text: `Order ${batch + index} has shipped and will arrive on Tuesday between nine and noon.`,
        }),
      ),
    )
  }
}

async function ttsJobsLeft(service: Service): Promise<number> {
  let left = 0
  for (const status of ['PENDING', 'IN_PROGRESS']) {
    const response = await fetch(`${service.base}/v1/jobs/all?projectId=${service.projectId}`, {
      method: 'POST',
      headers: { authorization: `Token ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'TTS', status, take: 1 }),
    })
    left += ((await response.json()) as { data: { filtered: number } }).data.filtered
  }
  return left
}

/** Sends the microphone's quiet noise floor in real time until `stop` resolves (the SDK sends frames during silence too). */
function keepMicrophoneOpen(client: SdkCallClient): { stop: () => Promise<void> } {
  let open = true
  const done = (async () => {
    while (open) await client.speak(quietNoise(640))
  })()
  return {
    stop: async () => {
      open = false
      await done
    },
  }
}

interface CallerRecord {
  client: SdkCallClient
  startSentAt: number
  voiceTurn: { endOfVoice: number; firstAudio: number } | undefined
}

/**
 * One caller: `start`, the greeting heard to its mark, one spoken turn (real speech, then the
 * microphone's noise floor) answered and heard, one typed turn answered and heard, hang up.
 */
async function oneCaller(service: Service, speech: Float32Array, deflate: boolean, jobId: string): Promise<CallerRecord> {
  const client = await SdkCallClient.connect(service.base, jobId, KEY, { sendStart: false, perMessageDeflate: deflate })
  const startSentAt = Date.now()
  client.send({ event: 'start', streamSid: 'WEBSDK' })
  let microphone = keepMicrophoneOpen(client)
  await client.nth('mark', 1, 120_000)
  await microphone.stop()
  const before = client.framesOf('media').length
  await client.speak(speech)
  const endOfVoice = client.lastMicrophoneFrameAt
  microphone = keepMicrophoneOpen(client)
  let voiceTurn: CallerRecord['voiceTurn']
  try {
    await client.waitFor(() => client.framesOf('media').length > before, 60_000, 'the answer to the spoken turn')
    voiceTurn = { endOfVoice, firstAudio: client.frames.filter((received) => received.frame.event === 'media')[before]!.at }
    await client.nth('mark', 2, 60_000)
    client.send({ event: 'text', content: 'We are four people' })
    await client.nth('mark', 3, 60_000)
  } finally {
    await microphone.stop()
  }
  await client.hangUp()
  return { client, startSentAt, voiceTurn }
}

interface Utterance {
  /** Every media frame: when it came (ms) and the seconds of audio it carried. */
  media: { at: number; seconds: number }[]
  firstAnswerAt: number | undefined
}

/** A call's frames cut into utterances at the marks (each utterance ends with its mark). */
function utterancesOf(client: SdkCallClient): Utterance[] {
  const utterances: Utterance[] = []
  let current: Utterance = { media: [], firstAnswerAt: undefined }
  for (const { frame, at } of client.frames) {
    if (frame.event === 'media') current.media.push({ at, seconds: Buffer.from(frame.media.payload, 'base64').length / 2 / SAMPLE_RATE })
    else if (frame.event === 'answer') current.firstAnswerAt ??= at
    else if (frame.event === 'mark') {
      if (current.media.length > 0) utterances.push(current)
      current = { media: [], firstAnswerAt: undefined }
    }
  }
  return utterances
}

/**
 * The audio queued at the client just before each frame of an utterance arrives (seconds):
 * what came before it, less the time since the utterance's first frame. Counted once the first
 * burst is in (the queue first reached 500 ms, or the whole utterance if shorter); the queue
 * draining after the last frame is the utterance ending, not a shortfall.
 */
function queuedBeforeEachFrame(utterance: Utterance): number[] {
  const total = utterance.media.reduce((sum, frame) => sum + frame.seconds, 0)
  const first = utterance.media[0]!.at
  const leads: number[] = []
  let received = 0
  let burstIn = false
  for (const frame of utterance.media) {
    const queued = received - (frame.at - first) / 1000
    if (burstIn) leads.push(queued)
    received += frame.seconds
    if (received - (frame.at - first) / 1000 >= Math.min(0.5, total - 1e-6)) burstIn = true
  }
  return leads
}

async function floodRun(
  speech: Float32Array,
  deflate: boolean,
  calls = CONCURRENT_CALLS,
  ttsJobs = QUEUED_TTS_JOBS,
): Promise<CallsRunResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-calls-'))
  const stt = await startSpeechDouble()
  const service = await startService(dataDir, stt.url)
  try {
    // One call alone first: the engines are warm, as on a service that has run a while.
    const warm = await oneCaller(
      service,
      speech,
      deflate,
      (await api<{ jobId: string }>(service, '/v1/voice-agents/conversation-init', initBody(service))).jobId,
    )
    const deflateAccepted = warm.client.extensions.includes('permessage-deflate')
    const jobIds = await Promise.all(
      Array.from(
        { length: calls },
        async () => (await api<{ jobId: string }>(service, '/v1/voice-agents/conversation-init', initBody(service))).jobId,
      ),
    )
    await queueTtsJobs(service, ttsJobs)
    const handledBefore = stt.handlingMs.length
    const cpuBefore = cpuSecondsOf(service.child.pid!)
    const started = Date.now()
    const callers = await Promise.all(jobIds.map((jobId) => oneCaller(service, speech, deflate, jobId)))
    const seconds = (Date.now() - started) / 1000
    const serviceCpuSeconds = cpuSecondsOf(service.child.pid!) - cpuBefore
    const left = await ttsJobsLeft(service)

    const greetings = callers.map(
      ({ client, startSentAt }) => client.frames.find((received) => received.frame.event === 'media')!.at - startSentAt,
    )
    const utterances = callers.flatMap(({ client }) => utterancesOf(client))
    const leadsPerUtterance = utterances.map(queuedBeforeEachFrame).filter((leads) => leads.length > 0)
    const allLeads = leadsPerUtterance.flat()
    const gaps = utterances
      .filter((utterance) => utterance.firstAnswerAt !== undefined)
      .map((utterance) => Math.abs(utterance.media[0]!.at - utterance.firstAnswerAt!))
    const sttMs = percentile(stt.handlingMs.slice(handledBefore), 50)
    const turns = callers.flatMap(({ voiceTurn }) => (voiceTurn ? [voiceTurn.firstAudio - voiceTurn.endOfVoice] : []))
    const overhead = turns.map((total) => total - TRAILING_SILENCE_MS - sttMs)
    return {
      deflateOffered: deflate,
      deflateAccepted,
      calls,
      ttsJobsQueued: ttsJobs,
      seconds: round(seconds),
      firstGreetingAudioMs: {
        p50: Math.round(percentile(greetings, 50)),
        p99: Math.round(percentile(greetings, 99)),
        max: Math.round(Math.max(...greetings)),
      },
      lead: {
        minMs: Math.round(Math.min(...allLeads) * 1000),
        p1Ms: Math.round(percentile(allLeads, 1) * 1000),
        utterances: utterances.length,
        utterancesBelow200Ms: leadsPerUtterance.filter((leads) => Math.min(...leads) < 0.2).length,
        underruns: allLeads.filter((lead) => lead < 0).length,
      },
      captionGapMs: {
        p50: Math.round(percentile(gaps, 50)),
        p99: Math.round(percentile(gaps, 99)),
        max: Math.round(Math.max(...gaps)),
        utterances: gaps.length,
      },
      voiceToVoiceOverheadMs: {
        p50: Math.round(percentile(overhead, 50)),
        p99: Math.round(percentile(overhead, 99)),
        turns: overhead.length,
      },
      voiceToVoiceTotalMs: { p50: Math.round(percentile(turns, 50)), p99: Math.round(percentile(turns, 99)) },
      cpu: {
        serviceCpuSeconds: round(serviceCpuSeconds),
        cpuSecondsPerCall: Math.round((serviceCpuSeconds / calls) * 100) / 100,
        percentOfCorePerCall: round((serviceCpuSeconds / (calls * seconds)) * 100),
      },
      ttsJobsLeft: left,
    }
  } finally {
    await stopChild(service.child)
    await new Promise((resolve) => stt.server.close(resolve))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

function initBody(service: Service): Record<string, unknown> {
  return { voiceAgentId: service.agentId, params: {}, voiceEnablement: true, tools: [] }
}

/** Both runs, written to bench/results/calls.json. */
export async function benchCalls(): Promise<CallsBenchResult> {
  const speech = await callerSpeech()
  const loadAverageAtStart = Math.round(loadavg()[0]! * 10) / 10
  const withoutDeflate = await floodRun(speech, false)
  const withDeflateOffered = await floodRun(speech, true)
  const rounds: CallsBenchResult['deflateCost']['rounds'] = []
  for (const deflate of [true, false, true, false]) {
    const run = await floodRun(speech, deflate, DEFLATE_COST_CALLS, 0)
    rounds.push({
      deflateOffered: deflate,
      deflateAccepted: run.deflateAccepted,
      serviceCpuSeconds: run.cpu.serviceCpuSeconds,
      firstGreetingAudioP50Ms: run.firstGreetingAudioMs.p50,
      minLeadMs: run.lead.minMs,
    })
  }
  const result: CallsBenchResult = {
    setup: {
      concurrentCalls: CONCURRENT_CALLS,
      queuedTtsJobs: QUEUED_TTS_JOBS,
      cores: availableParallelism(),
      loadAverageAtStart,
      note: 'the bench process (20 callers sending microphone frames in real time) shares the machine with the service',
    },
    targets: CALL_TARGETS,
    withDeflateOffered,
    withoutDeflate,
    deflateCost: { calls: DEFLATE_COST_CALLS, rounds },
  }
  writeFileSync(join(ROOT, 'bench/results/calls.json'), `${JSON.stringify({ measuredAt: new Date().toISOString(), ...result }, null, 2)}\n`)
  return result
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  console.log(JSON.stringify(await benchCalls(), null, 2))
}
