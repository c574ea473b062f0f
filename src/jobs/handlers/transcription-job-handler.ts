import { z } from 'zod'
import { layOutCues, type SrtLayoutOptions } from '../../shared/text/srt-layout'
import { toSrt } from '../../shared/text/subtitles'
import { MediaDecodeError } from '../../engines/audio/media-decoder'
import type { VoiceClassifier } from '../../engines/audio/voice-classifier'
import { transcribeMediaFile } from '../../engines/stt/media-transcription'
import { SttEngineError } from '../../engines/stt/stt-engine-error'
import type { SttEngine } from '../../engines/stt/stt-engine'
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

/** Failures as the job's: the speech server's worth another try when it may pass; the media's never. */
function asJobFailure(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return error
  if (error instanceof MediaDecodeError) return new JobError(error.code, error.message)
  if (error instanceof SttEngineError) return new JobError('STT_ENGINE_FAILED', error.message, error.transient)
  return error
}

const StoredSrtOptionsSchema = z.object({
  maxLinesPerSubtitle: z.number(),
  maxCharsPerLine: z.number(),
  singleSpeakerPerSubtitle: z.boolean(),
  maxMergeableGap: z.number(),
  minDuration: z.number(),
  maxDuration: z.number(),
  minGap: z.number(),
})

/** The subtitle layout the job was created with (returnSrtFormat), if any. */
function srtOptionsOf(job: JobRecord): SrtLayoutOptions | undefined {
  const parsed = StoredSrtOptionsSchema.safeParse(job.jobResponse?.srtOptions)
  return parsed.success ? parsed.data : undefined
}

/**
 * Transcribes a job's media (see transcribeMediaFile): fetched when it is still at its URL,
 * decoded, cut into windows at pauses, each window with a voice sent to the speech server.
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
      let duration: number | null = null
      const result = await options.withLocalFile(job.mediaFile, (path) =>
        transcribeMediaFile(path, {
          stt,
          classifier,
          language: job.fromLng ?? undefined,
          signal,
          windowSeconds: options.windowSeconds,
          onDuration: (seconds) => void (duration = seconds),
          onWindow: (end) => progress.report(duration ? Math.min(1, end / duration) : undefined),
          aroundRequest: (request) => stillGoing(progress, request),
        }),
      )
      if (!result) throw new JobError('INVALID_JOB', `The transcription job's media ${job.mediaFile} is not in the media store`)
      const { text, segments, language, durationSeconds } = result
      const srtOptions = srtOptionsOf(job)
      return {
        jobResponse: {
          text,
          language,
          durationSeconds,
          segments,
          ...(srtOptions ? { srt: toSrt(layOutCues(segments, srtOptions)), srtOptions } : {}),
          // AI content asked with the transcription (/v2): kept for the follow-up its end makes.
          ...(job.jobResponse?.aiContentRequest === undefined ? {} : { aiContentRequest: job.jobResponse.aiContentRequest }),
        },
        text,
        usageSeconds: durationSeconds,
        totalCost: options.cost(durationSeconds),
      }
    } catch (error) {
      throw asJobFailure(error, signal)
    } finally {
      classifier.dispose()
    }
  }
}
