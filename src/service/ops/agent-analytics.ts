import type {
  AnalyticsQuery,
  CallAnalytics,
  ConversationExportQuery,
  OverviewAnalytics,
  SatisfactionAnalytics,
  StatisticsChart,
  StatisticsChartQuery,
} from '../../shared/api/agent-analytics'
import { END_REASONS } from '../../shared/api/conversations'
import { toCsv } from '../../shared/csv'
import { RATING_FIELD_NAME } from '../../store/analytics-slots'
import type { ConversationFactsRow, VoiceAgentRecord } from '../../store/records'
import { type AnalyticsRange, analyticsRange, bucketLabels } from './agent-analytics-range'
import type { Caller, OpsContext } from './ops-context'
import { notFound } from './service-error'

/** How many calls one export holds at most (the oldest first). */
export const EXPORT_LIMIT = 100_000

/** Names of outcome fields read as a satisfaction rating (when their type is number or integer): the ones the store's rollup counts by value. */
const RATING_NAME = RATING_FIELD_NAME

interface Scope {
  agent: VoiceAgentRecord | undefined
  range: AnalyticsRange
  from: string
  to: string
  rows: ConversationFactsRow[]
}

async function scopeOf(context: OpsContext, caller: Caller, query: AnalyticsQuery): Promise<Scope> {
  const agent =
    query.voiceAgentId === undefined ? undefined : await context.store.voiceAgents.findInProject(query.voiceAgentId, caller.projectId)
  if (query.voiceAgentId !== undefined && !agent) throw notFound('voice agent', query.voiceAgentId)
  const range = analyticsRange(context.now(), query)
  const from = new Date(range.from).toISOString()
  const to = new Date(range.to).toISOString()
  const rows = await context.store.analytics.conversationFacts(caller.projectId, {
    ...(query.voiceAgentId === undefined ? {} : { voiceAgentId: query.voiceAgentId }),
    from,
    to,
    quarterHours: range.offsetMinutes % 60 !== 0,
    // UTC hours (or quarter hours) gathered into the range's local hours or days.
    local: { offsetMinutes: range.offsetMinutes, bucket: range.bucket },
  })
  return { agent, range, from, to, rows }
}

function sum(rows: readonly ConversationFactsRow[], field: keyof ConversationFactsRow): number {
  let total = 0
  for (const row of rows) total += Number(row[field] ?? 0)
  return total
}

/** Two decimals: figures read as people read them, never 0.30000000000000004. */
function round2(value: number): number {
  return Math.round(value * 100) / 100
}

function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : round2(part / whole)
}

/** Calls per bucket, every bucket of the range included (0 where none). */
function perBucket(scope: Scope): Map<string, ConversationFactsRow[]> {
  const buckets = new Map<string, ConversationFactsRow[]>(bucketLabels(scope.range).map((label) => [label, []]))
  for (const row of scope.rows) {
    const bucket = buckets.get(row.bucket)
    if (bucket) bucket.push(row)
    else buckets.set(row.bucket, [row])
  }
  return buckets
}

/** `GET /v1/agent-analytics/overview`. */
export async function overviewAnalytics(context: OpsContext, caller: Caller, query: AnalyticsQuery): Promise<OverviewAnalytics> {
  const scope = await scopeOf(context, caller, query)
  const { rows } = scope
  const calls = sum(rows, 'calls')
  const timed = sum(rows, 'timedCalls')
  const seconds = sum(rows, 'seconds')
  return {
    liveSessionsNumber: sum(
      rows.filter((row) => row.status === 'IN_PROGRESS'),
      'calls',
    ),
    totalSessionsNumber: calls,
    averageSessionDuration: timed === 0 ? 0 : round2(seconds / timed),
    averageMessagesPerSession: calls === 0 ? 0 : round2(sum(rows, 'turns') / calls),
    totalSessionDuration: round2(seconds),
    averageWordsPerAiResponse: null,
    forwardToHumanAgent: 0,
    callsOverTime: [...perBucket(scope)].map(([timeBucket, group]) => ({ timeBucket, count: String(sum(group, 'calls')) })),
    callsByDurationBuckets: {
      shortDurationBucketCalls: sum(rows, 'shortCalls'),
      mediumDurationBucketCalls: sum(rows, 'mediumCalls'),
      longDurationBucketCalls: sum(rows, 'longCalls'),
    },
  }
}

