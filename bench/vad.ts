/**
 * Voice activity detection, measured to choose the turn detector's default: WebRTC VAD
 * (libfvad in WASM, modes 0-3) against the energy detector with hysteresis.
 * Speech is the project's own TTS (English and Arabic, male and female voices) resampled to
 * 16 kHz and laid out with silent gaps; the truth is each utterance's sample range, trimmed of
 * eSpeak's leading and trailing silence by level. Noise (seeded white noise, a 50 Hz hum with
 * harmonics) is added at 20, 10 and 5 dB SNR; noise alone checks for turns started by nothing.
 * Frames are 128 samples, as the web SDK sends them.
 * Run: `npx tsx bench/vad.ts` (writes bench/results/vad.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createEnergyVoiceClassifier } from '../src/engines/audio/energy-voice-classifier'
import { float32FromInt16 } from '../src/engines/audio/pcm-encoding'
import { createResampler } from '../src/engines/audio/speex-resampler'
import { turnDetectorOver, type TurnEvent } from '../src/engines/audio/turn-detector'
import type { VoiceClassifier } from '../src/engines/audio/voice-classifier'
import { parseWavPcm16Mono } from '../src/engines/audio/wav-file'
import { createWebRtcVoiceClassifier } from '../src/engines/audio/webrtc-voice-classifier'
import { createEspeakTtsEngine } from '../src/engines/tts/tts-engine'

const RATE = 16_000
const FRAME = 128
const FRAME_MS = (FRAME * 1000) / RATE
const TRAILING_SILENCE_MS = 600
const SNRS_DB = [20, 10, 5]
const NOISE_ONLY_SECONDS = 30

const UTTERANCES: { voiceId: string; text: string }[] = [
  { voiceId: 'd7c17d05-0c73-4196-8cd2-25f2687d90b0', text: 'Hello, I would like to book an appointment for next Tuesday morning.' },
  { voiceId: 'fe68337a-10d3-4648-99bb-2bb04554b6cf', text: 'Yes, that works for me. My name is Sarah Collins.' },
  { voiceId: '131fb3d1-06b1-4da0-9df8-f3ffa912b311', text: 'Could you please repeat the address? I did not catch the street name.' },
  { voiceId: 'ac6cefc6-80b4-41ae-a5a0-f8ca90c2e2f2', text: 'No.' },
  { voiceId: 'f738ab97-f3a6-4bfd-996a-0dacb6d9252a', text: 'مرحبا، أريد أن أحجز موعدا مع الطبيب يوم الثلاثاء.' },
  { voiceId: '16677e49-bcd2-4044-adb3-541626c49304', text: 'نعم، هذا مناسب لي. اسمي سارة.' },
  { voiceId: '47fb0122-054b-4ed1-af20-18a72f37dc9c', text: 'هل يمكنك أن تعيد العنوان من فضلك؟' },
  { voiceId: 'e5c47d3e-9b33-4fd8-bf04-66ace52a52e7', text: 'شكرا جزيلا.' },
]

/** Mulberry32: a small seeded PRNG, so every run hears the same noise. */
function prng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

function whiteNoise(length: number, seed: number): Float32Array {
  const random = prng(seed)
  const out = new Float32Array(length)
  for (let index = 0; index < length; index += 2) {
    // Box-Muller: two Gaussian samples from two uniform ones.
    const radius = Math.sqrt(-2 * Math.log(1 - random()))
    const angle = 2 * Math.PI * random()
    out[index] = radius * Math.cos(angle)
    if (index + 1 < length) out[index + 1] = radius * Math.sin(angle)
  }
  return out
}

/** Mains hum: 50 Hz and its harmonics, falling off, with a slow wobble in level. */
function hum(length: number, seed: number): Float32Array {
  const phases = Array.from({ length: 6 }, prng(seed)).map((value) => value * 2 * Math.PI)
  const out = new Float32Array(length)
  for (let index = 0; index < length; index += 1) {
    const time = index / RATE
    let value = 0
    for (let harmonic = 1; harmonic <= 6; harmonic += 1) value += Math.sin(2 * Math.PI * 50 * harmonic * time + phases[harmonic - 1]!) / harmonic
    out[index] = value * (1 + 0.1 * Math.sin(2 * Math.PI * 0.3 * time))
  }
  return out
}

function power(samples: Float32Array, from = 0, to = samples.length): number {
  let sum = 0
  for (let index = from; index < to; index += 1) sum += samples[index]! * samples[index]!
  return sum / Math.max(1, to - from)
}

