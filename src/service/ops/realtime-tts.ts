import { createResampler } from '../../engines/audio/speex-resampler'
import { int16FromPcm16, pcm16FromInt16 } from '../../engines/audio/pcm-encoding'
import type { SpeechOptions, TtsEngine } from '../../engines/tts/tts-engine'
import { encodeWavPcm16Mono } from '../../engines/tts/wav-encoding'
import { REALTIME_PCM_SAMPLE_RATE, VOICE_FIELDS, type RealtimeAudioFormat, type RealtimeTtsBody } from '../../shared/api/realtime'
import { SPEAKER_VOICES, VOICES, type Voice } from '../../shared/voices'
import { baseRecord, JOB_MODELS, titleFrom } from './jobs'
import { timestamp, type Caller, type OpsContext } from './ops-context'
import { ttsCost } from './prices'
import { invalid } from './service-error'
import { present } from '../../shared/present'

type Resampler = Awaited<ReturnType<typeof createResampler>>

/** The catalogue voice a request names, by id or by name in any case (the first voice field given). */
export function realtimeVoiceOf(body: RealtimeTtsBody): Voice {
  // The body's schema requires one of the voice fields.
  const field = present(
    VOICE_FIELDS.find((name) => body[name] !== undefined),
    'a voice field',
  )
  const ref = present(body[field], field)
  const wanted = ref.toLowerCase()
  const voice = VOICES.find((candidate) => candidate.id === wanted || candidate.name.toLowerCase() === wanted) ?? SPEAKER_VOICES.get(wanted)
  if (!voice) {
    throw invalid(
      field,
      `Unknown voice ${JSON.stringify(ref.slice(0, 100))}: use an id or name listed by GET /v1/voices, or a public speaker name`,
    )
  }
  return voice
}

/** The format asked for: the body's `format`, else `audio/pcm` (or `audio/l16`) in Accept, else `fallback`. */
export function realtimeFormatOf(body: RealtimeTtsBody, accept: string | undefined, fallback: RealtimeAudioFormat): RealtimeAudioFormat {
  if (body.format) return body.format
  if (accept && /(^|,)\s*audio\/(pcm|l16)\b/i.test(accept)) return 'pcm'
  return fallback
}

export const REALTIME_CONTENT_TYPES: Record<RealtimeAudioFormat, string> = {
  wav: 'audio/wav',
  pcm: `audio/pcm;rate=${REALTIME_PCM_SAMPLE_RATE};bits=16;channels=1`,
}

/** The whole audio of `text`, in `format`. */
export async function speakWhole(
  engine: TtsEngine,
  text: string,
  voiceId: string,
  format: RealtimeAudioFormat,
  speech: AbortSignal | SpeechOptions = {},
) {
  const spoken = await engine.synthesize(text, voiceId, speech)
  if (format === 'wav') return { audio: spoken.wav, seconds: spoken.durationSeconds }
  const resampler = await createResampler(spoken.sampleRate, REALTIME_PCM_SAMPLE_RATE)
  try {
    const samples = resampler.resample(int16FromPcm16(spoken.wav.subarray(44)))
    return { audio: pcm16FromInt16(samples), seconds: samples.length / REALTIME_PCM_SAMPLE_RATE }
  } finally {
    resampler.dispose()
  }
}

/** A WAV header for audio of unknown length: both sizes 0xFFFFFFFF, as streaming players accept. */
function streamingWavHeader(sampleRate: number): Buffer {
  const header = encodeWavPcm16Mono(new Uint8Array(0), sampleRate)
  header.writeUInt32LE(0xffffffff, 4)
  header.writeUInt32LE(0xffffffff, 40)
  return header
}

/**
 * Speaks `text` into `write` chunk by chunk as the engine makes it: wav is a streaming header
 * (sent with the first audio) then the samples; pcm is resampled to 16 kHz as it goes (Speex).
 * Resolves with the seconds and bytes written once the last chunk is; rejects like the engine.
 */
export async function speakStreaming(
  engine: TtsEngine,
  text: string,
  voiceId: string,
  format: RealtimeAudioFormat,
  write: (bytes: Buffer) => void,
  signal?: AbortSignal | SpeechOptions,
): Promise<{ seconds: number; bytes: number }> {
  let bytes = 0
  const send = (chunk: Buffer) => {
    if (chunk.byteLength === 0) return
    bytes += chunk.byteLength
    write(chunk)
  }
  if (format === 'wav') {
    let headerSent = false
    const speech = await engine.synthesizeStream(
      text,
      voiceId,
      (pcm, sampleRate) => {
        if (!headerSent) send(streamingWavHeader(sampleRate))
        headerSent = true
        send(pcm)
      },
      signal,
    )
    return { seconds: speech.durationSeconds, bytes }
  }
  let resampler: Resampler | undefined
  let samples = 0
  try {
    // The engine's rate is known from its first chunk; the resampler starts then (its WASM is loaded once per process).
    const starting: Promise<void>[] = []
    const pending: Buffer[] = []
    await engine.synthesizeStream(
      text,
      voiceId,
      (pcm, sampleRate) => {
        if (!resampler && starting.length === 0) {
          starting.push(
            createResampler(sampleRate, REALTIME_PCM_SAMPLE_RATE).then((made) => {
              resampler = made
              for (const waiting of pending.splice(0)) push(made, waiting)
            }),
          )
        }
        if (resampler) push(resampler, pcm)
        else pending.push(pcm)
      },
      signal,
    )
    await Promise.all(starting)
    if (resampler) {
      const tail = resampler.flush()
      samples += tail.length
      send(pcm16FromInt16(tail))
    }
    return { seconds: samples / REALTIME_PCM_SAMPLE_RATE, bytes }
  } finally {
    resampler?.dispose()
  }

  function push(into: Resampler, pcm: Buffer) {
    const out = into.push(int16FromPcm16(pcm))
    samples += out.length
    send(pcm16FromInt16(out))
  }
}

/**
 * Records one realtime synthesis as the contract prices TTS: a COMPLETED TTS job (processing
 * type REALTIME, no media kept), with its seconds of speech and its cost, so that the jobs
 * list and the statistics count it like any TTS job. Returns the job id.
 */
export async function recordRealtimeSpeech(
  context: OpsContext,
  caller: Caller,
  speech: { text: string; voiceId: string; seconds: number },
): Promise<string> {
  const record = {
    ...baseRecord(context, caller, timestamp(context)),
    type: 'TTS' as const,
    status: 'COMPLETED' as const,
    title: titleFrom(speech.text),
    ...JOB_MODELS.TTS,
    processingType: 'REALTIME',
    voiceId: speech.voiceId,
    text: speech.text,
    jobResponse: { text: speech.text },
    usageSeconds: Math.round(speech.seconds * 1000) / 1000,
    totalCost: ttsCost(speech.text),
  }
  await context.store.jobs.insert(record)
  return record.id
}
