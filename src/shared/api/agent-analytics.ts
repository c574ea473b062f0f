import { z } from 'zod'
import { envelopeOf, TimestampSchema, UuidSchema } from './common'
import { END_REASONS } from './conversations'

/*
 * The cloud API's agent analytics (`/v1/agent-analytics/*`) and the project chart
 * (`/v1/projects/statistics/chart`), computed from this project's calls and jobs
 * (docs/api.md, "Agent analytics").
 */

export const ANALYTICS_PERIODS = ['LAST_HOUR', 'TODAY', 'YESTERDAY', 'THIS_WEEK', 'THIS_MONTH', 'CUSTOM'] as const
export const AnalyticsPeriodSchema = z.enum(ANALYTICS_PERIODS)
export type AnalyticsPeriod = z.infer<typeof AnalyticsPeriodSchema>

/** The longest CUSTOM range, in days. */
export const MAX_ANALYTICS_DAYS = 400

const EpochMsSchema = z
  .string()
  .regex(/^\d{1,15}$/, 'Must be a time in milliseconds since 1970 (digits only)')
  .meta({ description: 'Milliseconds since 1970, as a string.', example: '1737590399000' })

/** Hours, as JavaScript's `getTimezoneOffset() / 60`: -3 for UTC+3. */
const TimeDifferenceSchema = z
  .string()
  // The bound is in the pattern, so the OpenAPI document states it (a refine would not show there).
  .regex(/^[+-]?(?:(?:0?\d|1[0-3])(?:\.\d{1,2})?|14(?:\.0{1,2})?)$/, 'Must be a number of hours between -14 and 14, e.g. -3 or 5.5')
  .default('0')
  .meta({ description: 'Hours between UTC and local time, as getTimezoneOffset() / 60 (-3 for UTC+3). Default 0.' })

const RangeFields = {
  period: AnalyticsPeriodSchema.default('TODAY').meta({ description: 'Default TODAY. CUSTOM needs startPeriod and endPeriod.' }),
  startPeriod: EpochMsSchema.optional(),
  endPeriod: EpochMsSchema.optional(),
  timeDifference: TimeDifferenceSchema,
}

function checkCustomRange(query: { period: AnalyticsPeriod; startPeriod?: string; endPeriod?: string }, context: z.RefinementCtx): void {
  if (query.period !== 'CUSTOM') return
  if (query.startPeriod === undefined || query.endPeriod === undefined) {
    context.addIssue({
      code: 'custom',
      path: [query.startPeriod === undefined ? 'startPeriod' : 'endPeriod'],
      message: 'CUSTOM needs startPeriod and endPeriod',
    })
    return
  }
  const start = Number(query.startPeriod)
  const end = Number(query.endPeriod)
  if (end < start) context.addIssue({ code: 'custom', path: ['endPeriod'], message: 'Must not be before startPeriod' })
  else if (end - start > MAX_ANALYTICS_DAYS * 86_400_000)
    context.addIssue({ code: 'custom', path: ['endPeriod'], message: `A range is at most ${MAX_ANALYTICS_DAYS} days` })
  else if (end > 8_640_000_000_000_000)
    context.addIssue({ code: 'custom', path: ['endPeriod'], message: 'Must be a date JavaScript can hold' })
}

export const AnalyticsQuerySchema = z
  .object({
    voiceAgentId: UuidSchema.optional().meta({ description: 'One agent; all of the project when left out.' }),
    ...RangeFields,
  })
  .superRefine(checkCustomRange)
export type AnalyticsQuery = z.infer<typeof AnalyticsQuerySchema>

/** The operator UI's input of the same figures (`analytics.summary`): a strict object (an unknown field is refused). */
export const AnalyticsInputSchema = z
  .object({ voiceAgentId: UuidSchema.optional(), ...RangeFields })
  .strict()
  .superRefine(checkCustomRange)

export const ConversationExportQuerySchema = z
  .object({
    voiceAgentId: UuidSchema,
    status: z.enum(['COMPLETED', 'PENDING', 'FAILED', 'IN_PROGRESS', 'NO_ANSWER']).optional(),
    ...RangeFields,
  })
  .superRefine(checkCustomRange)
export type ConversationExportQuery = z.infer<typeof ConversationExportQuerySchema>

const TimeBucketSchema = z.object({
  timeBucket: z.string().meta({ description: "Local start of the hour or day, 'YYYY-MM-DD HH:00:00'." }),
  count: z.string().meta({ description: 'Calls, as a string (as the cloud API writes it).' }),
})

