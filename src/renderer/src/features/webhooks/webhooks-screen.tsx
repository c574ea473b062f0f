import { useEffect } from 'react'
import { DELIVERY_STATUSES } from '../../../../shared/api/webhooks'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { webhookErrorText } from '../../lib/webhook-error-text'
import { formatCount, formatDateTime } from '../../lib/format'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectDeliveries, selectLocale } from '../../store/selectors'
import { DELIVERIES_PAGE_SIZE, type DeliveryStatus } from '../../store/webhooks-slice'
import { Icon } from '../../ui/icon'
import { LoadError } from '../../ui/load-error'
import { StatusBadge } from '../../ui/status-badge'
import { FilterSelect, Options } from '../../ui/field'
import { TableHead } from '../../ui/table-head'
import { listShows } from '../../store/list-shows'

/** The delivery journal: every webhook the service sent or will send, each attempt, and "send again". */
export function WebhooksScreen() {
  const t = useT()
  const store = useStoreApi()
  const deliveries = useAppStore(selectDeliveries)
  // `opened` once the screen asked for its first page: before that the list is loading, not empty.
  const shows = listShows({ ...deliveries, loaded: deliveries.opened })
  const locale = useAppStore(selectLocale)
  const pages = Math.max(1, Math.ceil(deliveries.filtered / DELIVERIES_PAGE_SIZE))

  useEffect(() => {
    void store.getState().loadDeliveries()
  }, [store])

  return (
    <div className={`split ${deliveries.selectedId ? 'with-detail' : ''}`}>
      <section className="jobs-main" aria-labelledby="webhooks-title">
        <header className="pane-header">
          <div>
            <h1 id="webhooks-title">{t('webhooks.title')}</h1>
            <p className="muted small">{t('webhooks.intro')}</p>
          </div>
          <button
            type="button"
            className="button ghost icon-button"
            aria-label={t('common.refresh')}
            onClick={() => void store.getState().loadDeliveries()}
          >
            <Icon name="refresh" size={16} />
          </button>
        </header>
        <div className="filters">
          <FilterSelect
            label={t('webhooks.status')}
            value={deliveries.status ?? ''}
            onChange={(value) => void store.getState().loadDeliveries({ status: (value || null) as DeliveryStatus | null })}
          >
            <option value="">{t('common.all')}</option>
            <Options values={DELIVERY_STATUSES} label={(status) => t(`status.${status}` as MessageKey)} />
          </FilterSelect>
          <span className="muted small counts">
            {t('jobs.counts', { filtered: String(deliveries.filtered), total: String(deliveries.total) })}
          </span>
        </div>
        {deliveries.error && !deliveries.loading ? (
          <LoadError error={deliveries.error} onRetry={() => void store.getState().loadDeliveries()} />
        ) : null}
        <div className="table-wrap">
          <table className="table">
            <TableHead
              columns={[
                { label: t('webhooks.status') },
                { label: t('webhooks.event') },
                { label: t('webhooks.url') },
                { label: t('webhooks.attempts') },
                { label: t('webhooks.last') },
                { label: t('common.created'), optional: true },
              ]}
            />
            <tbody>
              {deliveries.items.map((delivery) => (
                <tr key={delivery.id} className={delivery.id === deliveries.selectedId ? 'selected' : ''}>
                  <td>
                    <StatusBadge status={delivery.status} />
                    {delivery.sending ? <span className="muted small"> {t('webhooks.sending')}</span> : null}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => void store.getState().selectDelivery(delivery.id)}
                      aria-label={t('webhooks.openDelivery', { id: delivery.id })}
                    >
                      <code dir="ltr">{delivery.event}</code>
                    </button>
                  </td>
                  <td className="mono small ellipsis" dir="ltr" title={delivery.url}>
                    {delivery.url}
                  </td>
                  <td className="num">{delivery.attempts}</td>
                  <td className="small">
                    {delivery.lastStatusCode ?? (delivery.lastError ? webhookErrorText(delivery.lastError, locale) : '—')}
                  </td>
                  <td className="small col-optional">{formatDateTime(delivery.createdAt, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {shows === 'loading' || shows === 'empty' ? (
            <p className="empty center">{shows === 'loading' ? t('common.loading') : t('webhooks.empty')}</p>
          ) : null}
        </div>
        <nav className="pager" aria-label={t('common.pages')}>
          <button
            type="button"
            className="button"
            disabled={deliveries.page <= 1}
            onClick={() => void store.getState().loadDeliveries({ page: deliveries.page - 1 })}
          >
            {t('common.previous')}
          </button>
          <span>{t('common.pageOf', { page: String(deliveries.page), pages: String(pages) })}</span>
          <button
            type="button"
            className="button"
            disabled={deliveries.page >= pages}
            onClick={() => void store.getState().loadDeliveries({ page: deliveries.page + 1 })}
          >
            {t('common.next')}
          </button>
        </nav>
      </section>
      {deliveries.selectedId ? <DeliveryDetailPane /> : null}
    </div>
  )
}

/** The open delivery: its facts, "send again", every attempt and the payload. */
function DeliveryDetailPane() {
  const t = useT()
  const store = useStoreApi()
  const call = useCall()
  const deliveries = useAppStore(selectDeliveries)
  const locale = useAppStore(selectLocale)
  const detail = deliveries.detail

  const redeliver = async (id: string) => {
    try {
      const delivery = await call('webhooks.redeliver', { id })
      store.getState().deliveryReplaced(delivery)
      store.getState().toast('info', t('webhooks.resent'))
    } catch (error) {
      store.getState().toastError(error)
    }
  }

  return (
    <aside className="detail-pane" aria-labelledby="delivery-title">
      <header className="pane-header">
        <h2 id="delivery-title">{t('webhooks.delivery')}</h2>
        <button
          type="button"
          className="button icon-button ghost"
          aria-label={t('common.close')}
          onClick={() => void store.getState().selectDelivery(null)}
        >
          <Icon name="x" size={16} />
        </button>
      </header>
      {detail ? (
        <>
          <dl className="facts">
            <dt>{t('webhooks.status')}</dt>
            <dd>
              <StatusBadge status={detail.status} />
            </dd>
            <dt>{t('webhooks.id')}</dt>
            <dd>
              <code dir="ltr" className="small">
                {detail.id}
              </code>
            </dd>
            <dt>{t('webhooks.url')}</dt>
            <dd>
              <code dir="ltr" className="small">
                {detail.url}
              </code>
            </dd>
            <dt>{t('webhooks.auth')}</dt>
            <dd>{detail.hasAuthorization ? t('webhooks.authYes') : t('webhooks.authNo')}</dd>
            <dt>{t('webhooks.next')}</dt>
            <dd>{detail.nextAttemptAt ? formatDateTime(detail.nextAttemptAt, locale) : '—'}</dd>
            {detail.jobId ? (
              <>
                <dt>{t('webhooks.job')}</dt>
                <dd>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => {
                      store.getState().navigate('jobs')
                      store.getState().selectJob(detail.jobId)
                    }}
                  >
                    <code dir="ltr">{detail.jobId}</code>
                  </button>
                </dd>
              </>
            ) : null}
          </dl>
          <div className="toolbar">
            <button type="button" className="button primary" disabled={detail.sending} onClick={() => void redeliver(detail.id)}>
              <Icon name="refresh" size={14} />
              <span>{t('webhooks.sendAgain')}</span>
            </button>
          </div>
          <h3>{t('webhooks.attemptLog')}</h3>
          {detail.attemptLog.length === 0 ? <p className="muted">{t('webhooks.noAttempts')}</p> : null}
          <ol className="attempts">
            {detail.attemptLog.map((attempt) => (
              <li key={attempt.attempt} className={attempt.statusCode !== null && attempt.statusCode < 300 ? 'ok' : 'bad'}>
                <div>
                  <strong>#{attempt.attempt}</strong> {formatDateTime(attempt.startedAt, locale)} ·{' '}
                  {attempt.statusCode ?? t('webhooks.noAnswer')} · {t('unit.ms', { n: formatCount(Math.round(attempt.latencyMs), locale) })}
                </div>
                {attempt.error ? <div className="field-error">{webhookErrorText(attempt.error, locale)}</div> : null}
                {attempt.responseExcerpt ? (
                  <pre className="excerpt" dir="ltr">
                    {attempt.responseExcerpt}
                  </pre>
                ) : null}
              </li>
            ))}
          </ol>
          <details>
            <summary>{t('webhooks.payload')}</summary>
            <pre className="excerpt" dir="ltr">
              {JSON.stringify(detail.payload, null, 2)}
            </pre>
          </details>
        </>
      ) : deliveries.detailError ? (
        <LoadError
          error={deliveries.detailError}
          failed={t('webhooks.detailFailed')}
          onRetry={() => void store.getState().selectDelivery(deliveries.selectedId)}
        />
      ) : (
        <p className="muted">{t('common.loading')}</p>
      )}
    </aside>
  )
}
