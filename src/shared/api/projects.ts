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

/** Rolling windows that end now: the last 24 hours, 7 days, 30 days, or everything. */
export const STATISTICS_PERIODS = ['day', 'week', 'month', 'all'] as const
export const StatisticsPeriodSchema = z.enum(STATISTICS_PERIODS)
export type StatisticsPeriod = z.infer<typeof StatisticsPeriodSchema>

export const StatisticsNumbersQuerySchema = z.object({
  period: StatisticsPeriodSchema.default('month').meta({
    description: 'day (24 h), week (7 days), month (30 days), each ending now, or all. Default month.',
  }),
})
export type StatisticsNumbersQuery = z.infer<typeof StatisticsNumbersQuerySchema>

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
  })
  .meta({ id: 'StatisticsNumbers' })
export type StatisticsNumbers = z.infer<typeof StatisticsNumbersSchema>
export const StatisticsNumbersEnvelopeSchema = envelopeOf(StatisticsNumbersSchema)
