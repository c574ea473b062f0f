import type { AiContentJob, Job, JobStatus, JobType } from '../../../shared/api/jobs'
import type { SORT_FIELDS } from '../../../shared/api/jobs'
import type { WebhookDelivery } from '../../../shared/api/webhooks'
import type { IpcEvent, OperatorJobListItem } from '../../../shared/ipc/operations'
import { isOperatorError } from '../api/operator-error'
import type { Call } from '../api/call'
import type { GetState, SliceCreator } from './app-store'
import { messageOf } from '../api/operator-error'

/** Rows fetched per jobs.list call: the contract's largest page. */
export const JOBS_PAGE_SIZE = 100
/** Live events arrive in bursts (a batch of jobs finishing): refresh at most this often. */
export const JOB_EVENT_COALESCE_MS = 200
/** A call sends a webhook per turn: the detail shows this many of a job's deliveries, the journal has them all. */
export const JOB_DELIVERIES_SHOWN = 100

export type JobSortField = (typeof SORT_FIELDS)[number]

export interface JobsQuery {
  status: JobStatus | null
  type: JobType | null
  search: string
  /** Local calendar dates (YYYY-MM-DD, as a date input gives them), '' for no bound: jobs created from the start of `createdFrom` to the end of `createdTo`. */
  createdFrom: string
  createdTo: string
  sortField: JobSortField
  sortDirection: 'asc' | 'desc'
}

export interface JobDetail {
  id: string
  job: Job | null
  previewUrl: string | null
  /** Where this service plays the job's media (a translation: its transcription's), from jobs.get. */
  playableMediaUrl: string | null
  /** A translation's source job (its segments pair with the translation's), null otherwise or when it is gone. */
  source: Job | null
  /** The AI content of this job: itself when it is one, else the newest made from it. */
  aiContent: AiContentJob | null
  /** The job's webhook deliveries, oldest first (at most JOB_DELIVERIES_SHOWN: the newest of them). */
  deliveries: WebhookDelivery[]
  /** How many deliveries the job has in all (a long call sends more than are shown). */
  deliveriesTotal: number
  loading: boolean
  error: string | null
}

export interface JobsState {
  query: JobsQuery
  /** Bumped by every query change, so answers to an older query are dropped. */
  generation: number
  /** Null until the first page of this query answered. */
  total: number | null
  filtered: number | null
  /** 1-based page number -> its rows. */
  pages: Record<number, OperatorJobListItem[]>
  /** Pages shown from the last answer while a fresher one is on its way (after an event). */
  stale: Record<number, true>
  loading: Record<number, true>
  /** Pages the table shows now: these are refetched when an event says something changed. */
  visiblePages: number[]
  error: string | null
  selectedId: string | null
  detail: JobDetail | null
  /** Whether the table is scrolled to its top: there new rows appear at once; below, they wait behind the "N new jobs" bar. */
  atTop: boolean
  /** Rows that match the query and are not shown yet (held while scrolled down, so rows do not move under the pointer). */
  newJobs: number
}

export interface JobsSlice {
  jobs: JobsState
  setJobsQuery(changes: Partial<JobsQuery>): void
  /** The table reports the pages its visible rows fall in; missing or stale ones are fetched. */
  showJobPages(pages: number[]): void
  /** Fetches the shown pages again (after this UI created a job, before its event arrives). */
  refreshJobs(): void
  selectJob(id: string | null): void
  reloadJobDetail(): Promise<void>
  /** The table says whether it is scrolled to its top; back at the top, held rows are shown. */
  setJobsAtTop(atTop: boolean): void
  /** The "N new jobs" bar: shows the held rows (the table scrolls to the top). */
  showNewJobs(): void
  /** From a job.changed event. */
  jobChanged(job: ChangedJob): void
}

/** A job as the live `job.changed` event carries it. */
type ChangedJob = Extract<IpcEvent, { type: 'job.changed' }>['job']

export const INITIAL_JOBS_QUERY: JobsQuery = {
  status: null,
  type: null,
  search: '',
  createdFrom: '',
  createdTo: '',
  sortField: 'createdAt',
  sortDirection: 'desc',
}

