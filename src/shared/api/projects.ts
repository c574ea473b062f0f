import { z } from 'zod'
import { TimestampSchema, UuidSchema, envelopeOf } from './common'
import { JOB_STATUSES, JOB_TYPES } from './jobs'

/** `GET /v1/projects/by-api-key`: the project the calling key belongs to. */
export const ProjectSchema = z
  .object({
    id: UuidSchema,
    name: z.string(),
    createdAt: TimestampSchema,
  })
  .meta({ id: 'Project' })
export type Project = z.infer<typeof ProjectSchema>
export const ProjectEnvelopeSchema = envelopeOf(ProjectSchema)

/**
 * Rolling windows that end now: the last 24 hours, 7 days, 30 days, or everything; or `custom`,
 * the window between the cloud API's `startPeriod` and `endPeriod`.
 */
export const STATISTICS_PERIODS = ['day', 'week', 'month', 'all', 'custom'] as const
export const StatisticsPeriodSchema = z.enum(STATISTICS_PERIODS)
export type StatisticsPeriod = z.infer<typeof StatisticsPeriodSchema>

/** An instant in a query: ISO 8601 with a time zone (`2026-01-31T00:00:00Z`, `…+02:00`) or a date alone (midnight UTC). */
const PeriodBoundSchema = z.union([z.iso.datetime({ offset: true }), z.iso.date()])

export const StatisticsNumbersQuerySchema = z
  .object({
    period: StatisticsPeriodSchema.optional().meta({
      description:
        'day (24 h), week (7 days), month (30 days), each ending now, or all; custom with startPeriod and endPeriod. Default month, or custom when the bounds are given.',
    }),
    startPeriod: PeriodBoundSchema.optional().meta({ description: 'Start of a custom window (included), with endPeriod.' }),
    endPeriod: PeriodBoundSchema.optional().meta({ description: 'End of a custom window (excluded), with startPeriod.' }),
    projectId: z.string().max(200).optional().meta({ description: "The key's project, as the cloud API sends it (another project: 403)." }),
  })
  .superRefine((query, context) => {
    const custom = query.startPeriod !== undefined || query.endPeriod !== undefined
    if (custom && query.period !== undefined && query.period !== 'custom') {
      context.addIssue({
        code: 'custom',
        path: ['period'],
        message: 'startPeriod and endPeriod make a custom period: leave period out or say custom',
      })
    }
    if (custom || query.period === 'custom') {
      for (const bound of ['startPeriod', 'endPeriod'] as const) {
        if (query[bound] === undefined) context.addIssue({ code: 'custom', path: [bound], message: 'Required for a custom period' })
      }
    }
    if (query.startPeriod !== undefined && query.endPeriod !== undefined && Date.parse(query.endPeriod) < Date.parse(query.startPeriod)) {
      context.addIssue({ code: 'custom', path: ['endPeriod'], message: 'Must not be before startPeriod' })
    }
  })
export type StatisticsNumbersQuery = z.infer<typeof StatisticsNumbersQuerySchema>

/** A figure in the cloud API's words: a value and its unit. */
const ReferenceFigureSchema = z.object({ value: z.number(), unit: z.string() })

const FiguresSchema = z.object({
  jobs: z.number().int().meta({ description: 'Jobs created in the period, whatever their status.' }),
  minutes: z.number().meta({ description: 'Minutes of media of the COMPLETED jobs, to the millisecond.' }),
  cost: z.number().meta({ description: 'Credits of the COMPLETED jobs.' }),
})

export const StatisticsNumbersSchema = z
  .object({
    period: StatisticsPeriodSchema,
    from: TimestampSchema.nullable().meta({ description: 'Start of the window; null for all.' }),
    to: TimestampSchema,
    ...FiguresSchema.shape,
    conversations: z
      .number()
      .int()
      .meta({ description: 'Conversations started in the period (0 until this VoiceDesk holds conversations).' }),
    jobsByStatus: z.object(
      Object.fromEntries(JOB_STATUSES.map((status) => [status, z.number().int()])) as Record<(typeof JOB_STATUSES)[number], z.ZodNumber>,
    ),
    byType: z.object(
      Object.fromEntries(JOB_TYPES.map((type) => [type, FiguresSchema])) as Record<(typeof JOB_TYPES)[number], typeof FiguresSchema>,
    ),
    transcription: ReferenceFigureSchema.meta({
      description: "The cloud API's figure: minutes of COMPLETED transcriptions (unit `minutes`).",
    }),
    price: ReferenceFigureSchema.meta({
      description: "The cloud API's figure: the credits of COMPLETED jobs, calls included (unit `credits`).",
    }),
    requests: z
      .object({ value: z.string(), unit: z.string() })
      .meta({ description: "The cloud API's figure: jobs and calls created, as text (unit `requests`)." }),
  })
  .meta({ id: 'StatisticsNumbers' })
export type StatisticsNumbers = z.infer<typeof StatisticsNumbersSchema>
export const StatisticsNumbersEnvelopeSchema = envelopeOf(StatisticsNumbersSchema)
