import type { FastifyInstance } from 'fastify'
import { errorEnvelope } from '../../shared/api/errors'

/**
 * One rule for every route: a query parameter given more than once (`?token=a&token=b`) is a
 * 400 VALIDATION_ERROR naming it. Handlers and schemas then only ever see single strings, so
 * no route can meet an array where it expects text.
 */
export function registerRepeatedQueryCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.includes('&')) return done() // one parameter or none: nothing can repeat
    const query = request.query as Record<string, unknown>
    for (const name in query) {
      if (Array.isArray(query[name])) {
        const path = `query.${name}`
        const message = 'Given more than once; send each query parameter once'
        return reply.status(400).send(errorEnvelope('VALIDATION_ERROR', `Invalid request: ${path}: ${message}`, [{ path, message }]))
      }
    }
    done()
  })
}
