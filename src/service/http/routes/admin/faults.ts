import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import { FaultIdParamsSchema, FaultRuleInputSchema } from '../../../../shared/api/faults'
import type { FaultBook } from '../../../faults/fault-book'
import { ServiceError } from '../../../ops/service-error'
import { callerOf } from '../../auth'

/**
 * Fault injection's admin API, under /_voicedesk (docs/api.md, "Fault injection"): the caller's
 * project's rules only. Not in /v1's OpenAPI document, and never faulted itself.
 */
export function registerFaultRoutes(app: FastifyInstance, faults: FaultBook): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.get('/faults', { schema: { hide: true } }, async (request) => ok({ faults: faults.list(callerOf(request).projectId) }))

  routes.post('/faults', { schema: { hide: true, body: FaultRuleInputSchema } }, async (request, reply) => {
    reply.code(201)
    return ok(faults.add(callerOf(request).projectId, request.body))
  })

  routes.delete('/faults', { schema: { hide: true } }, async (request) => ok({ removed: faults.clear(callerOf(request).projectId) }))

  routes.delete('/faults/:id', { schema: { hide: true, params: FaultIdParamsSchema } }, async (request) => {
    const removed = faults.remove(callerOf(request).projectId, request.params.id)
    if (!removed) throw new ServiceError('NOT_FOUND', `No fault rule with id ${JSON.stringify(request.params.id)} in this project`)
    return ok(removed)
  })
}
