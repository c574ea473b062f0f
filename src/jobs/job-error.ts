import type { JobErrorCode } from '../shared/api/job-error-codes'

/**
 * A job failure with a code clients can act on. `retryable` failures (a crashed engine,
 * an unreachable model server) are tried again while attempts remain; the rest end the job.
 */
export class JobError extends Error {
  constructor(
    readonly code: JobErrorCode,
    message: string,
    readonly retryable = false,
  ) {
    super(message)
    this.name = 'JobError'
  }
}
