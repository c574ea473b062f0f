/**
 * Voices for many calls (issue 25): the time from N calls starting together to each call's
 * first greeting audio (its first sentence as 16 kHz PCM, ready to send), while 200 TTS jobs
 * wait, measured in one run with the engine as it was (one worker, one FIFO queue, texts
 * whole, the call's voice made as WAV and parsed back) and as it is (the pool: live before
 * batch, calls in turn, jobs in segments, PCM straight to the call). In-process, on the real
 * eSpeak engine: no HTTP or WebSocket in the way, so the figures are the voice's share alone.
 *
 * Two ways the jobs wait: `jobRunner`, as the service runs them (the quick lane's slots of
 * jobs in synthesis at a time, the rest queued in the runner), and `engineFlood` (all 200 in
 * the engine's queue at once; the old engine is cut off after FLOOD_CUTOFF_MS there).
 * Part of `npm run bench`; alone: `npx tsx bench/run.ts tts-pool`. Detail in bench/results/tts-pool.json.
 */
import { setMaxListeners } from 'node:events'
import { writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { parseWavPcm16Mono } from '../src/engines/audio/wav-file'
import { createResampler, type Resampler } from '../src/engines/audio/speex-resampler'
import { createEspeakTtsEngine, speechWorkersFor, type TtsEngine } from '../src/engines/tts/tts-engine'
import { DEFAULT_JOB_LANES } from '../src/jobs/job-runner'
import { VOICES } from '../src/shared/voices'

const JOBS = 200
const CALL_COUNTS = [5, 20]
const FLOOD_CUTOFF_MS = 10_000
/** How long the jobs run before the calls come, so workers are mid-job. */
const JOBS_HEAD_START_MS = 500
const CALL_RATE = 16_000
const GREETING = ['Hello, thank you for calling the dental clinic.', 'How can I help you today?']
const JOB_PARAGRAPH =
  'Thank you for calling the front desk. We have received your request and a member of our team will call you back within one business day. ' +
  'If your matter is urgent, please stay on the line and we will connect you to the next available agent. '
const JOB_LENGTHS = [400, 1_200, 2_500, 5_000]
const QUICK_SLOTS = DEFAULT_JOB_LANES.find((lane) => lane.types.includes('TTS'))?.slots ?? 3
const ENGLISH_VOICES = VOICES.filter((voice) => voice.lang === 'en').map((voice) => voice.id)

type Mode = 'before' | 'after'

const round = (value: number) => Math.round(value)

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
}

function jobText(index: number): string {
  const length = JOB_LENGTHS[index % JOB_LENGTHS.length] ?? 400
  return JOB_PARAGRAPH.repeat(Math.ceil(length / JOB_PARAGRAPH.length)).slice(0, length)
}

function voiceOf(index: number): string {
  return ENGLISH_VOICES[index % ENGLISH_VOICES.length] ?? ''
}

/** A call's sentence as the call path makes it: before, a WAV parsed back; after, PCM. Then 16 kHz. */
async function callSentence(
  engine: TtsEngine,
  mode: Mode,
  resampler: Resampler,
  text: string,
  voiceId: string,
  signal: AbortSignal,
): Promise<Int16Array> {
  if (mode === 'before') return resampler.resample(parseWavPcm16Mono((await engine.synthesize(text, voiceId, signal)).wav).samples)
  return resampler.resample((await engine.synthesizePcm(text, voiceId, { signal, priority: 'live' })).samples)
}

/** Keeps the jobs going until `signal` aborts: `slots` at a time (the runner), or every one at once. */
function runJobs(engine: TtsEngine, slots: number, signal: AbortSignal): Promise<number> {
  let next = 0
  let done = 0
  const loop = async () => {
    while (next < JOBS && !signal.aborted) {
      const index = next++
      try {
        await engine.synthesize(jobText(index), voiceOf(index), { signal, priority: 'batch' })
        done += 1
      } catch {
        // Aborted at the end of the measurement.
      }
    }
  }
  return Promise.all(Array.from({ length: slots }, loop)).then(() => done)
}

