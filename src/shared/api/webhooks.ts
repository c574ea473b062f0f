import { z } from 'zod'
import { envelopeOf, TimestampSchema } from './common'

/** What a job's webhook says happened. */
export const WEBHOOK_EVENTS = ['job.completed', 'job.failed'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/** What an agent's webhook says happened during a call (`eventType` of the call envelope). */
export const CALL_EVENTS = ['call.started', 'call.answered', 'transcription.update', 'tool.executed', 'call.ended'] as const
export type CallEvent = (typeof CALL_EVENTS)[number]

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'EXHAUSTED'] as const

export const DeliveryIdSchema = z.string().regex(/^msg_[0-9a-f]{32}$/, 'Must be a delivery id (msg_ and 32 hex digits)')
export const DeliveryIdParamsSchema = z.object({ deliveryId: DeliveryIdSchema })

/** One try at sending a delivery, as the journal keeps it. */
export const WebhookAttemptSchema = z
  .object({
    attempt: z.number().int().min(1),
    startedAt: TimestampSchema,
    /** Null when no answer came: connection refused, timeout, reset. */
    statusCode: z.number().int().nullable(),
    latencyMs: z.number(),
    error: z.string().nullable(),
    /** The first KiB of the answer's body. */
    responseExcerpt: z.string().nullable(),
  })
  .meta({ id: 'WebhookAttempt' })
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>

/** A delivery without its secrets: the Authorization header is never shown. */
export const WebhookDeliverySchema = z
  .object({
    id: DeliveryIdSchema,
    event: z.string(),
    jobId: z.string().nullable(),
    url: z.string(),
    /** Whether an Authorization header is sent (its value is never shown). */
    hasAuthorization: z.boolean(),
    status: z.enum(DELIVERY_STATUSES),
    /** Attempts made in all, and since the last "send again". */
    attempts: z.number().int(),
    roundAttempts: z.number().int(),
    /** When the next attempt is due; null once delivered or exhausted. */
    nextAttemptAt: TimestampSchema.nullable(),
    /** True while an attempt is under way. */
    sending: z.boolean(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
    deliveredAt: TimestampSchema.nullable(),
  })
  .meta({ id: 'WebhookDelivery' })
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>

export const WebhookDeliveryDetailSchema = WebhookDeliverySchema.extend({
  /** The exact body every attempt sends. */
  payload: z.unknown(),
  attemptLog: z.array(WebhookAttemptSchema),
}).meta({ id: 'WebhookDeliveryDetail' })
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetailSchema>

export const ListDeliveriesQuerySchema = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
  jobId: z.string().min(1).max(200).optional(),
  take: z.coerce.number().int().min(1).max(100).default(20),
  /** The 1-based page, as everywhere in this API. */
  skip: z.coerce.number().int().min(1).max(1_000_000).default(1),
})
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuerySchema>

export const DeliveryListEnvelopeSchema = envelopeOf(
  z.object({ deliveries: z.array(WebhookDeliverySchema), total: z.number().int(), filtered: z.number().int() }),
)
export const DeliveryDetailEnvelopeSchema = envelopeOf(WebhookDeliveryDetailSchema)
export const DeliveryEnvelopeSchema = envelopeOf(WebhookDeliverySchema)
