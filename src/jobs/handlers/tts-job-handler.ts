import type { Pronunciation } from '../../engines/tts/pronunciations'
import type { MediaStore } from '../../store/ports'
import type { JobRecord } from '../../store/records'
import { TtsEngineError, type TtsEngine } from '../../engines/tts/tts-engine'
import { JobError } from '../job-error'
import type { JobHandler } from '../job-runner'

/** Engine failures as job failures: a crashed or unstarted engine is worth another try, bad input is not. */
function asJobError(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted || !(error instanceof TtsEngineError)) return error
  switch (error.code) {
    case 'WORKER_CRASHED':
    case 'START_FAILED':
    case 'ENGINE_CLOSED':
      return new JobError('TTS_ENGINE_FAILED', error.message, true)
    case 'UNKNOWN_VOICE':
    case 'EMPTY_TEXT':
      return new JobError('INVALID_TEXT_OR_VOICE', error.message)
    default:
      return new JobError('TTS_FAILED', error.message)
  }
}

/**
 * Speaks a TTS job's text and stores the WAV under the job's unguessable name, where every
 * instance of the service can serve it (the data folder's media/, or the database in team
 * mode). The media store writes it whole or not at all.
 */
export function createTtsJobHandler(options: {
  engine: () => Promise<TtsEngine>
  media: MediaStore
  /** The voice dictionary entries of the job's agent (none for a job without one), read as it runs. */
  pronunciations?: (job: JobRecord) => Promise<readonly Pronunciation[]>
}): JobHandler {
  return async (job, signal) => {
    if (!job.text || !job.voiceId || !job.mediaFile) throw new JobError('INVALID_JOB', 'The TTS job has no text, voice or media name')
    const pronunciations = (await options.pronunciations?.(job)) ?? []
    let speech
    try {
      // Batch: every live call's sentence and realtime request goes first; a long text yields between its segments.
      speech = await (await options.engine()).synthesize(job.text, job.voiceId, { signal, priority: 'batch', pronunciations })
    } catch (error) {
      throw asJobError(error, signal)
    }
    await options.media.put(job.mediaFile, speech.wav, signal)
    return { jobResponse: { text: job.text }, usageSeconds: speech.durationSeconds, totalCost: job.totalCost }
  }
}
