import type { ConversationState } from '../../../../shared/api/conversations'
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

/** How the caller reached the agent: SIP (a phone call over the SIP line) or Web (the web SDK, a test call). */
export function ChannelBadge({ phone }: { phone: CallGlance['phone'] }) {
  const t = useT()
  return (
    <span
      className={`badge channel-badge ${phone ? 'channel-sip' : 'channel-web'}`}
      data-testid="call-channel"
      title={phone ? t('monitor.channelSipTitle') : t('monitor.channelWebTitle')}
    >
      {phone ? t('monitor.channelSip') : t('monitor.channelWeb')}
    </span>
  )
}

/** A phone call's direction and numbers, caller first: `Inbound alice → +14155550100`. */
export function PhoneNumbers({ phone }: { phone: NonNullable<CallGlance['phone']> }) {
  const t = useT()
  return (
    <>
      <span className="glance-direction">{phone.direction === 'inbound' ? t('monitor.inbound') : t('monitor.outbound')}</span>
      <bdi dir="ltr" className="glance-numbers mono" data-testid="call-numbers">
        {`${phone.fromNumber ?? '?'} → ${phone.toNumber ?? '?'}`}
      </bdi>
    </>
  )
}

/** In a call's detail: its channel and, for a phone call, its direction and both numbers. */
export function CallChannelFacts({ call }: { call: Pick<ConversationState, 'channel' | 'direction' | 'fromNumber' | 'toNumber'> }) {
  const t = useT()
  const phone =
    call.channel === 'SIP' ? { direction: call.direction ?? 'inbound', fromNumber: call.fromNumber, toNumber: call.toNumber } : undefined
  return (
    <dl className="facts call-channel" data-testid="call-channel-facts">
      <dt>{t('monitor.channel')}</dt>
      <dd>
        <ChannelBadge phone={phone && { ...phone, fromNumber: phone.fromNumber ?? null, toNumber: phone.toNumber ?? null }} />
      </dd>
      {phone ? (
        <>
          <dt>{t('monitor.direction')}</dt>
          <dd>{phone.direction === 'inbound' ? t('monitor.inbound') : t('monitor.outbound')}</dd>
          <dt>{t('monitor.fromNumber')}</dt>
          <dd className="mono">
            <bdi dir="ltr" data-testid="call-from">
              {phone.fromNumber ?? '—'}
            </bdi>
          </dd>
          <dt>{t('monitor.toNumber')}</dt>
          <dd className="mono">
            <bdi dir="ltr" data-testid="call-to">
              {phone.toNumber ?? '—'}
            </bdi>
          </dd>
        </>
      ) : null}
    </dl>
  )
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
  const phone = call?.phone
  const summary = [
    job.title,
    ...(phone ? [`${phone.fromNumber ?? '?'} → ${phone.toNumber ?? '?'}`] : []),
    ending,
    ...(call && fields.length > 0 ? [t(`monitor.outcome.${call.outcome}` as MessageKey), ...fields] : []),
  ].join(' · ')
  return (
    <div role="cell" className="cell cell-title call-glance" data-testid="call-glance" title={summary}>
      <span className="glance-line">
        <ChannelBadge phone={phone} />
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
      {call && (phone || job.status === 'COMPLETED' || job.status === 'FAILED') ? (
        <span className="glance-line small muted" data-testid="call-outcome">
          {phone ? <PhoneNumbers phone={phone} /> : null}
          {job.status === 'COMPLETED' || job.status === 'FAILED' ? (
            <>
              <OutcomeBadge outcome={call.outcome} />
              {fields.map((field, index) => (
                <bdi key={index} className="glance-field">
                  {field}
                </bdi>
              ))}
            </>
          ) : null}
        </span>
      ) : null}
    </div>
  )
}
