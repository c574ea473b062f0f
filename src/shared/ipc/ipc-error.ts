import { z } from 'zod'
import { ErrorEnvelopeSchema } from '../api/errors'

/** The error of a refused operation: the /v1 envelope's `error` with its message. */
export const IpcErrorSchema = z.object({
  code: ErrorEnvelopeSchema.shape.error.shape.code,
  message: z.string(),
  details: ErrorEnvelopeSchema.shape.error.shape.details,
})
export type IpcError = z.infer<typeof IpcErrorSchema>
