import { rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { TtsEngineError, type TtsEngine } from '../../engines/tts/tts-engine'
import { JobError } from '../job-error'
import type { JobHandler } from '../job-runner'
import { PARTIAL_SUFFIX } from './partial-media-files'

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
 * Speaks a TTS job's text and writes the WAV to the media folder under the job's
 * unguessable name. The file appears whole or not at all (written aside, then renamed);
 * the aside file is removed when the write fails (a full disk, an abort), so no half file
 * holds on to the space that is short.
 */
export function createTtsJobHandler(options: { engine: () => Promise<TtsEngine>; mediaDir: string }): JobHandler {
  return async (job, signal) => {
    if (!job.text || !job.voiceId || !job.mediaFile) throw new JobError('INVALID_JOB', 'The TTS job has no text, voice or media name')
    let speech
    try {
      speech = await (await options.engine()).synthesize(job.text, job.voiceId, signal)
    } catch (error) {
      throw asJobError(error, signal)
    }
    const file = join(options.mediaDir, job.mediaFile)
    const partial = file + PARTIAL_SUFFIX
    try {
      // 0600: a caller's audio is theirs alone, like the rest of the data folder.
      await writeFile(partial, speech.wav, { signal, mode: 0o600 })
      await rename(partial, file)
    } catch (error) {
      await rm(partial, { force: true }).catch(() => undefined)
      throw error
    }
    return { jobResponse: { text: job.text }, usageSeconds: speech.durationSeconds, totalCost: job.totalCost }
  }
}