/** Top-level fields of an outcome shape (an object shape's `properties`). */
function shapeFields(agent: VoiceAgentRecord): [string, Record<string, unknown>][] {
  const properties = agent.outcomeResponseShape?.properties
  if (!properties || typeof properties !== 'object') return []
  return Object.entries(properties as Record<string, Record<string, unknown>>)
}

/** The agent's rating field: a number or integer field named like a rating, and the top of its scale when its enum says it. */
function ratingFieldOf(agent: VoiceAgentRecord): { field: string; enumTop: number | undefined } | undefined {
  for (const [field, node] of shapeFields(agent)) {
    if ((node.type === 'number' || node.type === 'integer') && RATING_NAME.test(field)) {
      const values = Array.isArray(node.enum) ? node.enum.filter((value): value is number => typeof value === 'number') : []
      return { field, enumTop: values.length > 0 ? Math.max(...values) : undefined }
    }
  }
  return undefined
}

/** `GET /v1/agent-analytics/satisfaction`. */
export async function satisfactionAnalytics(context: OpsContext, caller: Caller, query: AnalyticsQuery): Promise<SatisfactionAnalytics> {
  const scope = await scopeOf(context, caller, query)
  const agents = scope.agent ? [scope.agent] : (await context.store.voiceAgents.list(caller.projectId, {}, 10_000, 0)).records
  const ratingFields: SatisfactionAnalytics['ratingFields'] = []
  let rated = 0
  let ratingSum = 0
  let topTwo = 0
  let promoters = 0
  let detractors = 0
  let npsRated = 0
  for (const agent of agents) {
    const rating = ratingFieldOf(agent)
    if (!rating) continue
    const values = await context.store.analytics.ratingValues(caller.projectId, agent.id, rating.field, scope.from, scope.to)
    if (values.length === 0 && rating.enumTop === undefined) continue
    // Without an enum, the scale is 5 when no call rated above 5, else 10.
    const scale = rating.enumTop ?? (Math.max(0, ...values.map((entry) => entry.value)) <= 5 ? 5 : 10)
    ratingFields.push({ voiceAgentId: agent.id, field: rating.field, scale })
    for (const { value, calls } of values) {
      rated += calls
      ratingSum += value * calls
      if (value >= scale - 1) topTwo += calls
      if (scale === 10) {
        npsRated += calls
        if (value >= 9) promoters += calls
        else if (value <= 6) detractors += calls
      }
    }
  }
  const calls = sum(scope.rows, 'calls')
  const complete = sum(scope.rows, 'outcomeComplete')
  const judged = complete + sum(scope.rows, 'outcomePartial')
  const percent = (part: number, whole: number) => (whole === 0 ? null : round2((part / whole) * 100))
  return {
    npsScore: npsRated === 0 ? null : round2(((promoters - detractors) / npsRated) * 100),
    sentimentDistribution: null,
    csatScore: percent(topTwo, rated),
    firstCallResolutionPercentage: percent(complete, judged),
    escalationRate: calls === 0 ? null : 0,
    ratedCalls: rated,
    averageRating: rated === 0 ? null : round2(ratingSum / rated),
    ratingFields,
  }
}