/** The start of a local calendar day (YYYY-MM-DD), `days` later, as an ISO instant: the operator's day is the machine's. */
function startOfLocalDay(date: string, days = 0): string {
  // A part that is missing reads as NaN: an invalid date, as a malformed part would give.
  const [year = NaN, month = NaN, day = NaN] = date.split('-').map(Number)
  return new Date(year, month - 1, day + days).toISOString()
}

/** The list's input for a query: the filters, and the dates as the range of instants jobs.list takes ([from's start, the day after to's start)). */
export function jobsListInput(query: JobsQuery, page: number, take: number) {
  return {
    take,
    skip: page,
    search: query.search.trim() || undefined,
    status: query.status ?? undefined,
    type: query.type ?? undefined,
    createdFrom: query.createdFrom ? startOfLocalDay(query.createdFrom) : undefined,
    createdTo: query.createdTo ? startOfLocalDay(query.createdTo, 1) : undefined,
    sort: { field: query.sortField, direction: query.sortDirection },
  }
}

/** Whether a query narrows the list (the empty list then says "no job matches" rather than "no jobs yet"). */
export const isFilteredQuery = (query: JobsQuery) =>
  Boolean(query.search || query.status || query.type || query.createdFrom || query.createdTo)

export const createJobsSlice: SliceCreator<JobsSlice> = (set, get, { call, schedule }) => {
  const patch: PatchJobs = (changes) =>
    set((state) => ({ jobs: { ...state.jobs, ...(typeof changes === 'function' ? changes(state.jobs) : changes) } }))
  const rows = createJobRows(patch, get, call, schedule)

  return {
    jobs: {
      query: INITIAL_JOBS_QUERY,
      generation: 0,
      total: null,
      filtered: null,
      pages: {},
      stale: {},
      loading: {},
      visiblePages: [],
      error: null,
      selectedId: null,
      detail: null,
      atTop: true,
      newJobs: 0,
    },

    setJobsQuery(changes) {
      rows.forgetQuery()
      // A new query starts at the top (the table scrolls there), with every row it has.
      patch((jobs) => ({
        query: { ...jobs.query, ...changes },
        generation: jobs.generation + 1,
        pages: {},
        stale: {},
        loading: {},
        filtered: null,
        atTop: true,
        newJobs: 0,
      }))
      rows.ensurePages([1])
    },

    showJobPages(pages) {
      const unique = [...new Set(pages)].sort((a, b) => a - b)
      const current = get().jobs.visiblePages
      if (unique.length !== current.length || unique.some((page, index) => page !== current[index])) patch({ visiblePages: unique })
      rows.ensurePages(unique)
    },

    refreshJobs() {
      rows.refreshNow()
    },

    setJobsAtTop(atTop) {
      if (get().jobs.atTop === atTop) return
      patch({ atTop })
      if (atTop && rows.holding()) rows.refreshAll()
    },

    showNewJobs() {
      // The table goes to the top: its first page is what is shown next.
      patch({ atTop: true, visiblePages: [1] })
      rows.refreshAll()
    },

    selectJob(id) {
      if (id === null) return patch({ selectedId: null, detail: null })
      patch({
        selectedId: id,
        detail: {
          id,
          job: null,
          previewUrl: null,
          playableMediaUrl: null,
          source: null,
          aiContent: null,
          deliveries: [],
          deliveriesTotal: 0,
          loading: true,
          error: null,
        },
      })
      void get().reloadJobDetail()
    },

    async reloadJobDetail() {
      const id = get().jobs.selectedId
      if (id === null) return
      const stillSelected = () => get().jobs.selectedId === id
      try {
        const read = await readJobDetail(call, id, get().jobs.detail?.source ?? null)
        if (!stillSelected()) return
        patch({ detail: { id, ...read, loading: false, error: null } })
      } catch (error) {
        if (!stillSelected()) return
        patch((jobs) => ({ detail: jobs.detail && { ...jobs.detail, loading: false, error: messageOf(error) } }))
      }
    },

    jobChanged(job) {
      const detail = get().jobs.detail
      // The open job itself, or any AI content (it may have been made from the open job).
      if (detail && (detail.id === job.id || job.type === 'AI_CONTENT')) rows.detailTouchedBy(job.type)
      // Rows already shown take the new status at once; the refresh brings the rest. A job that is
      // not shown changes nothing: no new state, so the list does not render again for it.
      const pages = pagesWithJob(get().jobs.pages, job)
      if (pages) patch({ pages })
      rows.scheduleRefresh()
    },
  }
}

