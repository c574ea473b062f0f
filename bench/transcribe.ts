/**
 * A transcription job's whole pipeline on long media, in process against a real runtime over a
 * real socket on 127.0.0.1: the upload (multipart, streamed from the file on disk into the media
 * store), then the job (FFmpeg decode, WebRTC VAD, windows of at most 60 s cut at pauses, each
 * voiced one sent over HTTP as a WAV). The speech server is a loopback double that reads the
 * request and answers at once (a real one is outside this machine), so the figures are this
 * service's own work. The media is real eSpeak talk with pauses and silences (8 of every 10
 * minutes talk), a 16 kb/s MP3, made first with the bundled FFmpeg (not timed).
 * Memory is the figure that matters: this process's RSS, sampled every 50 ms, may grow no more
 * for 2 hours than for 10 minutes (same order), as nothing is held whole; FFmpeg's peak too.
 * Each engine first runs the 10-minute job once (`firstJob`, the process's first transcription:
 * the VAD's WebAssembly and the allocator's first growth), then the measured 10-minute and
 * 2-hour jobs. Besides RSS (which an allocator keeps once grown), the JS heap and buffers' peak
 * growth (garbage included: a window's samples are dropped after it is sent) and what is left
 * after a forced GC once the job ended (a leak would stay there).
 * Runs on files (SQLite), then on PostgreSQL (media in chunks) when its binaries are here.
 * `npx tsx bench/run.ts transcribe` merges it into bench/results/latest.json; standalone:
 * `npx tsx bench/transcribe.ts` prints JSON.
 */
import { randomBytes } from 'node:crypto'
import { createReadStream, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createEspeakTtsEngine } from '../src/engines/tts/tts-engine'
import { createRuntime, type RuntimeConfig } from '../src/service/runtime'
import { STT_SETTING_KEY } from '../src/service/settings/stt-settings'
import type { JobRecord } from '../src/store/records'
import { longSpeechMedia, type LongSpeechMedia } from '../test/helpers/long-media'
import { postMultipart } from '../test/helpers/multipart-upload'
import { decoderPeakKb } from './decode'
import { startBenchCluster } from './postgres'

const KEY = 'vd_bench_transcribe_0123456789abcdef01234'
const SENTENCE = 'The quarterly numbers were better than we expected in every region.'
const VOICE = 'd7c17d05-0c73-4196-8cd2-25f2687d90b0'
const MB = 1024 * 1024
const SAMPLE_MS = 50

// A forced GC before and after each run, without asking for node --expose-gc.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const jsMemory = () => {
  const usage = process.memoryUsage()
  return usage.heapUsed + usage.arrayBuffers
}

export interface TranscribeRun {
  audioSeconds: number
  fileMB: number
  upload: { seconds: number; rssGrowthMB: number }
  job: {
    wallSeconds: number
    /** Audio seconds per wall second of the job: decode, VAD, windows, HTTP to the double. */
    audioSecondsPerWallSecond: number
    windows: number
    windowsSent: number
    /** This process's highest RSS during the job, less its RSS before the upload. */
    rssGrowthMB: number
    /** The highest JS heap + array buffers during the job, less before the upload (garbage not yet collected included). */
    jsMemoryGrowthMB: number
    /** RSS after the job ended and a forced GC, less before the upload (an allocator may keep what it once took). */
    rssRetainedMB: number
    /** JS heap + array buffers after the job ended and a forced GC, less before the upload: a leak would stay here. */
    jsMemoryRetainedMB: number
    decoderPeakRssMB: number
  }
  /** Upload and job, end to end. */
  wallSeconds: number
}

export interface EngineRuns {
  firstJob: TranscribeRun
  tenMinutes: TranscribeRun
  twoHours: TranscribeRun
}

export interface TranscribeBenchResult {
  media: string
  speechServer: string
  files: EngineRuns
  postgres: EngineRuns | { skipped: string }
  target: string
}

/** Drains each request and answers at once, OpenAI's shape without segments (the service then makes one over the window). */
async function startInstantSpeechServer(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      requests += 1
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: 'heard', language: 'en' }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

const round1 = (value: number) => Math.round(value * 10) / 10
const round2 = (value: number) => Math.round(value * 100) / 100

