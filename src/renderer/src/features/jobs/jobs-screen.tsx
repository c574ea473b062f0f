import { useEffect, useState } from 'react'
import { JOB_STATUSES, JOB_TYPES, type JobStatus, type JobType } from '../../../../shared/api/jobs'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { formatCount } from '../../lib/format'
import { useAppStore, useStoreApi } from '../../store/app-context'
import { selectJobs, selectLocale } from '../../store/selectors'
import { Icon } from '../../ui/icon'
import { SearchBox } from '../../ui/list-controls'
import { LoadError } from '../../ui/load-error'
import { FilterSelect, Options } from '../../ui/field'
import { RangeFields } from '../../ui/range-fields'
import { JobDetailPanel } from './job-detail'
import { JobsTable } from './jobs-table'
import { NewTranscriptionDialog } from './new-transcription-dialog'
import { NewTtsDialog } from './new-tts-dialog'

/** The jobs monitor: filters, the live table, the open job. */
export function JobsScreen() {
  const t = useT()
  const store = useStoreApi()
  const jobs = useAppStore(selectJobs)
  const locale = useAppStore(selectLocale)
  const [search, setSearch] = useState(jobs.query.search)
  const [creating, setCreating] = useState(false)
  const [transcribing, setTranscribing] = useState(false)
  // The dates as typed: sent once the range is whole (a "to" before the "from" is said, not sent).
  const [dates, setDates] = useState({ createdFrom: jobs.query.createdFrom, createdTo: jobs.query.createdTo })
  const backwards = dates.createdFrom !== '' && dates.createdTo !== '' && dates.createdTo < dates.createdFrom
  const changeDate = (field: 'createdFrom' | 'createdTo', value: string) => {
    const next = { ...dates, [field]: value }
    setDates(next)
    if (next.createdFrom !== '' && next.createdTo !== '' && next.createdTo < next.createdFrom) return
    const { query } = store.getState().jobs
    if (next.createdFrom !== query.createdFrom || next.createdTo !== query.createdTo) store.getState().setJobsQuery(next)
  }

  useEffect(() => {
    if (search === store.getState().jobs.query.search) return
    const timer = setTimeout(() => store.getState().setJobsQuery({ search }), 250)
    return () => clearTimeout(timer)
  }, [search, store])

  return (
    <div className={`split jobs-split ${jobs.selectedId ? 'with-detail' : ''}`}>
      <section className="jobs-main" aria-labelledby="jobs-title">
        <header className="pane-header">
          <h1 id="jobs-title">{t('jobs.title')}</h1>
          <div className="pane-header-actions">
            <button type="button" className="button primary" onClick={() => setCreating(true)}>
              <Icon name="plus" size={16} />
              <span>{t('jobs.newTts')}</span>
            </button>
            <button type="button" className="button primary" onClick={() => setTranscribing(true)}>
              <Icon name="plus" size={16} />
              <span>{t('jobs.newTranscription')}</span>
            </button>
          </div>
        </header>
        <div className="filters" role="search" aria-label={t('jobs.filters')}>
          <SearchBox value={search} label={t('jobs.search')} placeholder={t('jobs.searchPlaceholder')} onChange={setSearch} />
          <FilterSelect
            label={t('jobs.status')}
            value={jobs.query.status ?? ''}
            onChange={(value) => store.getState().setJobsQuery({ status: (value || null) as JobStatus | null })}
          >
            <option value="">{t('common.all')}</option>
            <Options values={JOB_STATUSES} label={(status) => t(`status.${status}` as MessageKey)} />
          </FilterSelect>
          <FilterSelect
            label={t('jobs.type')}
            value={jobs.query.type ?? ''}
            onChange={(value) => store.getState().setJobsQuery({ type: (value || null) as JobType | null })}
          >
            <option value="">{t('common.all')}</option>
            <Options values={JOB_TYPES} label={(type) => t(`jobType.${type}` as MessageKey)} />
          </FilterSelect>
          <RangeFields
            type="date"
            labels={{ from: t('jobs.createdFrom'), to: t('jobs.createdTo') }}
            from={dates.createdFrom}
            to={dates.createdTo}
            onChange={(end, value) => changeDate(end === 'from' ? 'createdFrom' : 'createdTo', value)}
            backwards={backwards ? t('jobs.datesBackwards') : undefined}
            errorId="jobs-dates-error"
          />
          <span className="muted small counts" aria-live="polite">
            {jobs.filtered === null
              ? jobs.error
                ? null
                : t('common.loading')
              : t('jobs.counts', { filtered: formatCount(jobs.filtered, locale), total: formatCount(jobs.total ?? 0, locale) })}
          </span>
        </div>
        {jobs.error ? <LoadError error={jobs.error} onRetry={() => store.getState().refreshJobs()} /> : null}
        <JobsTable />
      </section>
      {jobs.selectedId ? <JobDetailPanel /> : null}
      <NewTtsDialog open={creating} onClose={() => setCreating(false)} />
      <NewTranscriptionDialog open={transcribing} onClose={() => setTranscribing(false)} />
    </div>
  )
}