/** The span of an utterance without eSpeak's silence at either end: 10 ms windows within 40 dB of the loudest. */
function voicedSpan(samples: Float32Array): [number, number] {
  const window = RATE / 100
  const levels: number[] = []
  for (let offset = 0; offset + window <= samples.length; offset += window) levels.push(10 * Math.log10(power(samples, offset, offset + window) + 1e-12))
  const threshold = Math.max(...levels) - 40
  const first = levels.findIndex((level) => level >= threshold)
  const last = levels.length - 1 - [...levels].reverse().findIndex((level) => level >= threshold)
  return [first * window, (last + 1) * window]
}

interface Stream {
  clean: Float32Array
  /** Speech spans in samples. */
  spans: [number, number][]
}

async function buildStream(): Promise<Stream> {
  const tts = await createEspeakTtsEngine()
  const resampler = await createResampler(22_050, RATE)
  const gapSeconds = [1.5, 1.2, 2.0, 1.4, 1.8, 1.3, 1.6, 1.2, 1.5]
  const pieces: Float32Array[] = []
  const spans: [number, number][] = []
  let length = 0
  const silence = (seconds: number) => {
    pieces.push(new Float32Array(Math.round(seconds * RATE)))
    length += Math.round(seconds * RATE)
  }
  try {
    for (const [index, utterance] of UTTERANCES.entries()) {
      silence(gapSeconds[index]!)
      const speech = float32FromInt16(resampler.resample(parseWavPcm16Mono((await tts.synthesize(utterance.text, utterance.voiceId)).wav).samples))
      const [from, to] = voicedSpan(speech)
      spans.push([length + from, length + to])
      pieces.push(speech)
      length += speech.length
    }
    silence(gapSeconds.at(-1)!)
  } finally {
    resampler.dispose()
    await tts.close()
  }
  const clean = new Float32Array(length)
  let offset = 0
  for (const piece of pieces) {
    clean.set(piece, offset)
    offset += piece.length
  }
  return { clean, spans }
}

function speechPower(stream: Stream): number {
  let sum = 0
  let count = 0
  for (const [from, to] of stream.spans) {
    sum += power(stream.clean, from, to) * (to - from)
    count += to - from
  }
  return sum / count
}

/** `noise` scaled so that speech is `snrDb` above it, added to a copy of `clean`. */
function mix(clean: Float32Array, noise: Float32Array, speech: number, snrDb: number): Float32Array {
  const gain = Math.sqrt(speech / 10 ** (snrDb / 10) / power(noise))
  return clean.map((sample, index) => sample + noise[index]! * gain)
}

interface Detector {
  name: string
  create(): Promise<VoiceClassifier>
}

const DETECTORS: Detector[] = [
  ...([0, 1, 2, 3] as const).map((mode) => ({ name: `webrtc mode ${mode}`, create: () => createWebRtcVoiceClassifier({ mode }) })),
  { name: 'webrtc mode 3, 30 ms', create: () => createWebRtcVoiceClassifier({ mode: 3, blockMs: 30 }) },
  { name: 'energy 12/6 dB', create: async () => createEnergyVoiceClassifier({ startAboveFloorDb: 12, stopAboveFloorDb: 6 }) },
  { name: 'energy 9/4 dB (the default)', create: async () => createEnergyVoiceClassifier() },
  { name: 'energy 8/3 dB', create: async () => createEnergyVoiceClassifier({ startAboveFloorDb: 8, stopAboveFloorDb: 3 }) },
]

interface Run {
  voice: boolean[]
  events: { event: TurnEvent; emittedMs: number }[]
  cpuMs: number
}

async function run(detector: Detector, audio: Float32Array): Promise<Run> {
  const classifier = await detector.create()
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
  const started = process.cpuUsage()
  for (let offset = 0; offset + FRAME <= audio.length; offset += FRAME) {
    for (const event of turns.push(audio.subarray(offset, offset + FRAME))) events.push({ event, emittedMs: ((offset + FRAME) * 1000) / RATE })
  }
  const used = process.cpuUsage(started)
  turns.dispose()
  return { voice, events, cpuMs: (used.user + used.system) / 1000 }
}

const round = (value: number, digits = 3) => Number(value.toFixed(digits))

function quantile(values: number[], q: number): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!, 0)
}

