import type { JobHandler } from '../job-runner'
import { JobError } from '../job-error'

/**
 * The job runner meets a conversation only when nobody is on it: its socket never opened within
 * the minute after conversation-init (it fell due), or the service running the call died and
 * the call's lease ran out (the host's sweep put it back in the queue). Either way it ends FAILED,
 * keeping whatever transcript the call saved.
 */
export function createConversationJobHandler(): JobHandler {
  return async (job) => {
    const startedAt = (job.jobResponse as { startedAt?: unknown } | null)?.startedAt
    if (typeof startedAt === 'string') {
      throw new JobError(
        'CALL_INTERRUPTED',
        'The service running this call stopped mid-call (a crash or a kill); the transcript up to then is kept',
      )
    }
    throw new JobError(
      'CONVERSATION_NOT_STARTED',
      'No socket opened this conversation within a minute of conversation-init: connect to /stream/{jobId}?api_key=<key> right after it',
    )
  }
}
