import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import {
  DeliveryDetailEnvelopeSchema,
  DeliveryEnvelopeSchema,
  DeliveryIdParamsSchema,
  DeliveryListEnvelopeSchema,
  ListDeliveriesQuerySchema,
} from '../../../../shared/api/webhooks'
import type { OpsContext } from '../../../ops/ops-context'
import { getDelivery, listDeliveries, redeliver } from '../../../ops/webhooks'
import { callerOf } from '../../auth'
import { errorResponses, SECURITY } from '../../route-schemas'

const tags = ['Webhooks']

/** The delivery journal, for scripts: VoiceDesk's own endpoints, not the seed's. */
export function registerWebhookRoutes(app: FastifyInstance, context: OpsContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.get('/webhooks/deliveries', {
    schema: {
      tags,
      summary: 'List webhook deliveries, newest first (filters: status, jobId)',
      operationId: 'listWebhookDeliveries',
      security: SECURITY,
      querystring: ListDeliveriesQuerySchema,
      response: { 200: DeliveryListEnvelopeSchema, ...errorResponses(400) },
    },
    handler: async (request) => ok(await listDeliveries(context, callerOf(request), request.query)),
  })

  routes.get('/webhooks/deliveries/:deliveryId', {
    schema: {
      tags,
      summary: 'Read one delivery: its body and every attempt',
      operationId: 'getWebhookDelivery',
      security: SECURITY,
      params: DeliveryIdParamsSchema,
      response: { 200: DeliveryDetailEnvelopeSchema, ...errorResponses(400, 404) },
    },
    handler: async (request) => ok(await getDelivery(context, callerOf(request), request.params.deliveryId)),
  })

  routes.post('/webhooks/deliveries/:deliveryId/redeliver', {
    schema: {
      tags,
      summary: 'Send a delivery again now (same body and webhook-id), with a fresh retry schedule',
      operationId: 'redeliverWebhookDelivery',
      security: SECURITY,
      params: DeliveryIdParamsSchema,
      response: { 202: DeliveryEnvelopeSchema, ...errorResponses(400, 404, 409, 413, 415) },
    },
    handler: async (request, reply) => reply.code(202).send(ok(await redeliver(context, callerOf(request), request.params.deliveryId))),
  })
}