type PatchJobs = (changes: Partial<JobsState> | ((jobs: JobsState) => Partial<JobsState>)) => void

/**
 * The table's rows: pages fetched as they come into view, and refreshed live (coalesced) when
 * jobs change, held behind the "N new jobs" bar while the table is scrolled down.
 */
function createJobRows(patch: PatchJobs, get: GetState, call: Call, schedule: (run: () => void, ms: number) => () => void) {
  /** Pages that went stale while a request for them was on its way: fetched once more when it lands. */
  const fetchAgain = new Set<number>()

  async function fetchPage(page: number): Promise<void> {
    const { query, generation } = get().jobs
    patch((jobs) => ({ loading: { ...jobs.loading, [page]: true } }))
    try {
      const answer = await call('jobs.list', jobsListInput(query, page, JOBS_PAGE_SIZE))
      if (get().jobs.generation !== generation) return
      patch((jobs) => {
        const { [page]: _loading, ...loading } = jobs.loading
        const { [page]: _stale, ...stale } = jobs.stale
        return {
          pages: { ...jobs.pages, [page]: answer.jobs },
          loading,
          stale,
          total: answer.total,
          filtered: answer.filtered,
          error: null,
        }
      })
      if (fetchAgain.delete(page)) void fetchPage(page)
    } catch (error) {
      if (get().jobs.generation !== generation) return
      patch((jobs) => {
        const { [page]: _loading, ...loading } = jobs.loading
        return { loading, error: messageOf(error) }
      })
    }
  }

  function ensurePages(pages: readonly number[]): void {
    const jobs = get().jobs
    for (const page of pages) {
      if (jobs.loading[page]) continue
      if (jobs.pages[page] === undefined || jobs.stale[page]) void fetchPage(page)
    }
  }

  // Live refresh: every loaded page goes stale; the visible ones (and the first, where new jobs
  // land in the default order) are fetched again, the rest when they scroll into view.
  let refreshPending: (() => void) | null = null
  const detailTypesSeen = new Set<string>()
  /** The count of rows the table shows while new ones are held: the bar counts what came since. */
  let heldFrom: number | null = null

  /**
   * Scrolled down, a refresh would move the rows under the pointer when jobs were added above
   * them. So only the count is asked for (page 1, not shown); when it grew, the rows stay as they
   * are (their statuses still change in place) and the bar says how many are new.
   */
  async function refreshBelowTop(): Promise<void> {
    const { query, generation, filtered } = get().jobs
    if (heldFrom === null && filtered === null) return refreshAll()
    try {
      const answer = await call('jobs.list', jobsListInput(query, 1, 1))
      const jobs = get().jobs
      if (jobs.generation !== generation) return
      if (jobs.atTop) return refreshAll()
      const shown = heldFrom ?? jobs.filtered ?? answer.filtered
      if (answer.filtered > shown) {
        heldFrom = shown
        if (jobs.newJobs !== answer.filtered - shown) patch({ newJobs: answer.filtered - shown })
        if (jobs.detail && detailTypesSeen.size > 0) void get().reloadJobDetail()
        detailTypesSeen.clear()
      } else if (heldFrom === null) refreshAll()
    } catch {
      // The next event asks again; the rows shown stay as they are.
    }
  }

  function refreshNow(): void {
    if (get().jobs.atTop) refreshAll()
    else void refreshBelowTop()
  }

  function refreshAll(): void {
    heldFrom = null
    if (get().jobs.newJobs !== 0) patch({ newJobs: 0 })
    const jobs = get().jobs
    const stale: Record<number, true> = {}
    for (const page of Object.keys(jobs.pages)) stale[Number(page)] = true
    for (const page of Object.keys(jobs.loading)) fetchAgain.add(Number(page))
    patch({ stale })
    ensurePages(jobs.visiblePages.length > 0 ? jobs.visiblePages : [1])
    if (jobs.detail && detailTypesSeen.size > 0) void get().reloadJobDetail()
    detailTypesSeen.clear()
  }
  function scheduleRefresh(): void {
    if (refreshPending) return
    refreshPending = schedule(() => {
      refreshPending = null
      refreshNow()
    }, JOB_EVENT_COALESCE_MS)
  }

  return {
    ensurePages,
    refreshNow,
    refreshAll,
    scheduleRefresh,
    /** A new query: nothing of the old one is fetched again or held. */
    forgetQuery() {
      fetchAgain.clear()
      heldFrom = null
    },
    /** Whether new rows are held behind the bar. */
    holding: () => heldFrom !== null,
    /** A change that concerns the open job's detail: it is read again with the next refresh. */
    detailTouchedBy(type: string) {
      detailTypesSeen.add(type)
    },
  }
}

