import { z } from 'zod'
import { TimestampSchema } from './common'
import { JobErrorCodeSchema } from './job-error-codes'
import { JobTypeSchema } from './jobs'

/** Methods a rule may match (a WebSocket session starts as a GET). */
export const FAULT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const

/** The longest delay a rule may add (one minute): longer only ever looks like a hung service. */
export const MAX_FAULT_DELAY_MS = 60_000
/** The longest `expiresInSeconds` (30 days). */
export const MAX_FAULT_LIFETIME_SECONDS = 30 * 24 * 3600
/** Active rules a project may hold: a test needs a handful; thousands only slow every request of the project. */
export const MAX_FAULT_RULES_PER_PROJECT = 200

/** Error codes a rule names: upper snake case, as the contract's own (`UNAVAILABLE`, `TTS_ENGINE_FAILED`). */
const UpperSnakeCode = z
  .string()
  .max(64)
  .regex(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/, 'Must be an UPPER_SNAKE_CASE code, such as UNAVAILABLE')

const delayMs = z.number().min(0).max(MAX_FAULT_DELAY_MS)

/** A fixed delay, a uniform range, or a normal distribution (drawn per request, kept within 0 to 60,000 ms). */
export const FaultDelaySchema = z.union([
  delayMs,
  z
    .object({ min: delayMs, max: delayMs })
    .strict()
    .refine((range) => range.min <= range.max, { message: 'min must not be more than max', path: ['max'] }),
  z.object({ mean: delayMs, stddev: delayMs }).strict(),
])
export type FaultDelay = z.infer<typeof FaultDelaySchema>

export const FaultMatchSchema = z
  .object({
    /** Requests with this method (any case; stored upper case). */
    method: z
      .string()
      .transform((value) => value.toUpperCase())
      .pipe(z.enum(FAULT_METHODS))
      .optional(),
    /** A path glob: `*` is one segment (or part of one), `**` any number of segments; the query is not part of the path. */
    path: z.string().startsWith('/', 'Must start with /, such as /v1/voice-agents/*').max(500).optional(),
    /** Jobs (and their webhooks) of this type. */
    jobType: JobTypeSchema.optional(),
    /** Jobs and webhooks of this voice agent, and requests whose path has this id as a segment. */
    agentId: z.string().min(1).max(200).optional(),
  })
  .strict()
export type FaultMatch = z.infer<typeof FaultMatchSchema>

const FaultEffects = {
  /** Added before the request is handled. */
  delayMs: FaultDelaySchema.optional(),
  /** Answered instead of the route, in the contract's error envelope. */
  respond: z
    .object({
      status: z.number().int().min(400).max(599),
      /** Left out: the contract's code for the status (503 UNAVAILABLE), else the status's name (429 TOO_MANY_REQUESTS). */
      code: UpperSnakeCode.optional(),
      /** Left out: "Injected fault flt_…: <status name>". */
      message: z.string().min(1).max(500).optional(),
    })
    .strict()
    .optional(),
  /** The socket is destroyed without an answer. */
  dropConnection: z.boolean().optional(),
  /**
   * Matching jobs end FAILED with this code and message when the runner picks them up (no engine
   * runs). The code is one of the contract's JobErrorCode list: a job's `error.code` is that enum
   * in /v1's OpenAPI document and in webhooks, so a client never meets a code it cannot know.
   */
  failJob: z
    .object({ code: JobErrorCodeSchema, message: z.string().min(1).max(500) })
    .strict()
    .optional(),
  /** Matching webhook attempts fail without being sent; `{ status }` records the attempt as that answer. */
  failWebhook: z.union([z.boolean(), z.object({ status: z.number().int().min(400).max(599).optional() }).strict()]).optional(),
}

/** The body of `POST /_voicedesk/faults` and the `faults.add` operation. */
export const FaultRuleInputSchema = z
  .object({
    match: FaultMatchSchema.default({}),
    ...FaultEffects,
    /** The share of matching requests, jobs or attempts the rule applies to (default 1: all). */
    rate: z.number().min(0).max(1).default(1),
    /** When the rule stops applying (ISO 8601). */
    expiresAt: z.iso.datetime({ offset: true }).optional(),
    /** Or: seconds from now. */
    expiresInSeconds: z.number().int().min(1).max(MAX_FAULT_LIFETIME_SECONDS).optional(),
    /** Why the rule is there, for whoever sees it in the list. */
    note: z.string().max(200).optional(),
  })
  .strict()
  .superRefine((rule, context) => {
    const http = rule.delayMs !== undefined || rule.respond !== undefined || rule.dropConnection === true
    const work = rule.failJob !== undefined || (rule.failWebhook !== undefined && rule.failWebhook !== false)
    if (!http && !work) {
      context.addIssue({
        code: 'custom',
        path: [],
        message: 'A rule needs at least one effect: delayMs, respond, dropConnection, failJob or failWebhook',
      })
    }
    if (rule.respond && rule.dropConnection) {
      context.addIssue({
        code: 'custom',
        path: ['dropConnection'],
        message: 'A dropped connection sends no answer: give respond or dropConnection, not both',
      })
    }
    if (rule.expiresAt !== undefined && rule.expiresInSeconds !== undefined) {
      context.addIssue({ code: 'custom', path: ['expiresInSeconds'], message: 'Give expiresAt or expiresInSeconds, not both' })
    }
    // Each effect looks at the criteria of its kind: refused rather than silently ignored.
    if (work && (rule.match.method !== undefined || rule.match.path !== undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['match', rule.match.path !== undefined ? 'path' : 'method'],
        message: 'failJob and failWebhook match jobs by jobType and agentId, not requests: make a separate rule for requests',
      })
    }
    if (http && rule.match.jobType !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['match', 'jobType'],
        message: 'Requests are matched by method, path and agentId; jobType applies to failJob and failWebhook only',
      })
    }
  })
export type FaultRuleInput = z.input<typeof FaultRuleInputSchema>
export type FaultRule = z.output<typeof FaultRuleInputSchema>

/** A rule as answered: its id, when it was made, how often it applied, and what was asked (`expiresInSeconds` turned into `expiresAt`). */
export const FaultSchema = z.object({
  id: z.string().regex(/^flt_[A-Za-z0-9]+$/),
  createdAt: TimestampSchema,
  hits: z.number().int().min(0),
  match: z.object({
    method: z.enum(FAULT_METHODS).optional(),
    path: z.string().optional(),
    jobType: JobTypeSchema.optional(),
    agentId: z.string().optional(),
  }),
  delayMs: z
    .union([z.number(), z.object({ min: z.number(), max: z.number() }), z.object({ mean: z.number(), stddev: z.number() })])
    .optional(),
  respond: z.object({ status: z.number().int(), code: z.string().optional(), message: z.string().optional() }).optional(),
  dropConnection: z.boolean().optional(),
  failJob: z.object({ code: JobErrorCodeSchema, message: z.string() }).optional(),
  failWebhook: z.union([z.boolean(), z.object({ status: z.number().int().optional() })]).optional(),
  rate: z.number(),
  expiresAt: TimestampSchema.nullable(),
  note: z.string().optional(),
})
export type Fault = z.infer<typeof FaultSchema>

export const FaultIdParamsSchema = z.object({ id: z.string().min(1).max(100) })
