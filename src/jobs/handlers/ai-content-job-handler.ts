import type { AiContentEngine } from '../../engines/ai-content/ai-content-engine'
import { writeCustomPartsOffline, type CustomPartRequest } from '../../engines/ai-content/custom-parts'
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
    const custom = customRequestOf(job.jobResponse)
    if (custom) {
      try {
        const input = { text: source.text, title: source.title, parts: custom }
        const customParts = engine.generateCustom
          ? await engine.generateCustom(input, signal)
          : await writeCustomPartsOffline(engine, input, signal)
        return { jobResponse: { transcriptionJobId: source.id, customParts }, usageSeconds: null, totalCost: job.totalCost }
      } catch (error) {
        if (signal.aborted) throw error
        throw new JobError('AI_ENGINE_FAILED', `${engine.name}: ${(error as Error).message}`)
      }
    }
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

/** The custom parts a job made by POST /v1/jobs/ai-content/custom asks for (kept in its pending jobResponse), if any. */
function customRequestOf(jobResponse: Record<string, unknown> | null): CustomPartRequest[] | undefined {
  const request = jobResponse?.customRequest
  return Array.isArray(request) && request.length > 0 ? (request as CustomPartRequest[]) : undefined
}
