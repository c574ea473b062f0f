import { filledOutcomeFields, outcomeStateOf } from '../../shared/call-outcome'
import { ConversationStateSchema } from '../../shared/api/conversations'
import type { ListJobsBody } from '../../shared/api/jobs'
import type { CallGlance, OperatorJobListItem } from '../../shared/ipc/operations'
import type { JobRecord } from '../../store/records'
import { listJobsAs, toJobListItem, type CreatedRange } from './jobs'
import type { Caller, OpsContext } from './ops-context'

/** What a row needs of a conversation's state: its transcript and tool calls are not read. */
const GlanceStateSchema = ConversationStateSchema.pick({
  startedAt: true,
  endReason: true,
  outcomeResult: true,
  outcomeComplete: true,
  channel: true,
  direction: true,
  fromNumber: true,
  toNumber: true,
})

/** How many of the outcome's fields a row shows, and how much of each value. */
const GLANCE_FIELDS = 2
const GLANCE_VALUE_CHARACTERS = 60

/** The operator UI's `jobs.list`: /v1's page, with a glance at each conversation. */
export function listOperatorJobs(context: OpsContext, caller: Caller, body: ListJobsBody, range: CreatedRange = {}) {
  return listJobsAs(context, caller, caller.projectId, body, {}, range, (ctx, record, keyHints): OperatorJobListItem => {
    const item = toJobListItem(ctx, record, keyHints)
    // Other jobs answer /v1's item itself (with a running job's progress): nothing more is read or made for them.
    if (record.type === 'CONVERSATION') return { ...item, call: callGlanceOf(record) }
    return record.status === 'PENDING' && record.progress !== null ? { ...item, progress: record.progress } : item
  })
}

/** A conversation at a glance: when it started, how it ended, how much of its outcome it found. */
export function callGlanceOf(record: Pick<JobRecord, 'jobResponse'>): CallGlance {
  const parsed = GlanceStateSchema.safeParse(record.jobResponse)
  // A record this version cannot read shows as a call that found nothing, as the detail does.
  if (!parsed.success) return { startedAt: null, endReason: null, outcome: 'none', outcomeFields: [] }
  const { startedAt, endReason, outcomeResult, outcomeComplete, channel, direction, fromNumber, toNumber } = parsed.data
  return {
    startedAt,
    endReason,
    outcome: outcomeStateOf(outcomeResult, outcomeComplete),
    outcomeFields: filledOutcomeFields(outcomeResult, GLANCE_FIELDS, GLANCE_VALUE_CHARACTERS),
    ...(channel === 'SIP'
      ? { phone: { direction: direction ?? 'inbound', fromNumber: fromNumber ?? null, toNumber: toNumber ?? null } }
      : {}),
  }
}
