import { errorEnvelope } from '../../shared/api/errors'
import type { RequestGate } from './request-gates'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A WebSocket route that answers a query parameter given twice in its own frames, after the
     * handshake (it calls repeatedQueryParameter), because its client throws on a refused handshake.
     */
    repeatedQueryInFrames?: boolean
    /** Query parameters this route takes several times (a list of values, as the cloud API's `?status=A&status=B`). */
    repeatableQuery?: readonly string[]
  }
}

/** Why a repeated parameter is refused, in the envelope and in a socket's frame alike. */
export const REPEATED_QUERY_MESSAGE = 'Given more than once; send each query parameter once'

/** The first query parameter given more than once, undefined when each is given once. */
export function repeatedQueryParameter(query: unknown, repeatable: readonly string[] = []): string | undefined {
  const parameters = query as Record<string, unknown>
  for (const name in parameters) if (Array.isArray(parameters[name]) && !repeatable.includes(name)) return name
  return undefined
}

/**
 * One rule for every route: a query parameter given more than once (`?token=a&token=b`) is a
 * 400 VALIDATION_ERROR naming it. Handlers and schemas then only ever see single strings, so
 * no route can meet an array where it expects text. Routes with `repeatedQueryInFrames` refuse
 * it themselves.
 */
export function repeatedQueryGate(): RequestGate {
  return (request, reply) => {
    if (!request.url.includes('&')) return undefined // one parameter or none: nothing can repeat
    const name = repeatedQueryParameter(request.query, request.routeOptions.config.repeatableQuery)
    if (name === undefined || request.routeOptions.config.repeatedQueryInFrames === true) return undefined
    const path = `query.${name}`
    reply
      .status(400)
      .send(
        errorEnvelope('VALIDATION_ERROR', `Invalid request: ${path}: ${REPEATED_QUERY_MESSAGE}`, [
          { path, message: REPEATED_QUERY_MESSAGE },
        ]),
      )
    return 'answered'
  }
}
