import { z } from 'zod'
import { envelopeOf, TimestampSchema, UuidSchema } from './common'
import { JOB_STATUSES } from './jobs'

/*
 * `GET /v1/voice-agents/conversations/minimal-list`: the cloud API's light list of calls, read
 * from VoiceDesk's conversations (jobs of type CONVERSATION).
 */

/**
 * The statuses the cloud's call list filters on. VoiceDesk's calls only ever hold the job
 * statuses; NO_ANSWER, FORWARDED and TERMINATED are accepted (a client copied from the cloud's
 * docs sends them) and match no call here.
 */
export const CALL_LIST_STATUSES = [...JOB_STATUSES, 'NO_ANSWER', 'FORWARDED', 'TERMINATED'] as const
const CallListStatusSchema = z.enum(CALL_LIST_STATUSES)

/** Epoch milliseconds in the query, as text; from 1970 to the year 9999 (what an ISO timestamp can write). */
const EpochMillisSchema = z.coerce.number().int().min(0).max(253_402_300_799_999)

export const MinimalCallListQuerySchema = z
  .object({
    voiceAgentId: UuidSchema.optional().meta({ description: "Only this agent's calls (an agent of another project: 404)." }),
    status: z
      .union([CallListStatusSchema, z.array(CallListStatusSchema).max(CALL_LIST_STATUSES.length)])
      .optional()
      .transform((value) => (value === undefined ? undefined : Array.isArray(value) ? value : [value]))
      .meta({ description: 'One status, or several by repeating the parameter (`?status=COMPLETED&status=FAILED`).' }),
    startTime: EpochMillisSchema.optional().meta({ description: 'Calls created at or after this time (UTC epoch milliseconds).' }),
    endTime: EpochMillisSchema.optional().meta({ description: 'Calls created at or before this time (UTC epoch milliseconds).' }),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1).meta({ description: '1-based page number.' }),
    perPage: z.coerce.number().int().min(1).max(200).default(100).meta({ description: 'Calls per page, 1 to 200.' }),
  })
  .refine((query) => query.startTime === undefined || query.endTime === undefined || query.endTime >= query.startTime, {
    message: 'Must not be before startTime',
    path: ['endTime'],
  })
export type MinimalCallListQuery = z.infer<typeof MinimalCallListQuerySchema>

export const MinimalCallSchema = z
  .object({
    id: UuidSchema,
    createdAt: TimestampSchema,
    status: z.enum(JOB_STATUSES),
    voiceAgentId: UuidSchema.nullable(),
    agentName: z.string().nullable(),
    duration: z.number().meta({ description: 'Seconds the call lasted (so far, while it runs); 0 before it starts.' }),
    channelType: z
      .enum(['Web', 'Telephone'])
      .meta({ description: 'How the caller reached the agent: `Web` (the web SDK, the test call) or `Telephone` (the SIP line).' }),
    callParams: z
      .record(z.string(), z.string())
      .meta({ description: "The call's placeholder values (the agent's params, overridden by conversation-init's)." }),
  })
  .meta({ id: 'MinimalCall' })
export type MinimalCall = z.infer<typeof MinimalCallSchema>

export const MinimalCallListEnvelopeSchema = envelopeOf(
  z.object({ total: z.number().int(), filtered: z.number().int(), calls: z.array(MinimalCallSchema) }),
)
export type MinimalCallList = z.infer<typeof MinimalCallListEnvelopeSchema>['data']
