import { ErrorEnvelopeSchema } from '../../shared/api/errors'

/** Error answers a route documents, besides the 401 every /v1 route may give. */
export function errorResponses(...statuses: (400 | 403 | 404 | 409 | 413 | 415 | 503)[]) {
  const responses: Record<number, typeof ErrorEnvelopeSchema> = { 401: ErrorEnvelopeSchema }
  for (const status of statuses) responses[status] = ErrorEnvelopeSchema
  return responses
}

/** Write routes also answer malformed, oversized and non-JSON bodies. */
export const BODY_ERRORS = [400, 413, 415] as const

export const SECURITY = [{ apiKeyToken: [] }]
