import { rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { TtsEngine } from '../../engines/tts/tts-engine'
import { JobError } from '../job-error'
import type { JobHandler } from '../job-runner'

/**
 * Speaks a TTS job's text and writes the WAV to the media folder under the job's
 * unguessable name. The file appears whole or not at all (written aside, then renamed).
 */
export function createTtsJobHandler(options: { engine: () => Promise<TtsEngine>; mediaDir: string }): JobHandler {
  return async (job, signal) => {
    if (!job.text || !job.voiceId || !job.mediaFile) throw new JobError('INVALID_JOB', 'The TTS job has no text, voice or media name')
    const engine = await options.engine()
    const speech = await engine.synthesize(job.text, job.voiceId, signal)
    const file = join(options.mediaDir, job.mediaFile)
    await writeFile(`${file}.partial`, speech.wav, { signal })
    await rename(`${file}.partial`, file)
    return { jobResponse: { text: job.text }, usageSeconds: speech.durationSeconds, totalCost: job.totalCost }
  }
}
