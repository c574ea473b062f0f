import { ConversationStateSchema } from '../../../../shared/api/conversations'
import type { Job } from '../../../../shared/api/jobs'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'

/** A conversation in the monitor: its recording, its transcript with times, its outcome and how it ended. */
export function ConversationSection({ job }: { job: Job }) {
  const t = useT()
  const parsed = ConversationStateSchema.safeParse(job.jobResponse)
  if (!parsed.success) return null
  const call = parsed.data
  return (
    <section className="detail-section" aria-labelledby="job-call">
      <h3 id="job-call">{t('calls.title')}</h3>
      {job.mediaUrl ? (
        <audio key={job.mediaUrl} controls preload="metadata" src={job.mediaUrl} aria-label={t('calls.recordingOf', { title: job.title })} className="job-audio" />
      ) : (
        <p className="muted">{call.startedAt ? t('calls.recordingPending') : t('calls.notStarted')}</p>
      )}
      {call.endReason ? <p className="muted">{t(`calls.end.${call.endReason}` as MessageKey)}</p> : null}
      {call.transcript.length > 0 ? (
        <ol className="plain-list transcript">
          {call.transcript.map((turn, index) => (
            <li key={index}>
              <span className="tag">{t('jobs.seconds', { n: turn.startTime.toFixed(1) })}</span> <strong>{turn.role === 'agent' ? t('calls.agent') : t('calls.caller')}</strong>{' '}
              <span dir="auto">{turn.content || t('calls.unrecognised')}</span>
              {turn.interrupted ? <em className="muted"> {t('calls.interrupted')}</em> : null}
            </li>
          ))}
        </ol>
      ) : null}
      {call.outcomeResult !== null && call.outcomeResult !== undefined ? (
        <>
          <h4>{t('calls.outcome')}</h4>
          <pre className="quote" dir="ltr">
            {JSON.stringify(call.outcomeResult, null, 2)}
          </pre>
        </>
      ) : null}
    </section>
  )
}