/**
 * What the detail pane shows of a job: the job, its deliveries, its AI content and (a finished
 * translation) its source. `shownSource` is the source already read for the open job: reused.
 */
async function readJobDetail(call: Call, id: string, shownSource: Job | null): Promise<Omit<JobDetail, 'id' | 'loading' | 'error'>> {
  const [{ job, previewUrl, playableMediaUrl }, { deliveries, deliveriesTotal }] = await Promise.all([
    call('jobs.get', { id }),
    call('webhooks.list', { jobId: id, take: JOB_DELIVERIES_SHOWN, skip: 1 }).then(
      // The journal lists newest first; a job's story reads oldest first (call.started … call.ended).
      (answer) => ({ deliveries: [...answer.deliveries].reverse(), deliveriesTotal: answer.filtered }),
      () => ({ deliveries: [], deliveriesTotal: 0 }),
    ),
  ])
  let aiContent: AiContentJob | null = null
  if (job.type === 'AI_CONTENT' || job.status === 'COMPLETED') {
    try {
      aiContent = await call('jobs.getAiContent', { id })
    } catch (error) {
      // A text job with no AI content made from it yet: NOT_FOUND, nothing to show.
      if (!isOperatorError(error) || (error.code !== 'NOT_FOUND' && error.code !== 'CONFLICT' && error.code !== 'VALIDATION_ERROR'))
        throw error
    }
  }
  // A finished translation's source, read once while the same one stays open (it no longer changes).
  let source: Job | null = null
  if (job.type === 'TRANSLATION' && job.status === 'COMPLETED' && job.relevantJobId) {
    source =
      shownSource?.id === job.relevantJobId
        ? shownSource
        : await call('jobs.get', { id: job.relevantJobId }).then(
            (answer) => answer.job,
            // Deleted or unreadable: the translation shows without its source beside it.
            () => null,
          )
  }
  return { job, previewUrl, playableMediaUrl, source, aiContent, deliveries, deliveriesTotal }
}

/** The loaded pages with a changed job's status and title in its row; null when no shown row changes. */
function pagesWithJob(shown: Record<number, OperatorJobListItem[]>, job: ChangedJob): Record<number, OperatorJobListItem[]> | null {
  let touched = false
  const pages: Record<number, OperatorJobListItem[]> = {}
  for (const [page, rows] of Object.entries(shown)) {
    const index = rows.findIndex((row) => row.id === job.id)
    const current = rows[index]
    if (current === undefined || (current.status === job.status && current.title === job.title)) pages[Number(page)] = rows
    else {
      touched = true
      pages[Number(page)] = rows.map((row, at) => (at === index ? { ...row, status: job.status, title: job.title } : row))
    }
  }
  return touched ? pages : null
}