export const OverviewAnalyticsSchema = z.object({
  liveSessionsNumber: z.number().int().meta({ description: 'Calls of the range still IN_PROGRESS.' }),
  totalSessionsNumber: z.number().int(),
  averageSessionDuration: z.number().meta({ description: 'Seconds, over the calls that started.' }),
  averageMessagesPerSession: z.number().meta({ description: 'Transcript turns per call.' }),
  totalSessionDuration: z.number().meta({ description: 'Seconds.' }),
  averageWordsPerAiResponse: z.number().nullable().meta({ description: 'Always null: VoiceDesk keeps no word counts per turn.' }),
  forwardToHumanAgent: z.number().int().meta({ description: 'Always 0: VoiceDesk calls cannot be forwarded to a person.' }),
  callsOverTime: z.array(TimeBucketSchema),
  callsByDurationBuckets: z.object({
    shortDurationBucketCalls: z.number().int().meta({ description: 'Under 60 seconds.' }),
    mediumDurationBucketCalls: z.number().int().meta({ description: '60 seconds to 5 minutes.' }),
    longDurationBucketCalls: z.number().int().meta({ description: 'Over 5 minutes.' }),
  }),
})
export type OverviewAnalytics = z.infer<typeof OverviewAnalyticsSchema>
export const OverviewAnalyticsEnvelopeSchema = envelopeOf(OverviewAnalyticsSchema)

export const SatisfactionAnalyticsSchema = z.object({
  npsScore: z.number().nullable().meta({ description: 'From a 0-10 rating field of the outcome; null without one.' }),
  sentimentDistribution: z
    .object({ positive: z.number(), neutral: z.number(), negative: z.number() })
    .nullable()
    .meta({ description: 'Always null: VoiceDesk has no sentiment model.' }),
  csatScore: z.number().nullable().meta({ description: 'Percent of rated calls rated in the top two points of their scale.' }),
  firstCallResolutionPercentage: z
    .number()
    .nullable()
    .meta({ description: 'Percent of ended calls with a shape whose outcome came complete; null without such calls.' }),
  escalationRate: z.number().nullable().meta({ description: '0 (no call can be forwarded); null without calls.' }),
  ratedCalls: z.number().int().meta({ description: 'Calls whose outcome gave a rating (beyond the cloud API).' }),
  averageRating: z.number().nullable().meta({ description: 'Mean rating, on its own scale (beyond the cloud API).' }),
  ratingFields: z
    .array(z.object({ voiceAgentId: UuidSchema, field: z.string(), scale: z.number() }))
    .meta({ description: 'The outcome fields read as ratings, per agent, with the top of their scale (beyond the cloud API).' }),
})
export type SatisfactionAnalytics = z.infer<typeof SatisfactionAnalyticsSchema>
export const SatisfactionAnalyticsEnvelopeSchema = envelopeOf(SatisfactionAnalyticsSchema)

const CountsSchema = z.object({ total: z.number(), perCall: z.number().nullable() })

export const CallAnalyticsSchema = z.object({
  from: TimestampSchema,
  to: TimestampSchema,
  bucket: z.enum(['hour', 'day']),
  calls: z.number().int(),
  byTime: z.array(
    z.object({
      timeBucket: z.string(),
      calls: z.number().int(),
      completed: z.number().int(),
      failed: z.number().int(),
      seconds: z.number(),
    }),
  ),
  byStatus: z.record(z.string(), z.number().int()),
  byEndReason: z.object(Object.fromEntries([...END_REASONS, 'none'].map((reason) => [reason, z.number().int()]))),
  duration: z.object({ total: z.number(), average: z.number().nullable(), timedCalls: z.number().int() }),
  interruptions: CountsSchema,
  pokes: CountsSchema,
  toolCalls: CountsSchema,
  latency: z.object({
    answers: z.number().int().meta({ description: 'Agent answers that followed a caller turn.' }),
    averageMs: z.number().nullable().meta({ description: "Mean time from the end of the caller's turn to the answer's start." }),
  }),
  outcome: z.object({
    complete: z.number().int(),
    partial: z.number().int(),
    fields: z
      .array(z.object({ field: z.string(), filled: z.number().int(), rate: z.number().nullable() }))
      .nullable()
      .meta({ description: "Per top-level field of the agent's outcome shape; null for the whole project or an agent without a shape." }),
  }),
})
export type CallAnalytics = z.infer<typeof CallAnalyticsSchema>
export const CallAnalyticsEnvelopeSchema = envelopeOf(CallAnalyticsSchema)

export const StatisticsChartQuerySchema = z
  .object({
    startPeriod: EpochMsSchema,
    endPeriod: EpochMsSchema,
    projectId: z.string().max(100).optional().meta({ description: "The caller's project (any other is a 404)." }),
    timeDifference: TimeDifferenceSchema,
  })
  .superRefine((query, context) => checkCustomRange({ period: 'CUSTOM', ...query }, context))
export type StatisticsChartQuery = z.infer<typeof StatisticsChartQuerySchema>

const ChartPointSchema = z.object({ date: TimestampSchema, value: z.number(), unit: z.string() })
export const StatisticsChartSchema = z.object({
  cost: z.array(ChartPointSchema),
  requests: z.array(ChartPointSchema),
  transcription: z.array(ChartPointSchema),
  tokens: z.array(ChartPointSchema).meta({ description: 'Always empty: VoiceDesk counts no tokens.' }),
})
export type StatisticsChart = z.infer<typeof StatisticsChartSchema>
export const StatisticsChartEnvelopeSchema = envelopeOf(StatisticsChartSchema)
