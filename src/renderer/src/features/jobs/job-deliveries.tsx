import type { Job } from '../../../../shared/api/jobs'
import { pluralKey, type PluralForms } from '../../i18n/plural'
import { useT } from '../../i18n/use-t'
import { formatCount } from '../../lib/format'
import { useAppStore } from '../../store/app-context'
import { hashOf } from '../../store/hash-route'
import type { JobDetail } from '../../store/jobs-slice'
import { selectLocale } from '../../store/selectors'
import { StatusBadge } from '../../ui/status-badge'

/** "1 attempt", "2 attempts"; in Arabic the dual and the forms for 3 to 10 and from 11 differ. */
const ATTEMPTS: PluralForms = {
  zero: 'webhooks.attemptsN',
  one: 'webhooks.attemptsOne',
  two: 'webhooks.attemptsTwo',
  few: 'webhooks.attemptsN',
  many: 'webhooks.attemptsMany',
  other: 'webhooks.attemptsMany',
}

/**
 * The webhooks a job sent (for a conversation, its agent's call events), oldest first: event,
 * status, attempts and the last answer, each a link to its delivery in the journal. Kept current
 * by delivery.attempted events (the jobs slice reloads the open job's deliveries).
 */
export function JobDeliveries({ job, detail }: { job: Job; detail: JobDetail }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const isCall = job.type === 'CONVERSATION'
  // A call's events all go to its agent's one URL: said once, not on every row.
  const urls = [...new Set(detail.deliveries.map((delivery) => delivery.url))]
  const oneUrl = urls.length === 1 ? (urls[0] ?? null) : null
  return (
    <section className="detail-section" aria-labelledby="job-deliveries">
      <h3 id="job-deliveries">{isCall ? t('monitor.webhooks') : t('jobs.deliveries')}</h3>
      {detail.deliveries.length === 0 ? (
        <p className="muted">{isCall ? t('monitor.noAgentWebhook') : job.webhookUrl ? t('jobs.noDeliveriesYet') : t('jobs.noWebhook')}</p>
      ) : (
        <>
          {oneUrl ? (
            <code dir="ltr" className="small muted delivery-url" title={oneUrl}>
              {oneUrl}
            </code>
          ) : null}
          <ul className="plain-list deliveries" data-testid="job-deliveries">
            {detail.deliveries.map((delivery) => (
              <li key={delivery.id} className="delivery-row">
                <a
                  className="link delivery-link"
                  title={delivery.event}
                  href={hashOf({ screen: 'webhooks', id: delivery.id })}
                  aria-label={t('monitor.openDelivery', { event: delivery.event })}
                >
                  <code dir="ltr">{delivery.event}</code>
                </a>
                <StatusBadge status={delivery.status} />
                <span className="muted small" data-testid="delivery-attempts">
                  {t(pluralKey(locale, delivery.attempts, ATTEMPTS), { n: formatCount(delivery.attempts, locale) })}
                </span>
                <span className="muted small">
                  {delivery.lastStatusCode === null
                    ? t('monitor.noAnswer')
                    : t('monitor.lastAnswer', { code: String(delivery.lastStatusCode) })}
                </span>
                {oneUrl ? null : (
                  <code dir="ltr" className="small muted delivery-url" title={delivery.url}>
                    {delivery.url}
                  </code>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {detail.deliveriesTotal > detail.deliveries.length ? (
        <p className="small muted">
          {t('monitor.deliveriesShown', {
            shown: formatCount(detail.deliveries.length, locale),
            total: formatCount(detail.deliveriesTotal, locale),
          })}
        </p>
      ) : null}
    </section>
  )
}
