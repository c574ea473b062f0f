import { decodeToPcm16k, MediaDecodeError, probeMedia } from '../../engines/audio/media-decoder'
import type { VoiceClassifier } from '../../engines/audio/voice-classifier'
import { writeWavPcm16Mono } from '../../engines/audio/wav-file'
import { SttEngineError } from '../../engines/stt/stt-engine-error'
import type { SttEngine, TranscriptSegment } from '../../engines/stt/stt-engine'
import { speechWindows, WINDOW_SAMPLE_RATE } from '../../engines/stt/speech-windows'
import type { JobRecord } from '../../store/records'
import { JobError } from '../job-error'
import type { JobHandler, JobProgress } from '../job-runner'

export interface TranscriptionJobHandlerOptions {
  /** The engine the speech-recognition setting chooses now; undefined when it is off. */
  stt: () => Promise<SttEngine | undefined>
  /**
   * Makes sure the job's media is in the media store under `job.mediaFile`: fetches
   * `job.sourceUrl` when it is not there yet (an upload is there from the start). Throws JobError.
   */
  fetchSource: (job: JobRecord, signal: AbortSignal, progress: JobProgress) => Promise<void>
  /** A file of the stored media the decoder can seek in (an mp4's index may be at its end). */
  withLocalFile: <T>(name: string, use: (path: string) => Promise<T>) => Promise<T | undefined>
  /** A fresh WebRTC VAD for one job's windows. */
  classifier: () => Promise<VoiceClassifier>
  /** Credits for the media's length. */
  cost: (seconds: number) => number
  /** A window's longest length (default 60 s). */
  windowSeconds?: number
}

const NOT_CONFIGURED =
  'No speech recognition server is set, so nothing was transcribed. Choose one with `voicedesk stt-engine openai-compatible --base-url http://127.0.0.1:8080/v1` ' +
  '(a whisper.cpp server, speaches or LocalAI) or in the app under Settings, then retry the job.'

/** How often a step with its own time limit (a download, a server's answer) tells the runner it is still going. */
const STILL_GOING_MS = 20_000

/**
 * Runs a step that has a time limit of its own (a fetch that fails after a silence, a speech
 * server's request timeout) while telling the runner the job is alive, so a slow but moving
 * step is not cut off by the job's time limit.
 */
async function stillGoing<T>(progress: JobProgress, step: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => void progress.report().catch(() => undefined), STILL_GOING_MS)
  try {
    return await step()
  } finally {
    clearInterval(timer)
  }
}

/** Seconds with 3 decimals, as the contract writes times. */
const seconds3 = (value: number) => Math.round(value * 1000) / 1000

/** What each failure of the speech server means for the job: worth another try when it may pass. */
function sttFailure(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted || !(error instanceof SttEngineError)) return error
  const mayPass = error.code === 'UNREACHABLE' || error.code === 'TIMEOUT' || (error.code === 'HTTP_ERROR' && (error.status ?? 500) >= 500)
  return new JobError('STT_ENGINE_FAILED', error.message, mayPass)
}

function decodeFailure(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted || !(error instanceof MediaDecodeError)) return error
  return new JobError(error.code, error.message)
}

/**
 * Transcribes a job's media: fetched when it is still at its URL, decoded (audio or video) to
 * 16 kHz mono, cut into windows of at most a minute at pauses, each window with a voice sent
 * to the speech recognition server, and the segments put back on the media's clock. Windows
 * without a voice are not sent (a server asked to transcribe silence tends to invent words).
 * Each window reports progress, which keeps a long job's lease. Nothing is made up: with no
 * server set the job fails with STT_ENGINE_NOT_CONFIGURED before any work.
 */
export function createTranscriptionJobHandler(options: TranscriptionJobHandlerOptions): JobHandler {
  return async (job, signal, progress) => {
    if (!job.mediaFile) throw new JobError('INVALID_JOB', 'The transcription job has no media name')
    const stt = await options.stt()
    if (!stt) throw new JobError('STT_ENGINE_NOT_CONFIGURED', NOT_CONFIGURED)
    await stillGoing(progress, () => options.fetchSource(job, signal, progress))
    const classifier = await options.classifier()
    try {
      const result = await options.withLocalFile(job.mediaFile, async (path) => {
        let duration: number | null
        try {
          const probe = await probeMedia(path, { signal })
          if (!probe.hasAudio) throw new MediaDecodeError('MEDIA_HAS_NO_AUDIO', 'The media has no audio track')
          duration = probe.durationSeconds
        } catch (error) {
          throw decodeFailure(error, signal)
        }
        return transcribeWindows(path, job, stt, classifier, duration, signal, progress, options.windowSeconds)
      })
      if (!result) throw new JobError('INVALID_JOB', `The transcription job's media ${job.mediaFile} is not in the media store`)
      const { text, segments, language, durationSeconds } = result
      return {
        jobResponse: { text, language, durationSeconds, segments },
        text,
        usageSeconds: durationSeconds,
        totalCost: options.cost(durationSeconds),
      }
    } finally {
      classifier.dispose()
    }
  }
}

async function transcribeWindows(
  path: string,
  job: JobRecord,
  stt: SttEngine,
  classifier: VoiceClassifier,
  durationSeconds: number | null,
  signal: AbortSignal,
  progress: JobProgress,
  windowSeconds: number | undefined,
) {
  const segments: TranscriptSegment[] = []
  // A language asked for is sent with every window; else the first one the server hears is, so
  // one recording is not written in two languages because a window was short or noisy.
  let language = job.fromLng ?? undefined
  let totalSamples = 0
  try {
    for await (const window of speechWindows(decodeToPcm16k(path, { signal }), { classifier, maxSeconds: windowSeconds })) {
      const offset = window.startSample / WINDOW_SAMPLE_RATE
      const windowEnd = offset + window.samples.length / WINDOW_SAMPLE_RATE
      totalSamples = window.startSample + window.samples.length
      if (window.voiced) {
        let heard
        try {
          heard = await stillGoing(progress, () => stt.transcribe(writeWavPcm16Mono(window.samples, WINDOW_SAMPLE_RATE), { language, signal }))
        } catch (error) {
          throw sttFailure(error, signal)
        }
        language ??= heard.language
        const pieces = heard.segments?.length ? heard.segments : [{ start: 0, end: windowEnd - offset, text: heard.text }]
        for (const piece of pieces) {
          const text = piece.text.trim()
          if (!text) continue
          const start = Math.min(windowEnd, offset + Math.max(0, piece.start))
          segments.push({ start: seconds3(start), end: seconds3(Math.min(windowEnd, Math.max(start, offset + piece.end))), text })
        }
      }
      await progress.report(durationSeconds ? Math.min(1, windowEnd / durationSeconds) : undefined)
    }
  } catch (error) {
    throw decodeFailure(error, signal)
  }
  return {
    text: segments.map((segment) => segment.text).join(' '),
    segments,
    language: language ?? null,
    durationSeconds: seconds3(totalSamples / WINDOW_SAMPLE_RATE),
  }
}
