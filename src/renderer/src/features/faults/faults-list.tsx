import type { Fault } from '../../../../shared/api/faults'
import { useT } from '../../i18n/use-t'
import { formatCount, formatDateTime } from '../../lib/format'
import { useAppStore, useStoreApi } from '../../store/app-context'
import { listShows } from '../../store/list-shows'
import { selectFaults, selectLocale } from '../../store/selectors'
import { Icon } from '../../ui/icon'
import { LoadError } from '../../ui/load-error'
import { TableHead } from '../../ui/table-head'

/** One line saying what a rule does. */
function useSummary() {
  const t = useT()
  return (fault: Fault): string => {
    const parts: string[] = []
    if (fault.delayMs !== undefined) {
      const delay = fault.delayMs
      const ms =
        typeof delay === 'number' ? String(delay) : 'min' in delay ? `${delay.min}–${delay.max}` : `${delay.mean} ± ${delay.stddev}`
      parts.push(t('faults.summary.delay', { ms }))
    }
    if (fault.respond)
      parts.push(t('faults.summary.respond', { status: String(fault.respond.status), code: fault.respond.code ?? '' }).trim())
    if (fault.dropConnection) parts.push(t('faults.summary.drop'))
    if (fault.failJob) parts.push(t('faults.summary.failJob', { code: fault.failJob.code }))
    if (fault.failWebhook !== undefined && fault.failWebhook !== false) {
      const status = typeof fault.failWebhook === 'object' ? fault.failWebhook.status : undefined
      parts.push(status === undefined ? t('faults.summary.failWebhook') : t('faults.summary.failWebhookStatus', { status: String(status) }))
    }
    return parts.join(' · ')
  }
}

function matchText(fault: Fault, everything: string): string {
  const { method, path, jobType, agentId } = fault.match
  const text = [method, path, jobType, agentId].filter(Boolean).join(' ')
  return text === '' ? everything : text
}
/** The active rules, with their hits and expiry: remove one, remove all, refresh. */
export function FaultsList() {
  const t = useT()
  const store = useStoreApi()
  const faults = useAppStore(selectFaults)
  const locale = useAppStore(selectLocale)
  const summary = useSummary()
  const items = faults.items ?? []
  const shows = listShows({ ...faults, loaded: faults.items !== null })
  return (
    <section className="card" aria-labelledby="faults-list-title">
      <div className="toolbar">
        <h2 id="faults-list-title">{t('faults.listTitle', { n: formatCount(items.length, locale) })}</h2>
        <span className="status-spacer" />
        <button
          type="button"
          className="button ghost icon-button"
          aria-label={t('common.refresh')}
          onClick={() => void store.getState().loadFaults()}
        >
          <Icon name="refresh" size={16} />
        </button>
        <button
          type="button"
          className="button danger"
          disabled={items.length === 0}
          onClick={() =>
            void store
              .getState()
              .clearFaults()
              .then(() => store.getState().toast('success', t('faults.cleared')))
          }
        >
          <Icon name="trash" size={16} />
          <span>{t('faults.clear')}</span>
        </button>
      </div>
      {faults.error && !faults.loading ? <LoadError error={faults.error} onRetry={() => void store.getState().loadFaults()} /> : null}
      {shows !== 'rows' ? (
        shows === 'error' ? null : (
          <p className="muted">{shows === 'loading' ? t('common.loading') : t('faults.none')}</p>
        )
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="faults-table">
            <TableHead
              columns={[
                { label: t('faults.match') },
                { label: t('faults.effect') },
                { label: t('faults.rate') },
                { label: t('faults.hits') },
                { label: t('faults.expiresAt') },
                { label: t('faults.note'), optional: true },
              ]}
              actions
            />
            <tbody>
              {items.map((fault) => (
                <tr key={fault.id} data-fault-id={fault.id}>
                  <td>
                    <code dir="ltr">{matchText(fault, t('faults.everything'))}</code>
                  </td>
                  <td>
                    <bdi>{summary(fault)}</bdi>
                  </td>
                  <td>{formatCount(Math.round(fault.rate * 1000) / 10, locale)}</td>
                  <td data-testid="fault-hits">{formatCount(fault.hits, locale)}</td>
                  <td className="small">{fault.expiresAt ? formatDateTime(fault.expiresAt, locale) : t('faults.never')}</td>
                  <td className="small col-optional" dir="auto">
                    {fault.note ?? ''}
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button ghost small"
                      aria-label={t('faults.removeRule', { id: fault.id })}
                      onClick={() =>
                        void store
                          .getState()
                          .removeFault(fault.id)
                          .then(() => store.getState().toast('success', t('faults.removed')))
                      }
                    >
                      <Icon name="trash" size={14} />
                      <span>{t('faults.remove')}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
