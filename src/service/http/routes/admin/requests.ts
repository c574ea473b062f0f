import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import { HarQuerySchema, JournalEntryParamsSchema, ListJournalQuerySchema } from '../../../../shared/api/request-journal'
import { journalEntryDetail, journalHar, listJournalPage } from '../../../ops/request-journal'
import type { RequestJournal } from '../../../request-journal/request-journal'
import { callerOf } from '../../auth'

export interface RequestJournalRouteOptions {
  journal: RequestJournal
  /** This service's address now (the curl commands and the HAR's URLs point at it). */
  baseUrl: () => string
  version: string
}

/**
 * The request journal's admin API, under /_voicedesk (a key's project sees its own requests
 * only). Not in /v1's OpenAPI document: these are VoiceDesk's tools, not the cloud API. The
 * operator UI reads the same through src/service/ops/request-journal.ts.
 */
export function registerRequestJournalRoutes(app: FastifyInstance, options: RequestJournalRouteOptions): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()
  const { journal } = options

  routes.get('/requests', { schema: { hide: true, querystring: ListJournalQuerySchema } }, async (request) =>
    ok(listJournalPage(journal, callerOf(request).projectId, request.query)),
  )

  routes.get('/requests.har', { schema: { hide: true, querystring: HarQuerySchema } }, async (request, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8')
    reply.header('content-disposition', 'attachment; filename="voicedesk-requests.har"')
    return journalHar(journal, callerOf(request).projectId, request.query, options.baseUrl(), options.version)
  })

  routes.get('/requests/:id', { schema: { hide: true, params: JournalEntryParamsSchema } }, async (request) =>
    ok(journalEntryDetail(journal, callerOf(request).projectId, request.params.id, options.baseUrl())),
  )
}
