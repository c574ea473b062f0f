import type { JournalEntryDetail, JournalSummary } from '../../../shared/api/request-journal'
import type { IpcInput } from '../../../shared/ipc/operations'
import { isOperatorError, messageOf } from '../api/operator-error'
import type { SliceCreator } from './app-store'

/** Rows per requests.list call (the operation takes up to 200). */
export const REQUESTS_PAGE_SIZE = 100
/** The journal writes every 250 ms under load: the first page is fetched again at most this often. */
export const REQUESTS_REFRESH_MS = 250
export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const

/** The filters as the form holds them; '' is "any". */
export interface RequestsFilters {
  method: string
  /** A path prefix; a missing leading "/" is added. */
  path: string
  /** A status class, `2xx`. */
  status: string
  /** Local date and time as a datetime-local input gives them (YYYY-MM-DDTHH:mm): started at or after `from`, before `to`. */
  from: string
  to: string
}

export const NO_REQUEST_FILTERS: RequestsFilters = { method: '', path: '', status: '', from: '', to: '' }

export interface RequestsState {
  filters: RequestsFilters
  /** Bumped by every filter change, so answers to older filters are dropped. */
  generation: number
  /** Shown rows, newest first. */
  rows: JournalSummary[]
  /** The cursor of the next (older) page; null on the last. */
  next: number | null
  /** The first page of these filters answered. */
  loaded: boolean
  loadingMore: boolean
  /** Why the last read failed (the rows shown stay). */
  error: string | null
  /** The service runs with --journal off. */
  off: boolean
  /** Entries the journal dropped since the service started (its disk fell behind). */
  dropped: number
  /** Scrolled to the top: new rows show at once; below, they wait behind the "N new" bar. */
  atTop: boolean
  /** Newer rows than those shown, held while scrolled down (rows never move under the pointer). */
  held: JournalSummary[]
  /** More arrived than one page holds: the bar says "N+". */
  heldMore: boolean
  selectedId: number | null
  detail: JournalEntryDetail | null
  detailError: string | null
  /** The screen was shown once: the link's return reloads it. */
  opened: boolean
}

export interface RequestsSlice {
  requests: RequestsState
  /** The screen is shown: its rows are fetched again (from the top when none were loaded). */
  openRequests(): void
  setRequestFilters(changes: Partial<RequestsFilters>): void
  /** The list scrolled near its end: the next older page. */
  loadMoreRequests(): Promise<void>
  /** Fetches the first page again now (Retry, the link's return). */
  refreshRequests(): Promise<void>
  /** From a requests.written event: a throttled refresh of the first page. */
  requestsWritten(): void
  setRequestsAtTop(atTop: boolean): void
  /** The "N new" bar: the held rows are shown (the list scrolls to the top). */
  showNewRequests(): Promise<void>
  selectRequest(id: number | null): Promise<void>
}

/** The local date and time of a datetime-local input as an ISO instant (the operator's clock is the machine's). */
function instantOf(local: string): string | undefined {
  if (local === '') return undefined
  const time = new Date(local).getTime()
  return Number.isNaN(time) ? undefined : new Date(time).toISOString()
}

/** Whether `to` comes before `from` (said beside the field, not sent). */
export const isBackwardRange = (filters: Pick<RequestsFilters, 'from' | 'to'>) =>
  filters.from !== '' && filters.to !== '' && filters.to <= filters.from

