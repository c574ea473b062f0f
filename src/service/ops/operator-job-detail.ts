import type { Job } from '../../shared/api/jobs'
import type { JobRecord } from '../../store/records'
import { playableMediaUrlOf, previewUrlOf, requireJob, toJobDto } from './jobs'
import type { Caller, OpsContext } from './ops-context'

/** How many translations of translations are followed back to their transcription (a chain is never longer in practice). */
const SOURCE_HOPS = 8

/**
 * The operator UI's `jobs.get`: the job as /v1 shows it, and where this service plays its media.
 * A transcription plays its stored source (the DTO's `mediaUrl` is the client's URL, which may be
 * on another site); a translation made from a transcription (directly or through translations)
 * plays that transcription's source, so its timed segments can play too. /v1 stays as it is.
 */
export async function getOperatorJob(
  context: OpsContext,
  caller: Caller,
  id: string,
): Promise<{ previewUrl: string; job: Job; playableMediaUrl: string | null }> {
  const record = await requireJob(context, caller, id)
  return {
    previewUrl: previewUrlOf(context, record),
    job: toJobDto(context, record),
    playableMediaUrl: await playableMediaOf(context, caller, record),
  }
}

async function playableMediaOf(context: OpsContext, caller: Caller, record: JobRecord): Promise<string | null> {
  let current: JobRecord | undefined = record
  for (let hop = 0; current?.type === 'TRANSLATION' && current.relevantJobId && hop < SOURCE_HOPS; hop += 1) {
    current = await context.store.jobs.findInProject(current.relevantJobId, caller.projectId)
  }
  if (!current || current.type === 'TRANSLATION') return null
  return playableMediaUrlOf(context, current)
}
