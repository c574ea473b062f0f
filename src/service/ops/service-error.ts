import { ERROR_STATUS, type ErrorCode, type ErrorDetail } from '../../shared/api/errors'

/** A failure the caller can act on; the HTTP layer turns it into the contract's envelope. */
export class ServiceError extends Error {
  readonly status: number

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    /** Sent as the Retry-After header (seconds): when trying again is worth it (503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message)
    this.name = 'ServiceError'
    this.status = ERROR_STATUS[code]
  }
}

export function notFound(what: string, id: string): ServiceError {
  return new ServiceError('NOT_FOUND', `No ${what} with id ${JSON.stringify(id)} in this project`)
}

export function invalid(path: string, message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', `Invalid request: ${path}: ${message}`, [{ path, message }])
}