export function normalizedPathPrefix(path: string): string | undefined {
  const trimmed = path.trim()
  if (trimmed === '') return undefined
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

/** The filters as requests.list and requests.har take them. */
export function requestFilterInput(filters: RequestsFilters) {
  return {
    method: filters.method || undefined,
    path: normalizedPathPrefix(filters.path),
    status: filters.status || undefined,
    from: instantOf(filters.from),
    to: instantOf(filters.to),
  } satisfies IpcInput<'requests.har'>
}

export const isFilteredRequests = (filters: RequestsFilters) => Object.values(filters).some((value) => value !== '')

export const createRequestsSlice: SliceCreator<RequestsSlice> = (set, get, { call, schedule }) => {
  const patch = (changes: Partial<RequestsState> | ((requests: RequestsState) => Partial<RequestsState>)) =>
    set((state) => ({ requests: { ...state.requests, ...(typeof changes === 'function' ? changes(state.requests) : changes) } }))

  const failed = (error: unknown): Partial<RequestsState> =>
    isOperatorError(error) && error.code === 'CONFLICT' ? { off: true, error: null, loaded: true } : { error: messageOf(error) }

  /** The first page, replacing every row shown (a new query, or the bar after more than a page arrived). */
  async function loadFirstPage(): Promise<void> {
    const { filters, generation } = get().requests
    try {
      const answer = await call('requests.list', { ...requestFilterInput(filters), take: REQUESTS_PAGE_SIZE })
      if (get().requests.generation !== generation) return
      patch({
        rows: answer.requests,
        next: answer.next,
        dropped: answer.dropped,
        loaded: true,
        error: null,
        off: false,
        held: [],
        heldMore: false,
      })
    } catch (error) {
      if (get().requests.generation === generation) patch(failed(error))
    }
  }

  /**
   * The first page again, after new entries were written. At the top, the new rows go above
   * those shown; scrolled down, they are held behind the bar and the rows stay where they are.
   */
  async function refreshFirstPage(): Promise<void> {
    const before = get().requests
    if (!before.loaded || before.off || before.error) return loadFirstPage()
    const { filters, generation } = before
    try {
      const answer = await call('requests.list', { ...requestFilterInput(filters), take: REQUESTS_PAGE_SIZE })
      const requests = get().requests
      if (requests.generation !== generation) return
      const newestShown = requests.rows[0]?.id ?? 0
      const newer = answer.requests.filter((row) => row.id > newestShown)
      // The whole page is new and more follow: rows between it and those shown were not fetched.
      const gap = newer.length === answer.requests.length && answer.next !== null
      if (requests.atTop || requests.rows.length === 0) {
        // Nothing shown yet, or a gap: the page as answered, with its cursor.
        if (answer.requests.length === 0) {
          if (answer.dropped !== requests.dropped) patch({ dropped: answer.dropped })
        } else if (gap || requests.rows.length === 0)
          patch({ rows: answer.requests, next: answer.next, held: [], heldMore: false, dropped: answer.dropped, error: null })
        else if (newer.length > 0 || requests.held.length > 0)
          patch({ rows: [...newer, ...requests.rows], held: [], heldMore: false, dropped: answer.dropped, error: null })
        else if (answer.dropped !== requests.dropped) patch({ dropped: answer.dropped })
      } else if (newer.length !== requests.held.length || gap !== requests.heldMore) {
        patch({ held: newer, heldMore: gap, dropped: answer.dropped, error: null })
      }
    } catch (error) {
      if (get().requests.generation === generation) patch(failed(error))
    }
  }

  let refreshPending: (() => void) | null = null

  return {
    requests: {
      filters: NO_REQUEST_FILTERS,
      generation: 0,
      rows: [],
      next: null,
      loaded: false,
      loadingMore: false,
      error: null,
      off: false,
      dropped: 0,
      atTop: true,
      held: [],
      heldMore: false,
      selectedId: null,
      detail: null,
      detailError: null,
      opened: false,
    },

    openRequests() {
      if (!get().requests.opened) patch({ opened: true })
      void refreshFirstPage()
    },

    setRequestFilters(changes) {
      patch((requests) => ({
        filters: { ...requests.filters, ...changes },
        generation: requests.generation + 1,
        rows: [],
        next: null,
        loaded: false,
        loadingMore: false,
        error: null,
        atTop: true,
        held: [],
        heldMore: false,
      }))
      void loadFirstPage()
    },

    async loadMoreRequests() {
      const { next, loadingMore, filters, generation } = get().requests
      if (next === null || loadingMore) return
      patch({ loadingMore: true })
      try {
        const answer = await call('requests.list', { ...requestFilterInput(filters), take: REQUESTS_PAGE_SIZE, before: next })
        if (get().requests.generation !== generation) return
        patch((requests) => ({
          rows: [...requests.rows, ...answer.requests],
          next: answer.next,
          dropped: answer.dropped,
          loadingMore: false,
          error: null,
        }))
      } catch (error) {
        if (get().requests.generation === generation) patch({ loadingMore: false, ...failed(error) })
      }
    },

    refreshRequests() {
      const { selectedId, detail } = get().requests
      if (selectedId !== null && detail === null) void get().selectRequest(selectedId)
      return refreshFirstPage()
    },

    requestsWritten() {
      if (refreshPending || get().ui.screen !== 'requests') return
      refreshPending = schedule(() => {
        refreshPending = null
        void refreshFirstPage()
      }, REQUESTS_REFRESH_MS)
    },

    setRequestsAtTop(atTop) {
      if (get().requests.atTop === atTop) return
      patch({ atTop })
      if (atTop && (get().requests.held.length > 0 || get().requests.heldMore)) void get().showNewRequests()
    },

    async showNewRequests() {
      const { heldMore } = get().requests
      patch((requests) => ({ atTop: true, ...(heldMore ? {} : { rows: [...requests.held, ...requests.rows], held: [], heldMore: false }) }))
      if (heldMore) await loadFirstPage()
    },

    async selectRequest(id) {
      if (id === null) return patch({ selectedId: null, detail: null, detailError: null })
      patch({ selectedId: id, detail: null, detailError: null })
      try {
        const detail = await call('requests.get', { id })
        if (get().requests.selectedId === id) patch({ detail })
      } catch (error) {
        if (get().requests.selectedId === id) patch({ detailError: messageOf(error) })
      }
    },
  }
}
