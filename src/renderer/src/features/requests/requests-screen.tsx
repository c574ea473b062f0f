import { useEffect, useState } from 'react'
import { JOURNAL_METHODS } from '../../../../shared/api/request-journal'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { pluralKey } from '../../i18n/plural'
import { formatCount } from '../../lib/format'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import {
  isBackwardRange,
  isFilteredRequests,
  NO_REQUEST_FILTERS,
  requestFilterInput,
  STATUS_CLASSES,
  type RequestsFilters,
} from '../../store/requests-slice'
import { selectLocale, selectRequests } from '../../store/selectors'
import { downloadText } from '../../ui/copy-text'
import { Icon } from '../../ui/icon'
import { LoadError } from '../../ui/load-error'
import { FilterSelect, Options } from '../../ui/field'
import { RangeFields } from '../../ui/range-fields'
import { RequestDetailPanel } from './request-detail'
import { RequestsList } from './requests-list'

/** The request journal: every /v1 request and WebSocket session, live, filtered, one open in detail. */
export function RequestsScreen() {
  const t = useT()
  const store = useStoreApi()
  const call = useCall()
  const requests = useAppStore(selectRequests)
  const locale = useAppStore(selectLocale)
  const [path, setPath] = useState(requests.filters.path)
  // The range as typed: sent once it is whole (an end before the start is said, not sent).
  const [range, setRange] = useState({ from: requests.filters.from, to: requests.filters.to })
  const [exporting, setExporting] = useState(false)
  const backwards = isBackwardRange(range)

  useEffect(() => {
    store.getState().openRequests()
  }, [store])

  useEffect(() => {
    if (path === store.getState().requests.filters.path) return
    const timer = setTimeout(() => store.getState().setRequestFilters({ path }), 250)
    return () => clearTimeout(timer)
  }, [path, store])

  const changeRange = (field: 'from' | 'to', value: string) => {
    const next = { ...range, [field]: value }
    setRange(next)
    if (isBackwardRange(next)) return
    const { filters } = store.getState().requests
    if (next.from !== filters.from || next.to !== filters.to) store.getState().setRequestFilters(next)
  }

  const setFilter = (changes: Partial<RequestsFilters>) => store.getState().setRequestFilters(changes)

  const clearFilters = () => {
    setPath('')
    setRange({ from: '', to: '' })
    store.getState().setRequestFilters(NO_REQUEST_FILTERS)
  }

  const exportHar = async () => {
    setExporting(true)
    try {
      const { fileName, har } = await call('requests.har', requestFilterInput(store.getState().requests.filters))
      downloadText(fileName, har, 'application/json;charset=utf-8')
      store.getState().toast('success', t('requests.harSaved', { name: fileName }))
    } catch (error) {
      store.getState().toastError(error)
    } finally {
      setExporting(false)
    }
  }

  const { filters } = requests
  return (
    <div className={`split jobs-split requests-split ${requests.selectedId !== null ? 'with-detail' : ''}`}>
      <section className="jobs-main requests-main" aria-labelledby="requests-title">
        <header className="pane-header">
          <div>
            <h1 id="requests-title">{t('requests.title')}</h1>
            <p className="muted small requests-intro">{t('requests.intro')}</p>
          </div>
          <button
            type="button"
            className="button"
            disabled={exporting || requests.off}
            aria-busy={exporting || undefined}
            aria-label={t('requests.exportLabel')}
            title={t('requests.exportLabel')}
            onClick={() => void exportHar()}
          >
            <Icon name="download" size={16} />
            <span>
              {t('requests.export')} <bdi>HAR</bdi>
            </span>
          </button>
        </header>
        {requests.off ? (
          <div className="empty center journal-off" role="status" data-testid="journal-off">
            <Icon name="arrow-left-right" size={28} />
            <p>
              <strong>{t('requests.off')}</strong> <code dir="ltr">--journal on</code>
            </p>
            <p className="small">{t('requests.offHint')}</p>
          </div>
        ) : (
          <>
            <div className="filters" role="search" aria-label={t('requests.filters')}>
              <FilterSelect label={t('requests.method')} value={filters.method} onChange={(value) => setFilter({ method: value })}>
                <option value="">{t('common.all')}</option>
                <Options values={JOURNAL_METHODS} />
              </FilterSelect>
              <label className="inline-field">
                <span>{t('requests.path')}</span>
                <input
                  className="input path-filter"
                  dir="ltr"
                  type="search"
                  value={path}
                  placeholder="/v1/jobs"
                  spellCheck={false}
                  onChange={(event) => setPath(event.target.value)}
                />
              </label>
              <FilterSelect label={t('requests.status')} value={filters.status} onChange={(value) => setFilter({ status: value })}>
                <option value="">{t('common.all')}</option>
                <Options
                  values={STATUS_CLASSES}
                  label={(statusClass) => `${statusClass} · ${t(`requests.class.${statusClass}` as MessageKey)}`}
                />
              </FilterSelect>
              <RangeFields
                type="datetime-local"
                labels={{ from: t('requests.from'), to: t('requests.to') }}
                from={range.from}
                to={range.to}
                onChange={changeRange}
                backwards={backwards ? t('requests.rangeBackwards') : undefined}
                errorId="requests-range-error"
              />
              {isFilteredRequests(filters) || path !== '' || range.from !== '' || range.to !== '' ? (
                <button type="button" className="button ghost small" onClick={clearFilters}>
                  {t('requests.clearFilters')}
                </button>
              ) : null}
            </div>
            {requests.dropped > 0 ? (
              <p className="warning-note small" role="note">
                {t(pluralKey(locale, requests.dropped, { one: 'requests.droppedOne', other: 'requests.dropped' }), {
                  n: formatCount(requests.dropped, locale),
                })}
              </p>
            ) : null}
            {requests.error ? <LoadError error={requests.error} onRetry={() => void store.getState().refreshRequests()} /> : null}
            <RequestsList />
          </>
        )}
      </section>
      {requests.selectedId !== null ? <RequestDetailPanel /> : null}
    </div>
  )
}