function scoreSpeech(result: Run, spans: [number, number][]) {
  const truth = result.voice.map((_, frame) => {
    const middle = frame * FRAME + FRAME / 2
    return spans.some(([from, to]) => middle >= from && middle < to)
  })
  let truePositives = 0
  let falsePositives = 0
  let falseNegatives = 0
  result.voice.forEach((voice, frame) => {
    if (voice && truth[frame]) truePositives += 1
    else if (voice) falsePositives += 1
    else if (truth[frame]) falseNegatives += 1
  })
  const precision = truePositives / Math.max(1, truePositives + falsePositives)
  const recall = truePositives / Math.max(1, truePositives + falseNegatives)
  // Each utterance's end: the first speech-end emitted after it ends and before the next one starts.
  const latencies: number[] = []
  const endOffsets: number[] = []
  let missedEnds = 0
  spans.forEach(([, to], index) => {
    const endMs = (to * 1000) / RATE
    const nextMs = index + 1 < spans.length ? (spans[index + 1]![0] * 1000) / RATE : Infinity
    const found = result.events.find(({ event, emittedMs }) => event.type === 'speech-end' && emittedMs >= endMs && emittedMs < nextMs)
    if (!found) return void (missedEnds += 1)
    latencies.push(found.emittedMs - endMs)
    endOffsets.push(found.event.atMs - endMs)
  })
  return {
    precision: round(precision),
    recall: round(recall),
    f1: round((2 * precision * recall) / Math.max(1e-9, precision + recall)),
    utterances: spans.length,
    turnStarts: result.events.filter(({ event }) => event.type === 'speech-start').length,
    missedEnds,
    endOfSpeechLatencyMs: { p50: quantile(latencies, 0.5), max: quantile(latencies, 1) },
    endOffsetMs: { p50: quantile(endOffsets, 0.5), max: quantile(endOffsets, 1) },
  }
}

async function main(): Promise<void> {
  const stream = await buildStream()
  const speech = speechPower(stream)
  const seconds = stream.clean.length / RATE
  const conditions: { name: string; audio: Float32Array }[] = [{ name: 'clean', audio: stream.clean }]
  const noises = { white: whiteNoise(stream.clean.length, 7), hum: hum(stream.clean.length, 11) }
  for (const [kind, noise] of Object.entries(noises)) {
    for (const snr of SNRS_DB) conditions.push({ name: `${kind} ${snr} dB`, audio: mix(stream.clean, noise, speech, snr) })
  }
  const silence = new Float32Array(NOISE_ONLY_SECONDS * RATE)
  const noiseOnly: { name: string; audio: Float32Array }[] = []
  for (const [kind, make] of Object.entries({ white: whiteNoise, hum })) {
    // The same levels as the mixes above: noise as loud as in the 20 and 5 dB cases.
    for (const snr of [20, 5]) noiseOnly.push({ name: `${kind} at the 5 dB level`.replace('5', String(snr)), audio: mix(silence, make(silence.length, 99 + snr), speech, snr) })
  }

  const results: Record<string, unknown> = {}
  for (const detector of DETECTORS) {
    const speechConditions: Record<string, unknown> = {}
    let cpuMs = 0
    let audioSeconds = 0
    for (const condition of conditions) {
      const result = await run(detector, condition.audio)
      cpuMs += result.cpuMs
      audioSeconds += condition.audio.length / RATE
      speechConditions[condition.name] = scoreSpeech(result, stream.spans)
    }
    const falseTurnStarts: Record<string, number> = {}
    for (const condition of noiseOnly) {
      const result = await run(detector, condition.audio)
      cpuMs += result.cpuMs
      audioSeconds += condition.audio.length / RATE
      falseTurnStarts[condition.name] = result.events.filter(({ event }) => event.type === 'speech-start').length
    }
    results[detector.name] = { speech: speechConditions, falseTurnStartsOnNoiseOnly: falseTurnStarts, cpuMsPerAudioSecond: round(cpuMs / audioSeconds, 4) }
    const row = Object.entries(speechConditions as Record<string, ReturnType<typeof scoreSpeech>>)
      .map(
        ([name, score]) =>
          `${name}: P ${score.precision} R ${score.recall} starts ${score.turnStarts}/${score.utterances} end ${score.endOfSpeechLatencyMs.p50}ms (${score.endOffsetMs.p50}/${score.missedEnds})`,
      )
      .join(' | ')
    console.log(`${detector.name} (${round(cpuMs / audioSeconds, 4)} ms CPU/s)\n  ${row}\n  noise only: ${JSON.stringify(falseTurnStarts)}`)
  }

  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'vad.json')
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(
    out,
    JSON.stringify(
      {
        measuredAt: new Date().toISOString(),
        node: process.version,
        setup: {
          sampleRate: RATE,
          frameSamples: FRAME,
          frameMs: FRAME_MS,
          trailingSilenceMs: TRAILING_SILENCE_MS,
          minSpeechMs: 200,
          speechSeconds: round(seconds, 1),
          utterances: UTTERANCES.length,
          noiseOnlySeconds: NOISE_ONLY_SECONDS,
          truth: 'TTS sample ranges trimmed to 10 ms windows within 40 dB of the loudest',
          endOfSpeechLatency: 'when speech-end is emitted, after the true end of the utterance (includes the trailing silence)',
          endOffset: "speech-end's atMs minus the true end",
        },
        detectors: results,
      },
      null,
      2,
    ) + '\n',
  )
  console.log(`Wrote ${out}`)
}

await main()
