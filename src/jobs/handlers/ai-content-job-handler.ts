import type { AiContentEngine } from '../../engines/ai-content/ai-content-engine'
import type { JobsRepository } from '../../store/ports'
import { JobError } from '../job-error'
import type { JobHandler } from '../job-runner'

/** Writes the parts an AI-content job asks for from its source job's text. */
export function createAiContentJobHandler(options: { engine: () => AiContentEngine; jobs: JobsRepository }): JobHandler {
  return async (job, signal) => {
    const source = job.relevantJobId ? await options.jobs.findById(job.relevantJobId) : undefined
    if (!source?.text?.trim()) throw new JobError('SOURCE_JOB_MISSING', `The source job ${job.relevantJobId} is gone or has no text`)
    if (!job.aiParts?.length) throw new JobError('INVALID_JOB', 'The AI-content job asks for no parts')
    const engine = options.engine()
    let parts: Record<string, string | undefined>
    try {
      parts = await engine.generate({ text: source.text, parts: job.aiParts, title: source.title }, signal)
    } catch (error) {
      if (signal.aborted) throw error
      throw new JobError('AI_ENGINE_FAILED', `${engine.name}: ${(error as Error).message}`)
    }
    return { jobResponse: { ...parts, transcriptionJobId: source.id }, usageSeconds: null, totalCost: job.totalCost }
  }
}