async function measure(media: LongSpeechMedia, seconds: number, config: Partial<RuntimeConfig>): Promise<TranscribeRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-transcribe-'))
  const speech = await startInstantSpeechServer()
  let windows = 0
  let ended: (job: JobRecord) => void = () => undefined
  const jobEnded = new Promise<JobRecord>((resolve) => (ended = resolve))
  const runtime = await createRuntime({
    dataDir,
    fixedApiKey: KEY,
    port: 0,
    host: '127.0.0.1',
    ...config,
    jobs: { onJobProgress: () => (windows += 1), onJobEnded: (job) => ended(job) },
  })
  try {
    await runtime.store.settings.set(STT_SETTING_KEY, { engine: 'openai-compatible', baseUrl: speech.url, model: 'whisper-1' })
    const base = (await runtime.start()).replace('localhost', '127.0.0.1')
    gc()
    const before = process.memoryUsage.rss()
    const jsBefore = jsMemory()
    let peak = before
    let jsPeak = jsBefore
    let decoderPeak = 0
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss())
      jsPeak = Math.max(jsPeak, jsMemory())
      decoderPeak = Math.max(decoderPeak, decoderPeakKb())
    }, SAMPLE_MS)
    const started = performance.now()
    let uploadPeak: number
    let uploaded: number
    try {
      const answer = await postMultipart(`${base}/v1/jobs/transcribe`, {
        headers: { authorization: `Token ${KEY}` },
        fields: { model: 'General-V2.0', processingType: 'async', language: 'en' },
        file: { name: 'long.mp3', type: 'audio/mpeg', body: createReadStream(media.path) },
      })
      if (answer.status !== 200) throw new Error(`upload answered ${answer.status}: ${answer.text}`)
      uploaded = performance.now()
      uploadPeak = peak
      const job = await jobEnded
      if (job.status !== 'COMPLETED') throw new Error(`the job ended ${job.status}: ${job.errorMessage ?? ''}`)
    } finally {
      clearInterval(sampler)
    }
    const finished = performance.now()
    gc()
    const retained = process.memoryUsage.rss() - before
    const jsRetained = jsMemory() - jsBefore
    const jobSeconds = (finished - uploaded) / 1000
    return {
      audioSeconds: seconds,
      fileMB: round1(media.bytes / MB),
      upload: { seconds: round2((uploaded - started) / 1000), rssGrowthMB: round1((uploadPeak - before) / MB) },
      job: {
        wallSeconds: round2(jobSeconds),
        audioSecondsPerWallSecond: Math.round(seconds / jobSeconds),
        windows,
        windowsSent: speech.requests(),
        rssGrowthMB: round1((peak - before) / MB),
        jsMemoryGrowthMB: round1((jsPeak - jsBefore) / MB),
        rssRetainedMB: round1(retained / MB),
        jsMemoryRetainedMB: round1(jsRetained / MB),
        decoderPeakRssMB: round1(decoderPeak / 1024),
      },
      wallSeconds: round2((finished - started) / 1000),
    }
  } finally {
    await runtime.stop()
    await speech.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function runs(
  tenMinutes: LongSpeechMedia,
  twoHours: LongSpeechMedia,
  config: () => Promise<Partial<RuntimeConfig>>,
): Promise<EngineRuns> {
  return {
    firstJob: await measure(tenMinutes, 600, await config()),
    tenMinutes: await measure(tenMinutes, 600, await config()),
    twoHours: await measure(twoHours, 7200, await config()),
  }
}

export async function benchTranscribe(): Promise<TranscribeBenchResult> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-transcribe-media-'))
  try {
    console.error('making the media (10 min and 2 h of eSpeak talk and silence, MP3)…')
    const engine = await createEspeakTtsEngine()
    const sentenceWav = (await engine.synthesize(SENTENCE, VOICE)).wav
    await engine.close()
    const period = { talkSeconds: 480, pauseSeconds: 1.5, silenceSeconds: 120 }
    const tenMinutes = await longSpeechMedia({ sentenceWav, seconds: 600, ...period, folder: mkdtempSync(join(folder, '10m-')) })
    const twoHours = await longSpeechMedia({ sentenceWav, seconds: 7200, ...period, folder: mkdtempSync(join(folder, '2h-')) })
    const files = await runs(tenMinutes, twoHours, async () => ({}))
    console.error('files', JSON.stringify(files))
    const started = await startBenchCluster()
    let postgres: TranscribeBenchResult['postgres']
    if ('skipped' in started) postgres = started
    else {
      try {
        postgres = await runs(tenMinutes, twoHours, async () => ({
          database: { url: await started.cluster.createDatabase() },
          secretKey: randomBytes(32),
        }))
      } finally {
        await started.cluster.stop()
      }
    }
    return {
      media: 'eSpeak talk (a sentence, 1.5 s pause, again) 8 minutes of every 10, then silence; 16 kHz mono MP3 at 16 kb/s',
      speechServer: 'loopback double answering at once (reads the request, no recognition)',
      files,
      postgres,
      target: "memory flat: the 2-hour job's rssGrowthMB and jsMemoryGrowthMB in the same order as the 10-minute one's, nothing retained",
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(JSON.stringify(await benchTranscribe(), null, 2))
