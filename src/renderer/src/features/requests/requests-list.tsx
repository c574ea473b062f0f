import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef, type KeyboardEvent } from 'react'
import type { JournalSummary } from '../../../../shared/api/request-journal'
import { useT } from '../../i18n/use-t'
import { formatCount, formatTimeOfDay } from '../../lib/format'
import { useAppStore, useStoreApi } from '../../store/app-context'
import { isFilteredRequests, REQUESTS_PAGE_SIZE } from '../../store/requests-slice'
import { selectLocale, selectRequests } from '../../store/selectors'
import { listShows } from '../../store/list-shows'

const ROW_HEIGHT = 36
/** Rows from the end at which the next older page is asked for. */
const LOAD_AHEAD = 20
/** The list's columns: their cells share the class (its width, hidden in a narrow window). */
const COLUMNS = [
  { cell: 'cell-time', label: 'requests.colTime' },
  { cell: 'cell-method', label: 'requests.colMethod' },
  { cell: 'cell-path', label: 'requests.colPath' },
  { cell: 'cell-status', label: 'requests.colStatus' },
  { cell: 'cell-latency', label: 'requests.colLatency' },
] as const

/** A status as its number, coloured by class (the number carries the meaning, not the colour). */
export function HttpStatus({ status }: { status: number }) {
  return <span className={`http-status http-${Math.floor(status / 100)}xx`}>{status}</span>
}

export const pathWithQuery = (row: Pick<JournalSummary, 'path' | 'query'>) => (row.query === '' ? row.path : `${row.path}?${row.query}`)

/**
 * The journal, newest first: only the rows in view are in the DOM; older pages are fetched by
 * the cursor as the end scrolls into view. New rows arrive above; scrolled down, they wait
 * behind the bar so the row under the pointer never moves.
 */
export function RequestsList() {
  const t = useT()
  const store = useStoreApi()
  const requests = useAppStore(selectRequests)
  const locale = useAppStore(selectLocale)
  const scroller = useRef<HTMLDivElement>(null)
  const { rows } = requests
  const shows = listShows({ items: rows, loaded: requests.loaded, loading: false, error: requests.error })
  // One more row while older pages remain: the loading row at the end.
  const count = rows.length + (requests.next !== null ? 1 : 0)

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    getItemKey: (index) => rows[index]?.id ?? `more-${index}`,
  })
  const items = virtualizer.getVirtualItems()
  const last = items[items.length - 1]?.index ?? 0

  useEffect(() => {
    if (requests.next !== null && last >= rows.length - LOAD_AHEAD) void store.getState().loadMoreRequests()
  }, [last, rows.length, requests.next, store])

  // New filters start at the top.
  useEffect(() => {
    virtualizer.scrollToOffset(0)
  }, [requests.generation, virtualizer])

  const onScroll = () => {
    const top = scroller.current?.scrollTop ?? 0
    store.getState().setRequestsAtTop(top < ROW_HEIGHT / 2)
  }

  const showNew = () => {
    void store.getState().showNewRequests()
    virtualizer.scrollToOffset(0)
  }

  // A row already rendered takes the focus at once (a held-down arrow key never lags behind);
  // one further away is rendered by the scroll first.
  const focusRow = (index: number) => {
    const rowElement = () => scroller.current?.querySelector<HTMLElement>(`[data-index="${index}"]`)
    virtualizer.scrollToIndex(index)
    const now = rowElement()
    if (now) now.focus()
    else requestAnimationFrame(() => rowElement()?.focus())
  }

  const onRowKey = (event: KeyboardEvent<HTMLDivElement>, index: number, row: JournalSummary | undefined) => {
    if ((event.key === 'Enter' || event.key === ' ') && row) {
      event.preventDefault()
      void store.getState().selectRequest(row.id)
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      focusRow(Math.min(rows.length - 1, Math.max(0, index + (event.key === 'ArrowDown' ? 1 : -1))))
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault()
      focusRow(event.key === 'Home' ? 0 : rows.length - 1)
    }
  }

  const held = requests.held.length
  return (
    <>
      {held > 0 || requests.heldMore ? (
        <div className="new-jobs-bar" role="status">
          <button type="button" className="button primary" onClick={showNew} data-testid="new-requests">
            {requests.heldMore
              ? t('requests.newMore', { n: formatCount(REQUESTS_PAGE_SIZE, locale) })
              : held === 1
                ? t('requests.newOne')
                : t('requests.newMany', { n: formatCount(held, locale) })}
          </button>
        </div>
      ) : null}
      <div className="jobs-table requests-table" role="table" aria-label={t('requests.tableLabel')} aria-rowcount={rows.length + 1}>
        <div role="rowgroup" className="jobs-head">
          <div role="row" className="jobs-row requests-row head" aria-rowindex={1}>
            {COLUMNS.map(({ cell, label }) => (
              <div key={cell} role="columnheader" className={`cell ${cell}`}>
                {t(label)}
              </div>
            ))}
          </div>
        </div>
        <div ref={scroller} className="jobs-scroll requests-scroll" role="rowgroup" onScroll={onScroll}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const row = rows[item.index]
              const selected = row !== undefined && row.id === requests.selectedId
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  data-request-id={row?.id}
                  role="row"
                  aria-rowindex={item.index + 2}
                  aria-current={selected ? 'true' : undefined}
                  tabIndex={row ? 0 : -1}
                  className={`jobs-row requests-row ${selected ? 'selected' : ''} ${row ? '' : 'loading'}`}
                  style={{
                    position: 'absolute',
                    insetInlineStart: 0,
                    top: 0,
                    width: '100%',
                    height: item.size,
                    transform: `translateY(${item.start}px)`,
                  }}
                  onClick={() => row && void store.getState().selectRequest(row.id)}
                  onKeyDown={(event) => onRowKey(event, item.index, row)}
                >
                  {row ? (
                    <>
                      <div role="cell" className="cell cell-time small num" title={row.startedAt}>
                        {formatTimeOfDay(row.startedAt, locale)}
                      </div>
                      <div role="cell" className="cell cell-method">
                        <code dir="ltr">{row.kind === 'websocket' ? 'WS' : row.method}</code>
                      </div>
                      <div role="cell" className="cell cell-path mono" dir="ltr" title={pathWithQuery(row)}>
                        {row.path}
                        {row.query === '' ? null : <span className="muted">?{row.query}</span>}
                      </div>
                      <div role="cell" className="cell cell-status">
                        <HttpStatus status={row.status} />
                      </div>
                      <div role="cell" className="cell cell-latency small num">
                        {t('unit.ms', { n: formatCount(Math.round(row.latencyMs), locale) })}
                      </div>
                    </>
                  ) : (
                    <div role="cell" className="cell skeleton" aria-label={t('requests.loadingMore')} />
                  )}
                </div>
              )
            })}
          </div>
          {shows === 'empty' ? (
            <p className="empty center">{isFilteredRequests(requests.filters) ? t('requests.noMatch') : t('requests.empty')}</p>
          ) : null}
          {shows === 'loading' ? <p className="empty center">{t('common.loading')}</p> : null}
        </div>
      </div>
    </>
  )
}
