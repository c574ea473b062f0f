import { ERROR_STATUS, type ErrorCode, type ErrorDetail } from '../../shared/api/errors'
import { joinPath, validationSummary } from './validation-details'

/**
 * A failure the caller can act on; each transport turns it into its answer (the /v1 envelope,
 * an IPC result). The paths of `details` are relative to the use case's input (`webhookUrl`,
 * `outcomeResponseShape.properties.x`), never a transport's (`body.`, `query.`): the transport
 * adds where the input came from.
 */
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

/** A refused input: `path` relative to the use case's input (`phoneNumber`, not `body.phoneNumber`). */
export function invalid(path: string, message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', validationSummary('Invalid request', [{ path, message }]), [{ path, message }])
}

/**
 * The same error with each detail's path rewritten by `pathOf`; a VALIDATION_ERROR with
 * details gets its message again, `<lead>: <first path>: ...`, so it names the new path.
 */
export function withDetailPaths(error: ServiceError, pathOf: (path: string) => string, lead: string): ServiceError {
  if (error.details.length === 0) return error
  const details = error.details.map((detail) => ({ path: pathOf(detail.path), message: detail.message }))
  const message = error.code === 'VALIDATION_ERROR' ? validationSummary(lead, details) : error.message
  return new ServiceError(error.code, message, details, error.retryAfterSeconds)
}

/**
 * Runs a use case on `field` of a larger input (the IPC `agents.update` passes its `changes`),
 * so a refusal names `field.x` rather than `x`.
 */
export async function underField<T>(field: string, useCase: () => Promise<T>): Promise<T> {
  try {
    return await useCase()
  } catch (error) {
    if (error instanceof ServiceError) throw withDetailPaths(error, (path) => joinPath(field, path), 'Invalid request')
    throw error
  }
}
