import type { HarQuery, JournalEntryDetail, JournalPage, ListJournalQuery } from '../../shared/api/request-journal'
import type { JournalEntry, JournalFilter } from '../../store/request-journal'
import { curlCommandOf } from '../request-journal/curl-command'
import { harOf, type HarLog } from '../request-journal/har'
import type { RequestJournal } from '../request-journal/request-journal'
import { ServiceError } from './service-error'

/*
 * Reading the request journal, shared by its admin routes (/_voicedesk/requests…) and the
 * operator UI's operations (requests.list, requests.get, requests.har): one list, one detail
 * and one HAR, whoever asks. A caller sees its own project's entries only.
 */

/** What the operator UI answers while the journal is off (`--journal off`): /_voicedesk has no routes then (404). */
export function journalOffError(): ServiceError {
  return new ServiceError('CONFLICT', 'The request journal is off (serve --journal on)')
}

/** An entry in a list: what happened, without headers and bodies (those are in the detail). */
function journalSummaryOf(entry: JournalEntry): JournalPage['requests'][number] {
  return {
    id: entry.id,
    kind: entry.kind,
    startedAt: entry.startedAt,
    method: entry.method,
    path: entry.path,
    query: entry.query,
    status: entry.status,
    latencyMs: entry.latencyMs,
    keyHint: entry.keyHint,
    resourceId: entry.resourceId,
  }
}

function filterOf(projectId: string, query: Omit<ListJournalQuery, 'take'>, limit: number): JournalFilter {
  return {
    projectId,
    method: query.method,
    pathPrefix: query.path,
    statusClass: query.status,
    from: query.from,
    to: query.to,
    before: query.before,
    limit,
  }
}

/** A page, newest first, and the cursor of the next (null on the last). */
export function listJournalPage(journal: RequestJournal, projectId: string, query: ListJournalQuery): JournalPage {
  const { take, ...filters } = query
  // One more than asked: whether a next page exists, without counting.
  const entries = journal.list(filterOf(projectId, filters, take + 1))
  const page = entries.slice(0, take)
  return {
    requests: page.map(journalSummaryOf),
    next: entries.length > take ? (page.at(-1)?.id ?? null) : null,
    dropped: journal.dropped,
  }
}

/** One entry with everything, and a curl command that sends it again to `baseUrl`; NOT_FOUND outside the project. */
export function journalEntryDetail(journal: RequestJournal, projectId: string, id: number, baseUrl: string): JournalEntryDetail {
  const entry = journal.get(projectId, id)
  if (!entry) throw new ServiceError('NOT_FOUND', `No journaled request with id ${id} in this project`)
  const { projectId: _projectId, ...shown } = entry
  return { ...shown, curl: curlCommandOf(entry, baseUrl) }
}

/** The newest `take` entries matching, as a HAR 1.2 log (oldest first). */
export function journalHar(journal: RequestJournal, projectId: string, query: HarQuery, baseUrl: string, version: string): HarLog {
  const { take, ...filters } = query
  return harOf(journal.list(filterOf(projectId, filters, take)), baseUrl, version)
}