/** `GET /v1/agent-analytics/calls` (beyond the cloud API): what the calls kept, counted. */
export async function callAnalytics(context: OpsContext, caller: Caller, query: AnalyticsQuery): Promise<CallAnalytics> {
  const scope = await scopeOf(context, caller, query)
  const { rows } = scope
  const calls = sum(rows, 'calls')
  const byStatus: Record<string, number> = {}
  const byEndReason = Object.fromEntries([...END_REASONS, 'none'].map((reason) => [reason, 0]))
  for (const row of rows) {
    byStatus[row.status] = (byStatus[row.status] ?? 0) + row.calls
    const reason = row.endReason !== null && row.endReason in byEndReason ? row.endReason : 'none'
    byEndReason[reason] = (byEndReason[reason] ?? 0) + row.calls
  }
  const timed = sum(rows, 'timedCalls')
  const seconds = sum(rows, 'seconds')
  const answers = sum(rows, 'answers')
  const counted = (field: keyof ConversationFactsRow) => {
    const total = sum(rows, field)
    return { total, perCall: ratio(total, calls) }
  }
  let fields: CallAnalytics['outcome']['fields'] = null
  const shape = scope.agent ? shapeFields(scope.agent).map(([field]) => field) : []
  if (scope.agent && shape.length > 0) {
    const counts = await context.store.analytics.outcomeFields(caller.projectId, scope.agent.id, shape, scope.from, scope.to)
    const ended = sum(
      rows.filter((row) => row.status === 'COMPLETED' || row.status === 'FAILED'),
      'calls',
    )
    fields = counts.map(({ field, filled }) => ({ field, filled, rate: ratio(filled, ended) }))
  }
  return {
    from: scope.from,
    to: scope.to,
    bucket: scope.range.bucket,
    calls,
    byTime: [...perBucket(scope)].map(([timeBucket, group]) => ({
      timeBucket,
      calls: sum(group, 'calls'),
      completed: sum(
        group.filter((row) => row.status === 'COMPLETED'),
        'calls',
      ),
      failed: sum(
        group.filter((row) => row.status === 'FAILED'),
        'calls',
      ),
      seconds: round2(sum(group, 'seconds')),
    })),
    byStatus,
    byEndReason,
    duration: { total: round2(seconds), average: timed === 0 ? null : round2(seconds / timed), timedCalls: timed },
    interruptions: counted('bargeIns'),
    pokes: counted('pokes'),
    toolCalls: counted('toolCalls'),
    latency: { answers, averageMs: answers === 0 ? null : Math.round((sum(rows, 'answerSeconds') / answers) * 1000) },
    outcome: { complete: sum(rows, 'outcomeComplete'), partial: sum(rows, 'outcomePartial'), fields },
  }
}

const EXPORT_HEADER = [
  'id',
  'createdAt',
  'voiceAgentId',
  'agentName',
  'status',
  'endReason',
  'durationSeconds',
  'turns',
  'interruptions',
  'pokes',
  'toolCalls',
  'outcomeComplete',
  'outcome',
]

/** `GET /v1/agent-analytics/conversations/export`: the agent's calls of the range as CSV, oldest first. */
export async function exportConversations(context: OpsContext, caller: Caller, query: ConversationExportQuery): Promise<string> {
  const agent = await context.store.voiceAgents.findInProject(query.voiceAgentId, caller.projectId)
  if (!agent) throw notFound('voice agent', query.voiceAgentId)
  const range = analyticsRange(context.now(), query)
  const rows = await context.store.analytics.exportConversations(caller.projectId, {
    voiceAgentId: query.voiceAgentId,
    ...(query.status === undefined ? {} : { status: query.status }),
    from: new Date(range.from).toISOString(),
    to: new Date(range.to).toISOString(),
    limit: EXPORT_LIMIT,
  })
  return toCsv([
    EXPORT_HEADER,
    ...rows.map((row) => [
      row.id,
      row.createdAt,
      row.voiceAgentId,
      row.agentName,
      row.status,
      row.endReason,
      row.seconds,
      row.turns,
      row.bargeIns,
      row.pokes,
      row.toolCalls,
      row.outcomeComplete,
      row.outcome,
    ]),
  ])
}

/** `GET /v1/projects/statistics/chart`: the project's jobs per local day of the range. */
export async function statisticsChart(context: OpsContext, caller: Caller, query: StatisticsChartQuery): Promise<StatisticsChart> {
  if (query.projectId !== undefined && query.projectId !== caller.projectId) throw notFound('project', query.projectId)
  const range = analyticsRange(context.now(), { period: 'CUSTOM', ...query })
  const days = bucketLabels({ ...range, bucket: 'day' })
  const rows = await context.store.analytics.jobsByDay(
    caller.projectId,
    new Date(range.from).toISOString(),
    new Date(range.to).toISOString(),
    range.offsetMinutes,
  )
  const byDay = new Map(rows.map((row) => [row.day, row]))
  const points = (unit: string, value: (row: (typeof rows)[number] | undefined) => number) =>
    days.map((label) => {
      const day = label.slice(0, 10)
      return { date: `${day}T00:00:00.000Z`, value: value(byDay.get(day)), unit }
    })
  return {
    cost: points('credits', (row) => round2(row?.cost ?? 0)),
    requests: points('jobs', (row) => row?.jobs ?? 0),
    transcription: points('minutes', (row) => Math.round(((row?.transcriptionSeconds ?? 0) / 60) * 1000) / 1000),
    tokens: [],
  }
}
