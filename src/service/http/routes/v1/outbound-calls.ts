import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import { JobEnvelopeSchema } from '../../../../shared/api/jobs'
import { StartCallBodySchema } from '../../../../shared/api/outbound-calls'
import { toJobDto } from '../../../ops/jobs'
import type { OpsContext } from '../../../ops/ops-context'
import { placeOutboundCall } from '../../../ops/outbound-calls'
import { callerOf } from '../../auth'
import { BODY_ERRORS, errorResponses, SECURITY } from '../../route-schemas'

/** The agent calls someone: here, a softphone registered on the SIP line (docs/api.md, "The SIP line"). */
export function registerOutboundCallRoutes(app: FastifyInstance, context: OpsContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.post('/voice-agents/call', {
    schema: {
      tags: ['Conversations'],
      summary: 'Start a call: the agent rings a softphone registered on the SIP line (or an allowed sip: URI)',
      description:
        'Answers the conversation (channel SIP, direction outbound) once the phone rings. Busy, no answer and a refusal end it FAILED (CALL_BUSY, CALL_NO_ANSWER, CALL_REJECTED, CALL_UNREACHABLE); the SIP line off or the user not registered is 409, an unknown SIP user 404, a sip: URI off the allow-list 403, the call cap 503.',
      operationId: 'startCall',
      security: SECURITY,
      body: StartCallBodySchema,
      response: { 200: JobEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 403, 404, 409, 503) },
    },
    handler: async (request) => {
      const { toNumber, fromNumber, voiceAgentId, params, webhookUrl, webhookAuth } = request.body
      const target = /^sips?:/i.test(toNumber) ? { uri: toNumber } : { sipUser: toNumber }
      const job = await placeOutboundCall(context, callerOf(request), { voiceAgentId, target, fromNumber, params, webhookUrl, webhookAuth })
      return ok(toJobDto(context, job))
    },
  })
}
