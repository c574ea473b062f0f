import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import { ProjectEnvelopeSchema, StatisticsNumbersEnvelopeSchema, StatisticsNumbersQuerySchema } from '../../../../shared/api/projects'
import type { OpsContext } from '../../../ops/ops-context'
import { getCallerProject, statisticsNumbers } from '../../../ops/projects'
import { callerOf } from '../../auth'
import { errorResponses, SECURITY } from '../../route-schemas'

const tags = ['Projects']

export function registerProjectRoutes(app: FastifyInstance, context: OpsContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.get('/projects/by-api-key', {
    schema: {
      tags,
      summary: 'The project of the calling API key',
      operationId: 'getProjectByApiKey',
      security: SECURITY,
      response: { 200: ProjectEnvelopeSchema, ...errorResponses(404) },
    },
    handler: async (request) => ok(await getCallerProject(context, callerOf(request))),
  })

  routes.get('/projects/statistics/numbers', {
    schema: {
      tags,
      summary: 'Jobs, minutes, credits and conversations of the project over a period',
      operationId: 'getProjectStatisticsNumbers',
      security: SECURITY,
      querystring: StatisticsNumbersQuerySchema,
      response: { 200: StatisticsNumbersEnvelopeSchema, ...errorResponses(400, 403) },
    },
    handler: async (request) => ok(await statisticsNumbers(context, callerOf(request), request.query)),
  })
}
