import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  AnalyticsQuerySchema,
  CallAnalyticsEnvelopeSchema,
  ConversationExportQuerySchema,
  OverviewAnalyticsEnvelopeSchema,
  SatisfactionAnalyticsEnvelopeSchema,
  StatisticsChartEnvelopeSchema,
  StatisticsChartQuerySchema,
} from '../../../../shared/api/agent-analytics'
import { ok } from '../../../../shared/api/common'
import { callAnalytics, exportConversations, overviewAnalytics, satisfactionAnalytics, statisticsChart } from '../../../ops/agent-analytics'
import type { OpsContext } from '../../../ops/ops-context'
import { callerOf } from '../../auth'
import { errorResponses, SECURITY } from '../../route-schemas'

const tags = ['Agent analytics']

/** `/v1/agent-analytics/*` and `/v1/projects/statistics/chart` (docs/api.md, "Agent analytics"). */
export function registerAgentAnalyticsRoutes(app: FastifyInstance, context: OpsContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.get('/agent-analytics/overview', {
    schema: {
      tags,
      summary: "Calls, durations and calls over time, of one agent or the project's",
      operationId: 'getOverviewAnalytics',
      security: SECURITY,
      querystring: AnalyticsQuerySchema,
      response: { 200: OverviewAnalyticsEnvelopeSchema, ...errorResponses(400, 404) },
    },
    handler: async (request) => ok(await overviewAnalytics(context, callerOf(request), request.query)),
  })

  routes.get('/agent-analytics/satisfaction', {
    schema: {
      tags,
      summary: "Satisfaction and outcome figures, from the outcomes' rating fields and completeness",
      operationId: 'getSatisfactionAnalytics',
      security: SECURITY,
      querystring: AnalyticsQuerySchema,
      response: { 200: SatisfactionAnalyticsEnvelopeSchema, ...errorResponses(400, 404) },
    },
    handler: async (request) => ok(await satisfactionAnalytics(context, callerOf(request), request.query)),
  })

  routes.get('/agent-analytics/calls', {
    schema: {
      tags,
      summary: 'What the calls kept, counted: end reasons, durations, interruptions, pokes, tool calls, latency, outcome fields',
      operationId: 'getCallAnalytics',
      security: SECURITY,
      querystring: AnalyticsQuerySchema,
      response: { 200: CallAnalyticsEnvelopeSchema, ...errorResponses(400, 404) },
    },
    handler: async (request) => ok(await callAnalytics(context, callerOf(request), request.query)),
  })

  routes.get('/agent-analytics/conversations/export', {
    schema: {
      tags,
      summary: "An agent's calls of a period as CSV",
      operationId: 'exportConversations',
      security: SECURITY,
      querystring: ConversationExportQuerySchema,
      response: { 200: z.string().meta({ description: 'text/csv, one call a line, oldest first.' }), ...errorResponses(400, 404) },
    },
    handler: async (request, reply) => {
      const csv = await exportConversations(context, callerOf(request), request.query)
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="conversations-${request.query.voiceAgentId}.csv"`)
        .send(csv)
    },
  })

  routes.get('/projects/statistics/chart', {
    schema: {
      tags: ['Projects'],
      summary: "The project's jobs, credits and transcription minutes per day",
      operationId: 'getProjectStatisticsChart',
      security: SECURITY,
      querystring: StatisticsChartQuerySchema,
      response: { 200: StatisticsChartEnvelopeSchema, ...errorResponses(400, 404) },
    },
    handler: async (request) => ok(await statisticsChart(context, callerOf(request), request.query)),
  })
}
