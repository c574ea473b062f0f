import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import {
  AgentVersionEnvelopeSchema,
  AgentVersionListEnvelopeSchema,
  AgentVersionParamsSchema,
  ListAgentVersionsQuerySchema,
} from '../../../../shared/api/agent-versions'
import { VoiceAgentEnvelopeSchema, VoiceAgentIdParamsSchema } from '../../../../shared/api/voice-agents'
import type { OpsContext } from '../../../ops/ops-context'
import { getAgentVersion, listAgentVersions, restoreAgentVersion } from '../../../ops/agent-versions'
import { errorResponses, SECURITY } from '../../route-schemas'
import { callerOf } from '../../auth'

const tags = ['Voice agents']

/** Agent versions (docs/api.md, "Agent versions"). */
export function registerAgentVersionRoutes(app: FastifyInstance, context: OpsContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.get('/voice-agents/:voiceAgentId/versions', {
    schema: {
      tags,
      summary: "List an agent's versions, newest first",
      operationId: 'listVoiceAgentVersions',
      security: SECURITY,
      params: VoiceAgentIdParamsSchema,
      querystring: ListAgentVersionsQuerySchema,
      response: { 200: AgentVersionListEnvelopeSchema, ...errorResponses(400, 404) },
    },
    handler: async (request) => ok(await listAgentVersions(context, callerOf(request), request.params.voiceAgentId, request.query)),
  })

  routes.get('/voice-agents/:voiceAgentId/versions/:version', {
    schema: {
      tags,
      summary: 'Read a version of an agent (the whole agent as it was)',
      operationId: 'getVoiceAgentVersion',
      security: SECURITY,
      params: AgentVersionParamsSchema,
      response: { 200: AgentVersionEnvelopeSchema, ...errorResponses(400, 404) },
    },
    handler: async (request) => ok(await getAgentVersion(context, callerOf(request), request.params.voiceAgentId, request.params.version)),
  })

  routes.post('/voice-agents/:voiceAgentId/versions/:version/restore', {
    schema: {
      tags,
      summary: 'Restore a version: a new version equal to it',
      operationId: 'restoreVoiceAgentVersion',
      security: SECURITY,
      params: AgentVersionParamsSchema,
      response: { 200: VoiceAgentEnvelopeSchema, ...errorResponses(400, 404) },
    },
    handler: async (request) =>
      ok(await restoreAgentVersion(context, callerOf(request), request.params.voiceAgentId, request.params.version)),
  })
}
