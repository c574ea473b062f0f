import type { FastifyRequest } from 'fastify'
import type { ApiKeyAuthenticator } from '../ops/api-keys'
import type { Caller } from '../ops/ops-context'
import { ServiceError } from '../ops/service-error'
import type { RequestGate } from './request-gates'

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null
  }
}

/**
 * Every route of the scope it guards needs a valid key. Runs on request, before the body is
 * read, so an unauthenticated caller cannot make the service parse anything. A key known since
 * the database last changed is answered at once, without a promise (every request would pay
 * for one otherwise).
 */
export function apiKeyGate(authenticator: ApiKeyAuthenticator): RequestGate {
  return (request) => {
    const known = authenticator.knownCaller(request.headers.authorization)
    if (known) {
      request.caller = known
      return undefined
    }
    return authenticator.authenticate(request.headers.authorization).then((caller) => {
      if (caller) {
        request.caller = caller
        return undefined
      }
      const message = request.headers.authorization
        ? 'The API key is unknown, revoked or malformed'
        : 'Missing Authorization header: send "Authorization: Token <API key>"'
      return new ServiceError('UNAUTHORIZED', message)
    })
  }
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('callerOf used on a route without apiKeyGate')
  return request.caller
}
