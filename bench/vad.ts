/**
 * Voice activity detection, measured to choose the turn detector's default: the energy detector
 * on the 300-3400 Hz voice band (the default) and on the whole signal (as it was), WebRTC VAD
 * (libfvad, modes 0-3), Silero VAD v5 (ONNX, when its packages are at hand: see SILERO_MODULES
 * below) and WebRTC gated by the energy detector. Detectors not measured in a run (Silero without
 * its packages; TEN VAD, removed from the project) keep their earlier figures in vad.json, marked so.
 * Speech: 44 caller turns from the project's eSpeak voices (bench/vad-corpus.ts), with gaps; the
 * truth is each turn's sample range. Noise: seeded white noise, babble of 8 talkers made from the
 * 14 voices, and mains hum, at 20, 10 and 5 dB SNR; and 60 s of each noise alone at the 20 and
 * 5 dB levels, where every turn started is a false one. Frames are 128 samples, as the web SDK
 * sends them; CPU is process CPU time per second of audio, turn rules included.
 * Run: `npx tsx bench/vad.ts` (writes bench/results/vad.json). With SILERO_MODULES=/path/to/node_modules
 * holding onnxruntime-web and @ricky0123/vad-web (not project dependencies), Silero is measured too.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createEnergyVoiceClassifier } from '../src/engines/audio/energy-voice-classifier'
import { turnDetectorOver, type TurnEvent } from '../src/engines/audio/turn-detector'
import { allOfVoiceClassifiers, type VoiceClassifier } from '../src/engines/audio/voice-classifier'
import { createWebRtcVoiceClassifier } from '../src/engines/audio/webrtc-voice-classifier'
import { createEspeakTtsEngine } from '../src/engines/tts/tts-engine'
import { CALLER_TURNS, RATE, babble, babbleVoices, callerStream, hum, mix, speechPower, whiteNoise, type SpeechStream } from './vad-corpus'

const FRAME = 128
const TRAILING_SILENCE_MS = 600
const SNRS_DB = [20, 10, 5]
const NOISE_ONLY_SECONDS = 60
/** A turn counts as found when a speech-start lands within its voice (or this much before it). */
const START_SLACK_MS = 300

interface Detector {
  name: string
  create(): Promise<VoiceClassifier>
  /** Work done on the whole audio before the frames are fed (Silero's async model), timed with them. */
  prepare?(audio: Float32Array): Promise<VoiceClassifier>
}

const DEFAULT_DETECTOR = 'energy 6/3 dB, 300-3400 Hz band over 100 ms (default)'

const DETECTORS: Detector[] = [
  {
    name: 'energy 9/4 dB per frame (old default)',
    create: async () =>
      createEnergyVoiceClassifier({ startAboveFloorDb: 9, stopAboveFloorDb: 4, smoothingMs: 0, floorFallMs: 0, voiceBandHz: null }),
  },
  {
    name: 'energy 6/3 dB over 50 ms, whole signal (previous default)',
    create: async () => createEnergyVoiceClassifier({ voiceBandHz: null }),
  },
  { name: DEFAULT_DETECTOR, create: async () => createEnergyVoiceClassifier() },
  ...([0, 1, 2, 3] as const).map((mode) => ({ name: `webrtc mode ${mode}`, create: () => createWebRtcVoiceClassifier({ mode }) })),
  {
    name: 'webrtc mode 3 + energy band',
    create: async () => allOfVoiceClassifiers([await createWebRtcVoiceClassifier({ mode: 3 }), createEnergyVoiceClassifier()]),
  },
]

interface OrtLike {
  env: { wasm: { numThreads: number } }
  Tensor: new (type: string, data: Float32Array | BigInt64Array, dims?: number[]) => { data: Float32Array }
  InferenceSession: { create(model: Uint8Array): Promise<{ run(feeds: object): Promise<Record<string, { data: Float32Array }>> }> }
}

/**
 * Silero VAD v5 through onnxruntime-web (WASM, one thread): 512-sample windows with the 64
 * samples before them as context, as Silero's own wrapper feeds it. The model answers
 * asynchronously, so the bench runs it over the audio first and each frame then gets the verdict
 * of the latest window that had ended by that frame (causal, as live).
 */
