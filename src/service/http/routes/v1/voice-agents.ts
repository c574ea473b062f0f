import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import {
  CloneVoiceAgentBodySchema,
  CloneVoiceAgentQuerySchema,
  CreateVoiceAgentBodySchema,
  DeletedEnvelopeSchema,
  ListVoiceAgentsQuerySchema,
  UpdateVoiceAgentBodySchema,
  VoiceAgentEnvelopeSchema,
  type VoiceAgentEnvelope,
  VoiceAgentIdParamsSchema,
  VoiceAgentListEnvelopeSchema,
  VoiceAgentTemplatesEnvelopeSchema,
} from '../../../../shared/api/voice-agents'
import type { OpsContext } from '../../../ops/ops-context'
import {
  cloneVoiceAgent,
  createVoiceAgent,
  deleteVoiceAgent,
  getVoiceAgentEnvelopeBytes,
  knownVoiceAgentEnvelopeBytes,
  listTemplates,
  listVoiceAgents,
  updateVoiceAgent,
} from '../../../ops/voice-agents'
import { BODY_ERRORS, errorResponses, SECURITY } from '../../route-schemas'
import { callerOf } from '../../auth'

const tags = ['Voice agents']

export function registerVoiceAgentRoutes(app: FastifyInstance, context: OpsContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.get('/voice-agents/templates', {
    schema: {
      tags,
      summary: 'List agent templates',
      operationId: 'listVoiceAgentTemplates',
      security: SECURITY,
      response: { 200: VoiceAgentTemplatesEnvelopeSchema, ...errorResponses() },
    },
    handler: async () => ok(listTemplates(context)),
  })

  routes.post('/voice-agents/clone', {
    schema: {
      tags,
      summary: 'Clone a template or an agent',
      operationId: 'cloneVoiceAgent',
      security: SECURITY,
      querystring: CloneVoiceAgentQuerySchema,
      body: CloneVoiceAgentBodySchema,
      response: { 200: VoiceAgentEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 404) },
    },
    handler: async (request) => ok(await cloneVoiceAgent(context, callerOf(request), request.query.voiceAgentId, request.body)),
  })

  routes.post('/voice-agents', {
    schema: {
      tags,
      summary: 'Create a voice agent',
      operationId: 'createVoiceAgent',
      security: SECURITY,
      body: CreateVoiceAgentBodySchema,
      response: { 200: VoiceAgentEnvelopeSchema, ...errorResponses(...BODY_ERRORS) },
    },
    handler: async (request) => ok(await createVoiceAgent(context, callerOf(request), request.body)),
  })

  routes.get('/voice-agents', {
    schema: {
      tags,
      summary: 'List voice agents',
      operationId: 'listVoiceAgents',
      security: SECURITY,
      querystring: ListVoiceAgentsQuerySchema,
      response: { 200: VoiceAgentListEnvelopeSchema, ...errorResponses(400) },
    },
    handler: async (request) => ok(await listVoiceAgents(context, callerOf(request), request.query)),
  })

  routes.get('/voice-agents/:voiceAgentId', {
    schema: {
      tags,
      summary: 'Read a voice agent',
      operationId: 'getVoiceAgent',
      security: SECURITY,
      params: VoiceAgentIdParamsSchema,
      response: { 200: VoiceAgentEnvelopeSchema, ...errorResponses(404) },
    },
    // The hot read path sends prepared JSON bytes, which Fastify passes through unserialized;
    // the response schema above still documents it, and the tests parse it with that schema.
    // Not an async handler: an agent read since the database last changed is sent at once, with no promise.
    handler: (request, reply) => {
      const send = (bytes: Buffer): void => {
        reply.type('application/json; charset=utf-8').send(bytes as unknown as VoiceAgentEnvelope)
      }
      const caller = callerOf(request)
      const known = knownVoiceAgentEnvelopeBytes(context, caller, request.params.voiceAgentId)
      if (known) return send(known)
      return getVoiceAgentEnvelopeBytes(context, caller, request.params.voiceAgentId).then(send)
    },
  })

  routes.patch('/voice-agents/:voiceAgentId', {
    schema: {
      tags,
      summary: 'Update a voice agent',
      operationId: 'updateVoiceAgent',
      security: SECURITY,
      params: VoiceAgentIdParamsSchema,
      body: UpdateVoiceAgentBodySchema,
      response: { 200: VoiceAgentEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 404) },
    },
    handler: async (request) => ok(await updateVoiceAgent(context, callerOf(request), request.params.voiceAgentId, request.body)),
  })

  routes.delete('/voice-agents/:voiceAgentId', {
    schema: {
      tags,
      summary: 'Delete a voice agent (its numbers become unassigned)',
      operationId: 'deleteVoiceAgent',
      security: SECURITY,
      params: VoiceAgentIdParamsSchema,
      response: { 200: DeletedEnvelopeSchema, ...errorResponses(404) },
    },
    handler: async (request) => ok(await deleteVoiceAgent(context, callerOf(request), request.params.voiceAgentId)),
  })
}
