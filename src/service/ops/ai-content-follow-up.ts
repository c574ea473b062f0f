import { z } from 'zod'
import { AI_PARTS } from '../../shared/api/ai-parts'
import type { Repositories } from '../../store/ports'
import type { JobRecord } from '../../store/records'
import { recordBase, titleFrom } from './jobs'
import { aiContentCost } from './prices'

const FollowUpSchema = z.object({ aiParts: z.array(z.enum(AI_PARTS)).min(1), title: z.string().optional() })

/**
 * When a transcription asked with AI content (/v2's generate-transcription-ai-content) ends
 * COMPLETED with text, queues that AI-content job, in the transaction that ends the
 * transcription: the follow-up is made exactly once, or not at all if the end is not stored.
 */
export async function queueAiContentFollowUp(
  tx: Pick<Repositories, 'jobs'>,
  job: JobRecord,
  engine: { model: string; systemModelKey: string; processingType: string },
  at: string,
): Promise<void> {
  if (job.type !== 'TRANSCRIPTION' || job.status !== 'COMPLETED' || !job.text?.trim()) return
  const request = FollowUpSchema.safeParse(job.jobResponse?.aiContentRequest)
  if (!request.success) return
  await tx.jobs.insert({
    ...recordBase({ projectId: job.projectId, apiKeyId: job.apiKeyId, userId: job.userId }, at),
    type: 'AI_CONTENT',
    title: titleFrom(request.data.title ?? `AI content: ${job.title}`, 100),
    ...engine,
    aiParts: request.data.aiParts,
    relevantJobId: job.id,
    totalCost: aiContentCost(request.data.aiParts.length),
  })
}
