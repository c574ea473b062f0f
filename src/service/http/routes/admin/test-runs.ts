import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import {
  AgentIdParamsSchema,
  ListTestRunsQuerySchema,
  StartTestRunBodySchema,
  AddScenarioBodySchema,
  TestRunIdParamsSchema,
  TestSuiteSchema,
} from '../../../../shared/api/test-suites'
import { ConversationIdParamsSchema } from '../../../../shared/api/conversations'
import { addScenario, scenarioFromConversation } from '../../../ops/test-scenarios'
import { keyOf } from '../../../ops/api-keys'
import type { OpsContext } from '../../../ops/ops-context'
import { ServiceError } from '../../../ops/service-error'
import { getStarterTestSuite, getTestRun, getTestSuite, listTestRuns, putTestSuite, startTestRun } from '../../../ops/test-runs'
import type { TestRunner } from '../../../test-runs/test-runner'
import { callerOf } from '../../auth'

/**
 * Agent test suites and runs, under /_voicedesk (docs/api.md, "Test suites and runs"): the
 * caller's project's agents and runs only. Not in /v1's OpenAPI document.
 */
export function registerTestRunRoutes(app: FastifyInstance, context: OpsContext, runner: TestRunner): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.put(
    '/agents/:agentId/test-suite',
    { schema: { hide: true, params: AgentIdParamsSchema, body: TestSuiteSchema } },
    async (request) => ok(await putTestSuite(context, callerOf(request), request.params.agentId, request.body)),
  )

  routes.get('/agents/:agentId/test-suite', { schema: { hide: true, params: AgentIdParamsSchema } }, async (request) =>
    ok(await getTestSuite(context, callerOf(request), request.params.agentId)),
  )

  routes.get('/agents/:agentId/test-suite/starter', { schema: { hide: true, params: AgentIdParamsSchema } }, async (request) =>
    ok(await getStarterTestSuite(context, callerOf(request), request.params.agentId)),
  )

  routes.post(
    '/agents/:agentId/test-suite/scenarios',
    { schema: { hide: true, params: AgentIdParamsSchema, body: AddScenarioBodySchema } },
    async (request) => ok(await addScenario(context, callerOf(request), request.params.agentId, request.body)),
  )

  routes.get('/conversations/:jobId/test-scenario', { schema: { hide: true, params: ConversationIdParamsSchema } }, async (request) =>
    ok(await scenarioFromConversation(context, callerOf(request), request.params.jobId)),
  )

  routes.post(
    '/agents/:agentId/test-runs',
    { schema: { hide: true, params: AgentIdParamsSchema, body: StartTestRunBodySchema } },
    async (request, reply) => {
      // The run's calls use the caller's own key on the socket; it was checked already, so it is there.
      const apiKey = keyOf(request.headers.authorization)
      if (!apiKey) throw new ServiceError('UNAUTHORIZED', 'Send the API key as "Authorization: Token <API key>" to start a run')
      reply.code(202)
      return ok(await startTestRun(context, runner, callerOf(request), apiKey, request.params.agentId, request.body))
    },
  )

  routes.get('/test-runs/:id', { schema: { hide: true, params: TestRunIdParamsSchema } }, async (request) =>
    ok(await getTestRun(context, callerOf(request), request.params.id)),
  )

  routes.get(
    '/agents/:agentId/test-runs',
    { schema: { hide: true, params: AgentIdParamsSchema, querystring: ListTestRunsQuerySchema } },
    async (request) => ok(await listTestRuns(context, callerOf(request), request.params.agentId, request.query.take)),
  )
}