interface Measured {
  firstAudioMs: { p50: number; p99: number; max: number }
  /** Calls with no audio by the cut-off (counted at the cut-off above). */
  cutOff: number
  jobsDoneMeanwhile: number
}

async function measure(engine: TtsEngine, mode: Mode, calls: number, slots: number, cutoffMs: number): Promise<Measured> {
  const jobs = new AbortController()
  // Every job listens to this one signal (the service gives each its own).
  setMaxListeners(0, jobs.signal)
  const jobsDone = runJobs(engine, slots, jobs.signal)
  await new Promise((resolve) => setTimeout(resolve, JOBS_HEAD_START_MS))
  const resampler = await createResampler(22_050, CALL_RATE)
  const controllers = Array.from({ length: calls }, () => new AbortController())
  const sentences: Promise<unknown>[] = []
  const started = performance.now()
  const firsts = await Promise.all(
    controllers.map(async (call, index) => {
      // Both sentences asked for at once, as speech-output.ts does; the first is the first audio.
      const [first, ...rest] = GREETING.map((text) =>
        callSentence(engine, mode, resampler, text, voiceOf(index), call.signal).then(() => performance.now() - started),
      )
      sentences.push(...rest.map((sentence) => sentence.catch(() => undefined)))
      const cutoff = new Promise<number>((resolve) => setTimeout(() => resolve(Number.POSITIVE_INFINITY), cutoffMs).unref())
      return Promise.race([first ?? cutoff, cutoff]).catch(() => Number.POSITIVE_INFINITY)
    }),
  ).finally(() => {
    jobs.abort()
    for (const call of controllers) call.abort()
  })
  await Promise.all(sentences)
  const done = await jobsDone
  resampler.dispose()
  const served = firsts.map((ms) => Math.min(ms, cutoffMs))
  return {
    firstAudioMs: { p50: round(percentile(served, 50)), p99: round(percentile(served, 99)), max: round(Math.max(...served)) },
    cutOff: firsts.filter((ms) => !Number.isFinite(ms)).length,
    jobsDoneMeanwhile: done,
  }
}

export async function benchTtsPool(): Promise<object> {
  const modes: Record<Mode, Parameters<typeof createEspeakTtsEngine>[0]> = { before: { workers: 1, scheduling: 'fifo' }, after: {} }
  const results: Record<string, Record<string, Record<string, Measured>>> = { jobRunner: {}, engineFlood: {} }
  for (const mode of ['before', 'after'] as const) {
    const engine = await createEspeakTtsEngine(modes[mode])
    try {
      // Warm: V8 optimises the synthesizer over the first seconds of speech.
      await Promise.all(Array.from({ length: 8 }, (_, index) => engine.synthesize(JOB_PARAGRAPH, voiceOf(index))))
      for (const calls of CALL_COUNTS) {
        for (const [scenario, slots, cutoff] of [
          ['jobRunner', QUICK_SLOTS, 60_000],
          ['engineFlood', JOBS, FLOOD_CUTOFF_MS],
        ] as const) {
          const measured = await measure(engine, mode, calls, slots, cutoff)
          ;((results[scenario] ??= {})[`${calls} calls`] ??= {})[mode] = measured
          console.log(scenario, calls, 'calls', mode, JSON.stringify(measured))
        }
      }
    } finally {
      await engine.close()
    }
  }
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    cores: availableParallelism(),
    workersAfter: speechWorkersFor(process.env),
    jobs: JOBS,
    jobRunnerSlots: QUICK_SLOTS,
    jobTextChars: JOB_LENGTHS,
    greeting: GREETING,
    floodCutoffMs: FLOOD_CUTOFF_MS,
    before: 'one worker, one FIFO queue, texts whole, the call voice as WAV parsed back',
    after: 'the pool (default size), live before batch, calls in turn, jobs in segments, PCM to the call',
    ...results,
  }
  writeFileSync(fileURLToPath(new URL('./results/tts-pool.json', import.meta.url)), JSON.stringify(result, null, 2) + '\n')
  return result
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(JSON.stringify(await benchTtsPool(), null, 2))
