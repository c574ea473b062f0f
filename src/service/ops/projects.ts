import { JOB_STATUSES, JOB_TYPES } from '../../shared/api/jobs'
import type { Project, StatisticsNumbers, StatisticsNumbersQuery, StatisticsPeriod } from '../../shared/api/projects'
import { type Caller, type OpsContext } from './ops-context'
import { ServiceError } from './service-error'

const DAY_MS = 24 * 60 * 60 * 1000
const PERIOD_MS: Record<Exclude<StatisticsPeriod, 'all' | 'custom'>, number> = { day: DAY_MS, week: 7 * DAY_MS, month: 30 * DAY_MS }

/** Conversations are jobs, but the console counts them apart: in `conversations` and byType.CONVERSATION only. */
const CONVERSATION_TYPE = 'CONVERSATION'

/** `GET /v1/projects/by-api-key`: the calling key's project. */
export async function getCallerProject(context: OpsContext, caller: Caller): Promise<Project> {
  const project = await context.store.accounts.findProject(caller.projectId)
  // A key outlives nothing: its project exists while it does. Say so rather than answer a 500.
  if (!project) throw new ServiceError('NOT_FOUND', 'The project of this key no longer exists')
  return { id: project.id, name: project.name, createdAt: project.createdAt }
}

/** Media seconds as minutes, to the millisecond (sums of floats would show 0.30000000000000004). */
function minutesOf(seconds: number): number {
  return Math.round((seconds / 60) * 1000) / 1000
}

/** The window a statistics query names: [from, to), from null for all. */
function windowOf(query: StatisticsNumbersQuery, now: Date): { period: StatisticsPeriod; from: string | null; to: string } {
  if (query.startPeriod !== undefined && query.endPeriod !== undefined) {
    return { period: 'custom', from: new Date(query.startPeriod).toISOString(), to: new Date(query.endPeriod).toISOString() }
  }
  const period = query.period ?? 'month'
  if (period === 'all' || period === 'custom') return { period: 'all', from: null, to: now.toISOString() }
  return { period, from: new Date(now.getTime() - PERIOD_MS[period]).toISOString(), to: now.toISOString() }
}

/**
 * `GET /v1/projects/statistics/numbers?period=` (or `?startPeriod=&endPeriod=`): what the cloud
 * console's counters show, for a rolling window ending now or a custom one. Jobs count whatever
 * their status; minutes and credits count only COMPLETED jobs (work that was done).
 */
export async function statisticsNumbers(context: OpsContext, caller: Caller, query: StatisticsNumbersQuery): Promise<StatisticsNumbers> {
  if (query.projectId !== undefined && query.projectId !== caller.projectId) {
    throw new ServiceError('FORBIDDEN', 'This key belongs to another project', [{ path: 'projectId', message: 'Not the key’s project' }])
  }
  const now = context.now()
  const { period, from, to } = windowOf(query, now)
  // A rolling window ends now: jobs stamped after the read began (a clock a millisecond ahead) still count.
  const rows = await context.store.jobs.statistics(caller.projectId, from ?? '', period === 'custom' ? to : undefined)
  const empty = () => ({ jobs: 0, seconds: 0, cost: 0 })
  const byType = Object.fromEntries(JOB_TYPES.map((type) => [type, empty()])) as Record<
    (typeof JOB_TYPES)[number],
    ReturnType<typeof empty>
  >
  const jobsByStatus = Object.fromEntries(JOB_STATUSES.map((status) => [status, 0])) as Record<(typeof JOB_STATUSES)[number], number>
  const all = empty()
  let conversations = 0
  for (const row of rows) {
    if (row.type === CONVERSATION_TYPE) {
      conversations += row.jobs
      const calls = byType.CONVERSATION
      calls.jobs += row.jobs
      if (row.status === 'COMPLETED') {
        calls.seconds += row.seconds
        calls.cost += row.cost
      }
      continue
    }
    const figures = byType[row.type as (typeof JOB_TYPES)[number]]
    if (!figures) continue
    figures.jobs += row.jobs
    if (row.status in jobsByStatus) jobsByStatus[row.status as (typeof JOB_STATUSES)[number]] += row.jobs
    all.jobs += row.jobs
    if (row.status === 'COMPLETED') {
      figures.seconds += row.seconds
      figures.cost += row.cost
      all.seconds += row.seconds
      all.cost += row.cost
    }
  }
  const shown = (figures: ReturnType<typeof empty>) => ({ jobs: figures.jobs, minutes: minutesOf(figures.seconds), cost: figures.cost })
  const calls = byType.CONVERSATION
  return {
    period,
    from,
    to,
    ...shown(all),
    conversations,
    jobsByStatus,
    byType: Object.fromEntries(JOB_TYPES.map((type) => [type, shown(byType[type])])) as StatisticsNumbers['byType'],
    transcription: { value: minutesOf(byType.TRANSCRIPTION.seconds), unit: 'minutes' },
    price: { value: all.cost + calls.cost, unit: 'credits' },
    requests: { value: String(all.jobs + conversations), unit: 'requests' },
  }
}
