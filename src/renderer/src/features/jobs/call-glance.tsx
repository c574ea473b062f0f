import type { CallGlance, OperatorJobListItem } from '../../../../shared/ipc/operations'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { formatClock } from '../../lib/format'
import { useNow } from '../../ui/use-now'

/** A call's length: the stored duration once it ended, counted live from its start while it runs. */
export function CallDuration({ status, seconds, startedAt }: { status: string; seconds: number | null; startedAt: string | null }) {
  const live = status === 'IN_PROGRESS' && startedAt !== null
  const now = useNow(live)
  if (seconds !== null && !live) return <span className="num">{formatClock(seconds)}</span>
  if (live) return <span className="num">{formatClock((now - Date.parse(startedAt)) / 1000)}</span>
  return <span>—</span>
}

/** Complete, partial or none: a word (the colour only repeats it). */
export function OutcomeBadge({ outcome }: { outcome: CallGlance['outcome'] }) {
  const t = useT()
  return <span className={`badge outcome-badge outcome-${outcome}`}>{t(`monitor.outcome.${outcome}` as MessageKey)}</span>
}

/**
 * A conversation's title cell in the jobs table, on two lines: the agent, the duration and how
 * the call ended; then its outcome (complete, partial, none) and the first fields it found.
 */
export function CallGlanceCell({ job }: { job: OperatorJobListItem }) {
  const t = useT()
  const call = job.call
  const ending =
    job.status === 'IN_PROGRESS'
      ? t('monitor.live')
      : job.status === 'PENDING'
        ? t('monitor.waiting')
        : call?.endReason
          ? t(`monitor.endShort.${call.endReason}` as MessageKey)
          : '—'
  // The whole glance as a tooltip: a narrow table cuts the cell short.
  const fields = call?.outcomeFields.map((field) => (field.name === null ? field.value : `${field.name}: ${field.value}`)) ?? []
  const summary = [
    job.title,
    ending,
    ...(call && fields.length > 0 ? [t(`monitor.outcome.${call.outcome}` as MessageKey), ...fields] : []),
  ].join(' · ')
  return (
    <div role="cell" className="cell cell-title call-glance" data-testid="call-glance" title={summary}>
      <span className="glance-line">
        <bdi className="glance-agent">{job.attributes.agentName ?? job.title}</bdi>
        <span className="glance-sep" aria-hidden="true">
          ·
        </span>
        <span data-testid="call-duration">
          <CallDuration status={job.status} seconds={job.attributes.duration} startedAt={call?.startedAt ?? null} />
        </span>
        <span className="glance-sep" aria-hidden="true">
          ·
        </span>
        <span className="glance-end" data-testid="call-end">
          {ending}
        </span>
      </span>
      {call && (job.status === 'COMPLETED' || job.status === 'FAILED') ? (
        <span className="glance-line small muted" data-testid="call-outcome">
          <OutcomeBadge outcome={call.outcome} />
          {fields.map((field, index) => (
            <bdi key={index} className="glance-field">
              {field}
            </bdi>
          ))}
        </span>
      ) : null}
    </div>
  )
}