async function sileroDetector(modules: string): Promise<Detector> {
  const require = createRequire(join(modules, 'noop.js'))
  const ort = (await import(pathToFileURL(require.resolve('onnxruntime-web')).href)) as OrtLike
  ort.env.wasm.numThreads = 1
  const model = readFileSync(join(dirname(require.resolve('@ricky0123/vad-web/package.json')), 'dist', 'silero_vad_v5.onnx'))
  const session = await ort.InferenceSession.create(model)
  const sampleRate = new ort.Tensor('int64', BigInt64Array.from([16_000n]))
  const prepare = async (audio: Float32Array): Promise<VoiceClassifier> => {
    const verdicts: boolean[] = []
    let state = new ort.Tensor('float32', new Float32Array(256), [2, 1, 128])
    let voice = false
    for (let offset = 0; offset + 512 <= audio.length; offset += 512) {
      const input = new Float32Array(576)
      input.set(audio.subarray(Math.max(0, offset - 64), offset), 64 - Math.min(64, offset))
      input.set(audio.subarray(offset, offset + 512), 64)
      const out = await session.run({ input: new ort.Tensor('float32', input, [1, 576]), state, sr: sampleRate })
      state = out.stateN as typeof state
      voice = out.output!.data[0]! >= (voice ? 0.35 : 0.5)
      verdicts.push(voice)
    }
    let seen = 0
    return {
      isVoice(frame) {
        seen += frame.length
        return Math.floor(seen / 512) > 0 ? (verdicts[Math.floor(seen / 512) - 1] ?? false) : false
      },
      dispose() {},
    }
  }
  return { name: 'silero v5 0.5/0.35', create: () => Promise.reject(new Error('Silero is prepared per audio')), prepare }
}

interface Run {
  voice: boolean[]
  events: { event: TurnEvent; emittedMs: number }[]
  cpuMs: number
}

async function run(detector: Detector, audio: Float32Array): Promise<Run> {
  const started = process.cpuUsage()
  const classifier = detector.prepare ? await detector.prepare(audio) : await detector.create()
  const voice: boolean[] = []
  // The bench records each frame's verdict on its way through to the turn rules.
  const recording: VoiceClassifier = {
    isVoice: (frame) => {
      const verdict = classifier.isVoice(frame)
      voice.push(verdict)
      return verdict
    },
    dispose: () => classifier.dispose(),
  }
  const turns = turnDetectorOver(recording, { sampleRate: RATE, trailingSilenceMs: TRAILING_SILENCE_MS })
  const events: Run['events'] = []
  for (let offset = 0; offset + FRAME <= audio.length; offset += FRAME) {
    for (const event of turns.push(audio.subarray(offset, offset + FRAME)))
      events.push({ event, emittedMs: ((offset + FRAME) * 1000) / RATE })
  }
  turns.dispose()
  const used = process.cpuUsage(started)
  return { voice, events, cpuMs: (used.user + used.system) / 1000 }
}

const round = (value: number, digits = 3) => Number(value.toFixed(digits))

function quantile(values: number[], q: number): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!, 0)
}

function scoreSpeech(result: Run, spans: [number, number][]) {
  let truePositives = 0
  let falsePositives = 0
  let falseNegatives = 0
  result.voice.forEach((voice, frame) => {
    const middle = frame * FRAME + FRAME / 2
    const speech = spans.some(([from, to]) => middle >= from && middle < to)
    if (voice && speech) truePositives += 1
    else if (voice) falsePositives += 1
    else if (speech) falseNegatives += 1
  })
  const spansMs = spans.map(([from, to]) => [(from * 1000) / RATE, (to * 1000) / RATE] as const)
  const found = new Set<number>()
  let falseStarts = 0
  for (const { event } of result.events) {
    if (event.type !== 'speech-start') continue
    const turn = spansMs.findIndex(([from, to]) => event.atMs >= from - START_SLACK_MS && event.atMs < to)
    if (turn >= 0 && !found.has(turn)) found.add(turn)
    else falseStarts += 1
  }
  // Each turn's end: the first speech-end emitted after its voice ends and before the next turn's begins.
  const latencies: number[] = []
  let missedEnds = 0
  spansMs.forEach(([, endMs], index) => {
    const nextMs = spansMs[index + 1]?.[0] ?? Infinity
    const end = result.events.find(({ event, emittedMs }) => event.type === 'speech-end' && emittedMs >= endMs && emittedMs < nextMs)
    if (end) latencies.push(end.emittedMs - endMs)
    else missedEnds += 1
  })
  const precision = truePositives / Math.max(1, truePositives + falsePositives)
  const recall = truePositives / Math.max(1, truePositives + falseNegatives)
  return {
    turnsFound: round(found.size / spans.length),
    falseStarts,
    missedEnds,
    framePrecision: round(precision),
    frameRecall: round(recall),
    endOfSpeechLatencyMs: { p50: quantile(latencies, 0.5), max: quantile(latencies, 1) },
  }
}

async function corpus() {
  const tts = await createEspeakTtsEngine()
  try {
    const stream: SpeechStream = await callerStream(tts, CALLER_TURNS)
    return { stream, readings: await babbleVoices(tts) }
  } finally {
    await tts.close()
  }
}

const measuredAt = new Date().toISOString()

/** The previous file's detectors that this run did not measure, each marked with the run it comes from. */
function earlierMeasurements(path: string, measured: string[]): Record<string, unknown> {
  if (!existsSync(path)) return {}
  const previous = JSON.parse(readFileSync(path, 'utf8')) as {
    measuredAt: string
    detectors: Record<string, { measuredIn?: string; measured?: string } & Record<string, unknown>>
  }
  const kept: Record<string, unknown> = {}
  for (const [name, figures] of Object.entries(previous.detectors)) {
    if (measured.includes(name) || !/^(ten|silero)/.test(name)) continue
    const { measured: note, ...rest } = figures
    const run = figures.measuredIn ?? note ?? `the run of ${previous.measuredAt}`
    const removed = ' (TEN VAD, since removed from the project)'
    kept[name] = { ...rest, measuredIn: name.startsWith('ten') && !run.endsWith(removed) ? `${run}${removed}` : run }
  }
  return kept
}

