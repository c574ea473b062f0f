/**
 * Live calls, measured against a real `voicedesk serve` process over real sockets, with callers
 * that speak exactly the web SDK's frames:
 * - time to the first greeting audio after `start` (target p50 < 400 ms);
 * - voice-to-voice latency added by VoiceDesk: from the caller's end of speech to the agent's
 *   first audio frame, less the turn detector's trailing silence (600 ms, the time it takes to
 *   know a turn ended) and the speech server's own time (targets p50 < 150 ms, p99 < 400 ms);
 * - twenty concurrent calls: no audio underrun (the agent's audio always ahead of real time),
 *   and the service's CPU per call.
 * Speech recognition is a loopback double that answers at once (it stands for a server outside
 * this machine, whose time is not VoiceDesk's); the dialogue is the offline engine.
 * Part of `npm run bench` (bench/run.ts); standalone: `npx tsx bench/calls.ts` writes bench/results/calls.json.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
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
const TRAILING_SILENCE_MS = 600
const GREETING_RUNS = 30
const VOICE_TURNS = 24
const CONCURRENT_CALLS = 20

export interface CallsBenchResult {
  firstGreetingAudioMs: { p50: number; p99: number; runs: number; target: string }
  voiceToVoiceAddedMs: { p50: number; p99: number; turns: number; target: string; note: string }
  /** End of the caller's voice to the agent's first audio, all of it (endpointing and the speech double included). */
  voiceToVoiceTotalMs: { p50: number; p99: number }
  concurrentCalls: {
    calls: number
    seconds: number
    utterances: number
    /** Frames that arrived after the audio before them had finished playing (the SDK's queue ran dry). */
    underruns: number
    /** The least the audio was ahead of playback at any frame but an utterance's first and last (s). */
    minLeadSeconds: number
    /** Utterances whose lead fell under 200 ms at any such frame (target: none). */
    utterancesUnder200ms: number
    /** How long each caption (`answer`) arrived before its sentence's first audio (ms; 0 when right after it). */
    captionAheadOfAudioMs: { p50: number; max: number; captions: number; target: string }
    /** The service process's CPU time per call per second of call, in percent of one core. */
    cpuPercentPerCall: number
    serviceCpuSeconds: number
    target: string
  }
}

const round = (value: number) => Math.round(value * 10) / 10
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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
}

async function startService(dataDir: string, sttUrl: string): Promise<Service> {
  const engine = spawnSync(process.execPath, [BIN, 'stt-engine', 'openai-compatible', '--base-url', sttUrl, '--data-dir', dataDir], { encoding: 'utf8' })
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
        properties: { customerName: { type: 'string' }, guests: { type: 'integer' }, notes: { type: 'string', description: 'Anything else' } },
        required: ['customerName', 'guests', 'notes'],
      },
      silenceThreshold: 60,
      interrupt: false,
    }),
  })
  const agentId = ((await created.json()) as { data: { id: string } }).data.id
  return { child, base, agentId }
}

