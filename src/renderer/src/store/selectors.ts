import type { OperatorJobListItem } from '../../../shared/ipc/operations'
import type { OperatorAgent } from '../../../shared/ipc/operations'
import type { AppState } from './app-store'
import { JOBS_PAGE_SIZE, type JobsState } from './jobs-slice'

/** Pure functions of the state, grouped per slice; components pass them to useAppStore. */

// ui
export const selectLocale = (state: AppState) => state.ui.locale
export const selectTheme = (state: AppState) => state.ui.theme
export const selectScreen = (state: AppState) => state.ui.screen
export const selectToasts = (state: AppState) => state.ui.toasts
export const selectUnauthorized = (state: AppState) => state.ui.unauthorized
export const selectOpenAgentId = (state: AppState) => state.ui.openAgentId
export const selectPendingLeave = (state: AppState) => state.ui.pendingLeave
export const selectUnsavedDraft = (state: AppState) => state.ui.unsavedDraft

// service
export const selectServiceInfo = (state: AppState) => state.service.info
export const selectVoices = (state: AppState) => state.service.voices
export const selectRunningJobs = (state: AppState) => state.service.runningJobs
export const selectPendingJobs = (state: AppState) => state.service.pendingJobs
export const selectLink = (state: AppState) => state.link
export const selectLinkReturns = (state: AppState) => state.link.returns

// faults
export const selectFaults = (state: AppState) => state.faults
export const selectActiveFaults = (state: AppState) => state.faults.active

// agents, templates, numbers
export const selectAgents = (state: AppState) => state.agents
export const selectAgentChoices = (state: AppState) => state.agentChoices
export const selectTemplates = (state: AppState) => state.templates
export const selectNumbers = (state: AppState) => state.numbers
export const selectAgentById =
  (id: string | null) =>
  (state: AppState): OperatorAgent | undefined =>
    id === null ? undefined : state.agents.items.find((agent) => agent.id === id)

/** A curl line that lists templates: what a developer pastes first. The key is a placeholder. */
export function curlExample(serviceUrl: string): string {
  return `curl -H "Authorization: Token <your-api-key>" ${serviceUrl}/v1/voice-agents/templates`
}

// jobs
export const selectJobs = (state: AppState) => state.jobs
export const selectJobDetail = (state: AppState) => state.jobs.detail

/** The page (1-based) a row index falls in. */
export const pageOfIndex = (index: number) => Math.floor(index / JOBS_PAGE_SIZE) + 1

/** Pages covering rows first..last (inclusive). */
export function pagesForRange(first: number, last: number): number[] {
  if (last < first) return []
  const pages: number[] = []
  for (let page = pageOfIndex(first); page <= pageOfIndex(last); page += 1) pages.push(page)
  return pages
}

/** The row at an index of the whole filtered list, if its page is loaded. */
export function jobAt(jobs: Pick<JobsState, 'pages'>, index: number): OperatorJobListItem | undefined {
  return jobs.pages[pageOfIndex(index)]?.[index % JOBS_PAGE_SIZE]
}

/** Rows the table should reserve: the filtered count once known. */
export const jobRowCount = (jobs: Pick<JobsState, 'filtered'>) => jobs.filtered ?? 0

// webhooks
export const selectDeliveries = (state: AppState) => state.deliveries

// requests
export const selectRequests = (state: AppState) => state.requests
export const selectRequestDetail = (state: AppState) => state.requests.detail
