import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import { HarQuerySchema, JournalEntryParamsSchema, ListJournalQuerySchema, type ListJournalQuery } from '../../../../shared/api/request-journal'
import type { JournalEntry, JournalFilter } from '../../../../store/request-journal'
import { ServiceError } from '../../../ops/service-error'
import { curlCommandOf } from '../../../request-journal/curl-command'
import { harOf } from '../../../request-journal/har'
import type { RequestJournal } from '../../../request-journal/request-journal'
import { callerOf } from '../../auth'

export interface RequestJournalRouteOptions {
  journal: RequestJournal
  /** This service's address now (the curl commands and the HAR's URLs point at it). */
  baseUrl: () => string
  version: string
}

/** An entry in a list: what happened, without headers and bodies (those are in the detail). */
function summaryOf(entry: JournalEntry) {
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
  return { projectId, method: query.method, pathPrefix: query.path, statusClass: query.status, from: query.from, to: query.to, before: query.before, limit }
}

/**
 * The request journal's admin API, under /_voicedesk (a key's project sees its own requests
 * only). Not in /v1's OpenAPI document: these are VoiceDesk's tools, not the cloud API.
 */
export function registerRequestJournalRoutes(app: FastifyInstance, options: RequestJournalRouteOptions): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()
  const { journal } = options

  routes.get('/requests', { schema: { hide: true, querystring: ListJournalQuerySchema } }, async (request) => {
    const { take, ...filters } = request.query
    // One more than asked: whether a next page exists, without counting.
    const entries = journal.list(filterOf(callerOf(request).projectId, filters, take + 1))
    const page = entries.slice(0, take)
    return ok({
      requests: page.map(summaryOf),
      next: entries.length > take ? page[page.length - 1]!.id : null,
      dropped: journal.dropped,
    })
  })

  routes.get('/requests.har', { schema: { hide: true, querystring: HarQuerySchema } }, async (request, reply) => {
    const { take, ...filters } = request.query
    const entries = journal.list(filterOf(callerOf(request).projectId, filters, take))
    reply.header('content-type', 'application/json; charset=utf-8')
    reply.header('content-disposition', 'attachment; filename="voicedesk-requests.har"')
    return harOf(entries, options.baseUrl(), options.version)
  })

  routes.get('/requests/:id', { schema: { hide: true, params: JournalEntryParamsSchema } }, async (request) => {
    const entry = journal.get(callerOf(request).projectId, request.params.id)
    if (!entry) throw new ServiceError('NOT_FOUND', `No journaled request with id ${request.params.id} in this project`)
    const { projectId: _projectId, ...shown } = entry
    return ok({ ...shown, curl: curlCommandOf(entry, options.baseUrl()) })
  })
}