async function newCall(service: Service): Promise<SdkCallClient> {
  const init = await fetch(`${service.base}/v1/voice-agents/conversation-init`, {
    method: 'POST',
    headers: { authorization: `Token ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ voiceAgentId: service.agentId, params: {}, voiceEnablement: true, tools: [] }),
  })
  const { jobId } = ((await init.json()) as { data: { jobId: string } }).data
  return SdkCallClient.connect(service.base, jobId, KEY, { sendStart: false })
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

async function measureGreetings(service: Service): Promise<number[]> {
  const times: number[] = []
  for (let run = 0; run < GREETING_RUNS; run += 1) {
    const client = await newCall(service)
    const started = Date.now()
    client.send({ event: 'start', streamSid: 'WEBSDK' })
    await client.nth('media', 1, 10_000)
    times.push(client.frames.find((received) => received.frame.event === 'media')!.at - started)
    await client.hangUp()
  }
  return times
}

async function measureVoiceTurns(service: Service, speech: Float32Array, sttHandlingMs: number[]): Promise<{ added: number[]; total: number[] }> {
  const added: number[] = []
  const total: number[] = []
  while (total.length < VOICE_TURNS) {
    const client = await newCall(service)
    client.send({ event: 'start', streamSid: 'WEBSDK' })
    await client.nth('mark', 1, 15_000)
    for (let turn = 0; turn < 3 && total.length < VOICE_TURNS; turn += 1) {
      await client.silence(300)
      const before = client.framesOf('media').length
      const marks = client.framesOf('mark').length
      const handled = sttHandlingMs.length
      await client.speak(speech)
      const endOfVoice = client.lastMicrophoneFrameAt
      const microphone = keepMicrophoneOpen(client)
      await client.waitFor(() => client.framesOf('media').length > before, 15_000, 'the answer')
      const firstAudio = client.frames.filter((received) => received.frame.event === 'media')[before]!.at
      await client.nth('mark', marks + 1, 20_000)
      await microphone.stop()
      const stt = sttHandlingMs.slice(handled).reduce((sum, ms) => sum + ms, 0)
      total.push(firstAudio - endOfVoice)
      added.push(firstAudio - endOfVoice - TRAILING_SILENCE_MS - stt)
    }
    await client.hangUp()
  }
  return { added, total }
}

/** Leads of each utterance at each frame's arrival (this frame included), split at the marks. */
function utteranceLeads(client: SdkCallClient): number[][] {
  const utterances: number[][] = []
  let current: { first: number; received: number; leads: number[] } | undefined
  for (const { frame, at } of client.frames) {
    if (frame.event === 'media') {
      current ??= { first: at, received: 0, leads: [] }
      current.received += Buffer.from(frame.media.payload, 'base64').length / 2 / 16_000
      current.leads.push(current.received - (at - current.first) / 1000)
    } else if (frame.event === 'mark' && current) {
      utterances.push(current.leads)
      current = undefined
    }
  }
  return utterances
}

/** Per caption: how long before its sentence's first audio frame it arrived (0 when it came right after that frame). */
function captionAheadOfAudio(client: SdkCallClient): number[] {
  return client.frames.flatMap(({ frame, at }, index) => {
    if (frame.event !== 'answer') return []
    if (client.frames[index - 1]?.frame.event === 'media') return [0]
    const audio = client.frames.slice(index).find((next) => next.frame.event === 'media')
    return audio ? [audio.at - at] : []
  })
}

async function measureConcurrentCalls(service: Service): Promise<CallsBenchResult['concurrentCalls']> {
  const cpuBefore = cpuSecondsOf(service.child.pid!)
  const started = Date.now()
  const clients = await Promise.all(
    Array.from({ length: CONCURRENT_CALLS }, async (_, index) => {
      await sleep(index * 50)
      const client = await newCall(service)
      client.send({ event: 'start', streamSid: 'WEBSDK' })
      const microphone = keepMicrophoneOpen(client)
      await client.nth('mark', 1, 30_000)
      for (const [turn, words] of ['My name is Sara Haddad', 'We are four people', 'A table by the window please'].entries()) {
        client.send({ event: 'text', content: words })
        await client.nth('mark', turn + 2, 30_000)
      }
      await microphone.stop()
      await client.hangUp()
      return client
    }),
  )
  const seconds = (Date.now() - started) / 1000
  const serviceCpuSeconds = cpuSecondsOf(service.child.pid!) - cpuBefore
  const utterances = clients.flatMap(utteranceLeads)
  // An utterance's first frames arrive as one burst and its last frame ends it: the lead that matters is in between.
  const steady = utterances.flatMap((leads) => {
    const burst = leads.findIndex((lead) => lead >= 0.5)
    return burst < 0 ? leads.slice(1, -1) : leads.slice(burst, -1)
  })
  const captionLeads = clients.flatMap(captionAheadOfAudio)
  return {
    utterancesUnder200ms: utterances.filter((leads) => {
      const burst = leads.findIndex((lead) => lead >= 0.5)
      return (burst < 0 ? leads.slice(1, -1) : leads.slice(burst, -1)).some((lead) => lead < 0.2)
    }).length,
    captionAheadOfAudioMs: {
      p50: round(percentile(captionLeads, 50)),
      max: round(Math.max(0, ...captionLeads)),
      captions: captionLeads.length,
      target: '≤ 100 ms',
    },
    calls: CONCURRENT_CALLS,
    seconds: round(seconds),
    utterances: utterances.length,
    underruns: steady.filter((lead) => lead < 0).length,
    minLeadSeconds: Math.round(Math.min(...steady) * 1000) / 1000,
    cpuPercentPerCall: round((serviceCpuSeconds / (CONCURRENT_CALLS * seconds)) * 100),
    serviceCpuSeconds: round(serviceCpuSeconds),
    target: 'no underrun with 20 concurrent calls on 2 cores',
  }
}

export async function benchCalls(): Promise<CallsBenchResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-calls-'))
  const speech = await callerSpeech()
  const stt = await startSpeechDouble()
  const service = await startService(dataDir, stt.url)
  try {
    const greetings = await measureGreetings(service)
    const voice = await measureVoiceTurns(service, speech, stt.handlingMs)
    const concurrent = await measureConcurrentCalls(service)
    return {
      firstGreetingAudioMs: { p50: round(percentile(greetings, 50)), p99: round(percentile(greetings, 99)), runs: greetings.length, target: 'p50 < 400 ms' },
      voiceToVoiceAddedMs: {
        p50: round(percentile(voice.added, 50)),
        p99: round(percentile(voice.added, 99)),
        turns: voice.added.length,
        target: 'p50 < 150 ms, p99 < 400 ms',
        note: `end of voice to first agent audio, less the ${TRAILING_SILENCE_MS} ms trailing silence that ends a turn and the speech server's own time`,
      },
      voiceToVoiceTotalMs: { p50: round(percentile(voice.total, 50)), p99: round(percentile(voice.total, 99)) },
      concurrentCalls: concurrent,
    }
  } finally {
    await stopChild(service.child)
    await new Promise((resolve) => stt.server.close(resolve))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const result = await benchCalls()
  writeFileSync(join(ROOT, 'bench/results/calls.json'), `${JSON.stringify({ measuredAt: new Date().toISOString(), ...result }, null, 2)}\n`)
  console.log(JSON.stringify(result, null, 2))
}
