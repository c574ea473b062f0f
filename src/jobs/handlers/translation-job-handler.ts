import type { TranslationEngine, TranslationLanguages, TranslationRun } from '../../engines/ai-content/translation-engine'
import {
  TimedSegmentSchema,
  TranslationLanguageSchema,
  type TimedSegment,
  type TranslationResponse,
} from '../../shared/api/translation-jobs'
import type { JobsRepository } from '../../store/ports'
import type { JobRecord } from '../../store/records'
import { JobError } from '../job-error'
import type { JobHandler } from '../job-runner'

export const LLM_ENGINE_NOT_CONFIGURED_MESSAGE =
  "No language-model engine is configured, so nothing can be translated: choose one with `voicedesk ai-engine openai-compatible --base-url URL --model NAME` (or in the app's Settings, AI engine), then retry this job"

/** A long job's signs of life, when the runner gives them (each renews the job's lease and time limit). */
interface ProgressReports {
  report(fraction?: number): Promise<void>
}

/**
 * Translates a TRANSLATION job's source: its source job's segments (each keeping its start and
 * end) or text, or the job's own text. The translation becomes the job's text; a text source
 * stays in `jobResponse.sourceText`.
 */
export function createTranslationJobHandler(options: {
  engine: () => Promise<TranslationEngine | undefined>
  jobs: JobsRepository
}): JobHandler {
  return async (job: JobRecord, signal: AbortSignal, progress?: ProgressReports) => {
    const to = TranslationLanguageSchema.safeParse(job.toLng)
    if (!to.success) throw new JobError('INVALID_JOB', `The translation job's target language ${JSON.stringify(job.toLng)} is not ar or en`)
    const engine = await options.engine()
    if (!engine) throw new JobError('LLM_ENGINE_NOT_CONFIGURED', LLM_ENGINE_NOT_CONFIGURED_MESSAGE)
    const source = job.relevantJobId ? await options.jobs.findById(job.relevantJobId) : undefined
    if (job.relevantJobId && !source?.text?.trim())
      throw new JobError('SOURCE_JOB_MISSING', `The source job ${job.relevantJobId} is gone or has no text`)
    const sourceText = source ? source.text : job.text
    if (!sourceText?.trim()) throw new JobError('INVALID_JOB', 'The translation job has neither a source job nor a text')

    const languages: TranslationLanguages = { from: job.fromLng, to: to.data }
    // A failed report (the job's lease was lost) is the runner's matter, not the engine's.
    let lostLease: unknown
    const report = (reports: ProgressReports) => (done: number, total: number) =>
      reports.report(total === 0 ? 1 : done / total).catch((error: unknown) => {
        lostLease = error
        throw error
      })
    const run: TranslationRun = { signal, onProgress: progress ? report(progress) : undefined }
    const segments = source ? segmentsOf(source) : undefined
    let response: TranslationResponse
    try {
      if (segments) {
        const translated = await engine.translateSegments(segments, languages, run)
        const text = translated
          .map((segment) => segment.text.trim())
          .filter(Boolean)
          .join(' ')
        response = { text, fromLng: job.fromLng, toLng: to.data, segments: translated }
      } else {
        const text = await engine.translateText(sourceText, languages, run)
        response = { text, fromLng: job.fromLng, toLng: to.data, ...(source ? {} : { sourceText }) }
      }
    } catch (error) {
      if (signal.aborted || (lostLease !== undefined && error === lostLease)) throw error
      throw new JobError('LLM_ENGINE_FAILED', `${engine.name}: ${(error as Error).message}`)
    }
    return { jobResponse: response, text: response.text, usageSeconds: source?.usageSeconds ?? null, totalCost: job.totalCost }
  }
}

/** The source's timed segments (a transcription's, or a translation's of one), when it has any. */
function segmentsOf(source: JobRecord): TimedSegment[] | undefined {
  const segments = TimedSegmentSchema.array().safeParse(source.jobResponse?.segments)
  return segments.success && segments.data.length > 0 ? segments.data : undefined
}
