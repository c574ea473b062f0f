import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import {
  ConversationEnvelopeSchema,
  ConversationIdParamsSchema,
  ConversationInitBodySchema,
  ConversationInitEnvelopeSchema,
} from '../../../../shared/api/conversations'
import type { OpsContext } from '../../../ops/ops-context'
import { getConversation, initConversation, listMinimalCalls } from '../../../ops/conversations'
import { MinimalCallListEnvelopeSchema, MinimalCallListQuerySchema } from '../../../../shared/api/calls'
import { BODY_ERRORS, errorResponses, SECURITY } from '../../route-schemas'
import { callerOf } from '../../auth'

const tags = ['Conversations']

/** The web SDK's two HTTP calls: start a conversation, and read it once the call ended. */
export function registerConversationRoutes(app: FastifyInstance, context: OpsContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.post('/voice-agents/conversation-init', {
    schema: {
      tags,
      summary: 'Start a conversation with a voice agent (then connect its socket: /stream/{jobId}?api_key=<key>)',
      operationId: 'initConversation',
      security: SECURITY,
      body: ConversationInitBodySchema,
      response: { 200: ConversationInitEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 404) },
    },
    handler: async (request) => ok(await initConversation(context, callerOf(request), request.body)),
  })

  routes.get('/voice-agents/conversation/:jobId', {
    schema: {
      tags,
      summary: 'Read a conversation: status, transcript, outcome, recording',
      description: 'A `?jobId=` in the query (the web SDK sends one) is ignored: the path names the conversation.',
      operationId: 'getConversation',
      security: SECURITY,
      params: ConversationIdParamsSchema,
      response: { 200: ConversationEnvelopeSchema, ...errorResponses(404) },
    },
    handler: async (request) => ok(await getConversation(context, callerOf(request), request.params.jobId)),
  })

  routes.get('/voice-agents/conversations/minimal-list', {
    config: { repeatableQuery: ['status'] },
    schema: {
      tags,
      summary: 'List calls (the light list): newest first, by agent, status and time, in pages',
      operationId: 'listMinimalCalls',
      security: SECURITY,
      querystring: MinimalCallListQuerySchema,
      response: { 200: MinimalCallListEnvelopeSchema, ...errorResponses(400, 404) },
    },
    handler: async (request) => ok(await listMinimalCalls(context, callerOf(request), request.query)),
  })
}