async function main(): Promise<void> {
  const { stream, readings } = await corpus()
  const speech = speechPower(stream)
  const length = stream.clean.length
  const noises: Record<string, (length: number, seed: number) => Float32Array> = {
    white: whiteNoise,
    babble: (size, seed) => babble(readings, size, seed),
    hum,
  }
  const conditions: { name: string; audio: Float32Array }[] = [{ name: 'clean', audio: stream.clean }]
  for (const [kind, make] of Object.entries(noises)) {
    const noise = make(length, 7)
    for (const snr of SNRS_DB) conditions.push({ name: `${kind} ${snr} dB`, audio: mix(stream.clean, noise, speech, snr) })
  }
  const silence = new Float32Array(NOISE_ONLY_SECONDS * RATE)
  const noiseOnly: { name: string; audio: Float32Array }[] = []
  for (const [kind, make] of Object.entries(noises)) {
    // As loud as in the 20 and 5 dB mixes, from other seeds.
    for (const snr of [20, 5])
      noiseOnly.push({ name: `${kind} at the ${snr} dB level`, audio: mix(silence, make(silence.length, 99 + snr), speech, snr) })
  }

  const detectors = [...DETECTORS]
  if (process.env.SILERO_MODULES) detectors.push(await sileroDetector(process.env.SILERO_MODULES))
  const results: Record<string, unknown> = {}
  for (const detector of detectors) {
    const speechConditions: Record<string, ReturnType<typeof scoreSpeech>> = {}
    let cpuMs = 0
    let audioSeconds = 0
    for (const condition of conditions) {
      const result = await run(detector, condition.audio)
      cpuMs += result.cpuMs
      audioSeconds += condition.audio.length / RATE
      speechConditions[condition.name] = scoreSpeech(result, stream.spans)
    }
    const falseTurnsPerMinute: Record<string, number> = {}
    for (const condition of noiseOnly) {
      const result = await run(detector, condition.audio)
      cpuMs += result.cpuMs
      audioSeconds += condition.audio.length / RATE
      falseTurnsPerMinute[condition.name] = round(
        result.events.filter(({ event }) => event.type === 'speech-start').length / (NOISE_ONLY_SECONDS / 60),
        2,
      )
    }
    results[detector.name] = {
      speech: speechConditions,
      falseTurnsPerMinuteOnNoiseAlone: falseTurnsPerMinute,
      cpuMsPerAudioSecond: round(cpuMs / audioSeconds, 3),
    }
    const row = Object.entries(speechConditions)
      .map(([name, score]) => `${name} ${Math.round(score.turnsFound * 100)}%${score.falseStarts ? `+${score.falseStarts}` : ''}`)
      .join(' | ')
    console.log(
      `${detector.name} (${round(cpuMs / audioSeconds, 3)} ms CPU/s)\n  ${row}\n  false turns/min: ${JSON.stringify(falseTurnsPerMinute)}`,
    )
  }

  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'vad.json')
  mkdirSync(dirname(out), { recursive: true })
  Object.assign(results, earlierMeasurements(out, Object.keys(results)))
  const setup = {
    sampleRate: RATE,
    frameSamples: FRAME,
    trailingSilenceMs: TRAILING_SILENCE_MS,
    minSpeechMs: 200,
    speechSeconds: round(length / RATE, 1),
    callerTurns: CALLER_TURNS.length,
    noiseAloneSeconds: NOISE_ONLY_SECONDS,
    truth: 'TTS sample ranges trimmed to 10 ms windows within 40 dB of the loudest',
    babble:
      '8 talkers, each the 14 voices reading a paragraph no caller says, in a seeded order, looped, shifted by a seeded offset, every other one reversed; equal power, summed',
    turnsFound: `share of caller turns with a speech-start from ${START_SLACK_MS} ms before their voice to its end; falseStarts: the other speech-starts`,
    endOfSpeechLatency: 'when speech-end is emitted after the true end of the turn (includes the trailing silence)',
    cpu: 'process CPU ms per second of audio, one thread, classifier and turn rules (Silero: onnxruntime-web WASM, one thread)',
    voiceBand:
      'the default: the level is the power of 300-3400 Hz, from a 256-sample Hann-windowed FFT (fft.js) every 128 samples, instead of the mean square of the samples',
    earlier:
      'a detector with measuredIn was not measured in this run (Silero needs SILERO_MODULES; TEN VAD was removed from the project): its figures are from that run, on a corpus made the same way (eSpeak differs a little between runs)',
  }
  writeFileSync(
    out,
    JSON.stringify({ measuredAt, node: process.version, setup, default: DEFAULT_DETECTOR, detectors: results }, null, 2) + '\n',
  )
  console.log(`Wrote ${out}`)
}

await main()
