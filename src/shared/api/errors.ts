import { z } from 'zod'

/** Every error code the service answers with, and the HTTP status it always travels with. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** The request's headers did not all arrive in time (a stalled or very slow client). */
  REQUEST_TIMEOUT: 408,
  /** The Host header names no address this service answers for (DNS rebinding). */
  MISDIRECTED_REQUEST: 421,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  /** The database is busy (another process holds the write lock); comes with Retry-After. */
  UNAVAILABLE: 503,
  /** The data folder's disk is full; reads still work, writes resume once space is freed. */
  INSUFFICIENT_STORAGE: 507,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

export const ErrorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]])

export const ErrorDetailSchema = z.object({
  /** Where the problem is, as `body.lang`, `query.pid` or `params.voiceAgentId`. */
  path: z.string(),
  message: z.string(),
})
export type ErrorDetail = z.infer<typeof ErrorDetailSchema>

export const ErrorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    message: z.string(),
    error: z.object({
      code: ErrorCodeSchema,
      details: z.array(ErrorDetailSchema),
    }),
  })
  .meta({ id: 'ErrorEnvelope' })
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>

export function errorEnvelope(code: ErrorCode, message: string, details: ErrorDetail[] = []): ErrorEnvelope {
  return { success: false, message, error: { code, details } }
}
