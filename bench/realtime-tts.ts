/**
 * Realtime speech, measured against a real `voicedesk serve` process over real sockets:
 * time to the first audio byte of POST /v1/realtime/tts-stream for a 20-word sentence (WAV and
 * 16 kHz PCM; target p50 < 250 ms on this machine), time to first audio over the WebSocket
 * /v1/realtime/ws, and the whole answer of POST /v1/realtime/tts. The engine is warmed first
 * (a started service synthesizes its first words while V8 still optimises eSpeak).
 * `npx tsx bench/run.ts realtime-tts` merges it into bench/results/latest.json (after `npm run build`);
 * standalone: `npx tsx bench/realtime-tts.ts` prints JSON.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { WebSocket } from 'ws'
import { percentile } from './jobs'
import { freePort, stopChild, waitForLine } from './processes'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = join(ROOT, 'bin/voicedesk.js')
const KEY = 'vd_bench_realtime_0123456789abcdef012345'
const AVA = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'
const RUNS = 40
const WARM_UP = 10
/** 20 words. */
const SENTENCE = 'Your table for four is booked for eight tonight, and we will hold it for fifteen minutes after that time.'

export interface RealtimeTtsBenchResult {
  /** Request sent to the first audio bytes of the streamed answer (the WAV header goes with the first samples). */
  streamFirstByteMs: { wav: Timing; pcm16k: Timing; target: string }
  /** The first request after `serve` started: the engine starts then (once per process). */
  coldFirstByteMs: number
  /** The same sentence's first binary frame after a `tts` request on an open WebSocket (16 kHz PCM). */
  webSocketFirstAudioMs: Timing
  /** The whole WAV of POST /v1/realtime/tts. */
  wholeAnswerMs: Timing
  /** Seconds of the sentence's speech, for scale. */
  sentenceAudioSeconds: number
  words: number
  runs: number
}

type Timing = { p50: number; p99: number }

const round = (value: number) => Math.round(value * 10) / 10
const timing = (values: number[]): Timing => ({ p50: round(percentile(values, 50)), p99: round(percentile(values, 99)) })

async function firstByte(base: string, format: 'wav' | 'pcm'): Promise<number> {
  const started = performance.now()
  const response = await fetch(`${base}/v1/realtime/tts-stream`, {
    method: 'POST',
    headers: { authorization: `Token ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: SENTENCE, voiceId: AVA, format }),
  })
  const reader = response.body!.getReader()
  const first = await reader.read()
  const elapsed = performance.now() - started
  if (response.status !== 200 || first.done) throw new Error(`tts-stream answered ${response.status}`)
  while (!(await reader.read()).done);
  return elapsed
}

async function whole(base: string): Promise<{ ms: number; seconds: number }> {
  const started = performance.now()
  const response = await fetch(`${base}/v1/realtime/tts`, {
    method: 'POST',
    headers: { authorization: `Token ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: SENTENCE, voiceId: AVA }),
  })
  const wav = Buffer.from(await response.arrayBuffer())
  if (response.status !== 200) throw new Error(`tts answered ${response.status}`)
  return { ms: performance.now() - started, seconds: (wav.length - 44) / 2 / 22_050 }
}

async function webSocketFirstAudio(base: string, runs: number): Promise<number[]> {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/realtime/ws`, { headers: { authorization: `Token ${KEY}` } })
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  const times: number[] = []
  try {
    for (let run = 0; run < runs; run += 1) {
      const started = performance.now()
      let first = 0
      await new Promise<void>((resolve, reject) => {
        const onMessage = (data: Buffer, isBinary: boolean) => {
          if (isBinary) {
            first ||= performance.now() - started
            return
          }
          const frame = JSON.parse(data.toString('utf8')) as { type: string }
          if (frame.type === 'error') reject(new Error(data.toString('utf8')))
          if (frame.type === 'end') {
            socket.off('message', onMessage)
            resolve()
          }
        }
        socket.on('message', onMessage)
        socket.send(JSON.stringify({ type: 'tts', payload: { text: SENTENCE, voiceId: AVA } }))
      })
      times.push(first)
    }
  } finally {
    socket.close()
  }
  return times
}

export async function benchRealtimeTts(): Promise<RealtimeTtsBenchResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-realtime-'))
  const port = await freePort()
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, VOICEDESK_API_KEY: KEY },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  try {
    const base = (await waitForLine(child, /listening on (http:\/\/\S+)/))[1]!
    // The service's first request starts the engine (a worker thread loading eSpeak).
    const coldFirstByteMs = round(await firstByte(base, 'wav'))
    for (let run = 0; run < WARM_UP; run += 1) await firstByte(base, run % 2 ? 'pcm' : 'wav')
    const wav: number[] = []
    const pcm: number[] = []
    // Interleaved, so that both formats meet the same machine load.
    for (let run = 0; run < RUNS; run += 1) {
      wav.push(await firstByte(base, 'wav'))
      pcm.push(await firstByte(base, 'pcm'))
    }
    const socket = await webSocketFirstAudio(base, RUNS)
    const answers: number[] = []
    let seconds = 0
    for (let run = 0; run < RUNS; run += 1) {
      const answer = await whole(base)
      answers.push(answer.ms)
      seconds = answer.seconds
    }
    return {
      streamFirstByteMs: { wav: timing(wav), pcm16k: timing(pcm), target: 'p50 < 250 ms for a 20-word sentence' },
      coldFirstByteMs,
      webSocketFirstAudioMs: timing(socket),
      wholeAnswerMs: timing(answers),
      sentenceAudioSeconds: round(seconds),
      words: SENTENCE.split(/\s+/).length,
      runs: RUNS,
    }
  } finally {
    await stopChild(child)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchRealtimeTts(), null, 2))
}
