import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef, type KeyboardEvent } from 'react'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { formatCost, formatCount, formatDateTime } from '../../lib/format'
import { useAppStore, useStoreApi } from '../../store/app-context'
import { isFilteredQuery, type JobSortField, type JobsQuery } from '../../store/jobs-slice'
import { jobAt, jobRowCount, pagesForRange, selectJobs, selectLocale } from '../../store/selectors'
import { ProgressBar } from '../../ui/progress-bar'
import { StatusBadge } from '../../ui/status-badge'
import { CallGlanceCell } from './call-glance'
import type { OperatorJobListItem } from '../../../../shared/ipc/operations'

const ROW_HEIGHT = 40

const COLUMNS: { field: JobSortField; label: MessageKey }[] = [
  { field: 'status', label: 'jobs.colStatus' },
  { field: 'type', label: 'jobs.colType' },
  { field: 'title', label: 'jobs.colTitle' },
  { field: 'cost', label: 'jobs.colCost' },
  { field: 'createdAt', label: 'jobs.colCreated' },
]

/**
 * All jobs that match, however many: only the rows in view are in the DOM, and their pages
 * (100 rows each) are fetched as they scroll into view.
 */
export function JobsTable() {
  const t = useT()
  const store = useStoreApi()
  const jobs = useAppStore(selectJobs)
  const locale = useAppStore(selectLocale)
  const scroller = useRef<HTMLDivElement>(null)
  const count = jobRowCount(jobs)

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 15,
  })
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items[items.length - 1]?.index ?? 0

  useEffect(() => {
    store.getState().showJobPages(count === 0 ? [1] : pagesForRange(first, last))
  }, [first, last, count, jobs.generation, store])

  // A new query starts at the top.
  useEffect(() => {
    virtualizer.scrollToOffset(0)
  }, [jobs.generation, virtualizer])

  // Scrolled away from the top, new jobs wait behind the bar rather than pushing rows down.
  const onScroll = () => {
    const top = scroller.current?.scrollTop ?? 0
    store.getState().setJobsAtTop(top < ROW_HEIGHT / 2)
  }

  const showNewJobs = () => {
    store.getState().showNewJobs()
    virtualizer.scrollToOffset(0)
  }

  const onRowKey = (event: KeyboardEvent<HTMLDivElement>, index: number, id: string | undefined) => {
    if ((event.key === 'Enter' || event.key === ' ') && id) {
      event.preventDefault()
      store.getState().selectJob(id)
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const next = Math.min(count - 1, Math.max(0, index + (event.key === 'ArrowDown' ? 1 : -1)))
      virtualizer.scrollToIndex(next)
      requestAnimationFrame(() => scroller.current?.querySelector<HTMLElement>(`[data-index="${next}"]`)?.focus())
    }
  }

  return (
    <>
      {jobs.newJobs > 0 ? (
        <div className="new-jobs-bar" role="status">
          <button type="button" className="button primary" onClick={showNewJobs}>
            {jobs.newJobs === 1 ? t('jobs.newJob') : t('jobs.newJobs', { n: formatCount(jobs.newJobs, locale) })}
          </button>
        </div>
      ) : null}
      <div className="jobs-table" role="table" aria-label={t('jobs.tableLabel')} aria-rowcount={count + 1}>
        <div role="rowgroup" className="jobs-head">
          <div role="row" className="jobs-row head" aria-rowindex={1}>
            {COLUMNS.map((column) => (
              <SortHeader key={column.field} column={column} query={jobs.query} />
            ))}
          </div>
        </div>
        <div ref={scroller} className="jobs-scroll" role="rowgroup" onScroll={onScroll}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const job = jobAt(jobs, item.index)
              const selected = job !== undefined && job.id === jobs.selectedId
              return (
                <div
                  key={job?.id ?? `row-${item.index}`}
                  data-index={item.index}
                  role="row"
                  aria-rowindex={item.index + 2}
                  aria-current={selected ? 'true' : undefined}
                  tabIndex={job ? 0 : -1}
                  className={`jobs-row ${selected ? 'selected' : ''} ${job ? '' : 'loading'}`}
                  style={{
                    position: 'absolute',
                    insetInlineStart: 0,
                    top: 0,
                    width: '100%',
                    height: item.size,
                    transform: `translateY(${item.start}px)`,
                  }}
                  onClick={() => job && store.getState().selectJob(job.id)}
                  onKeyDown={(event) => onRowKey(event, item.index, job?.id)}
                >
                  {job ? <JobCells job={job} /> : <div role="cell" className="cell skeleton" aria-label={t('common.loading')} />}
                </div>
              )
            })}
          </div>
          {jobs.filtered === 0 ? <p className="empty center">{isFilteredQuery(jobs.query) ? t('jobs.noMatch') : t('jobs.empty')}</p> : null}
        </div>
      </div>
    </>
  )
}

/** A column's header: sorts by it, the other way when it already does. */
function SortHeader({ column, query }: { column: (typeof COLUMNS)[number]; query: JobsQuery }) {
  const t = useT()
  const store = useStoreApi()
  const active = query.sortField === column.field
  const sortBy = (field: JobSortField) => {
    const { query } = store.getState().jobs
    const direction =
      query.sortField === field
        ? query.sortDirection === 'asc'
          ? 'desc'
          : 'asc'
        : field === 'createdAt' || field === 'cost'
          ? 'desc'
          : 'asc'
    store.getState().setJobsQuery({ sortField: field, sortDirection: direction })
  }
  return (
    <div
      role="columnheader"
      className={`cell cell-${column.field}`}
      aria-sort={active ? (query.sortDirection === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button type="button" className="sort-button" onClick={() => sortBy(column.field)}>
        {t(column.label)}
        <span aria-hidden="true" className="sort-mark">
          {active ? (query.sortDirection === 'asc' ? '▲' : '▼') : ''}
        </span>
      </button>
    </div>
  )
}

/** A loaded row's cells: status, type, title (a call's glance, or a transcription's progress), cost, when made. */
function JobCells({ job }: { job: OperatorJobListItem }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  return (
    <>
      <div role="cell" className="cell cell-status">
        <StatusBadge status={job.status} />
      </div>
      <div role="cell" className="cell cell-type">
        {t(`jobType.${job.type}` as MessageKey)}
      </div>
      {job.type === 'CONVERSATION' ? (
        <CallGlanceCell job={job} />
      ) : job.progress !== undefined && job.status === 'PENDING' ? (
        <div role="cell" className="cell cell-title with-progress" title={job.title}>
          <span className="title-text" dir="auto">
            {job.title}
          </span>
          <ProgressBar fraction={job.progress} label={t('transcript.progressOf', { title: job.title })} compact />
        </div>
      ) : (
        <div role="cell" className="cell cell-title" dir="auto" title={job.title}>
          {job.title}
        </div>
      )}
      <div role="cell" className="cell cell-cost num">
        {formatCost(job.cost, locale)}
      </div>
      <div role="cell" className="cell cell-createdAt small">
        {formatDateTime(job.createdAt, locale)}
      </div>
    </>
  )
}
