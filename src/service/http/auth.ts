import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ApiKeyAuthenticator } from '../ops/api-keys'
import type { Caller } from '../ops/ops-context'
import { ServiceError } from '../ops/service-error'

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null
  }
}

/**
 * Every route of the encapsulating plugin needs a valid key. Runs on request, before the
 * body is read, so an unauthenticated caller cannot make the service parse anything.
 */
export function requireApiKey(app: FastifyInstance, authenticator: ApiKeyAuthenticator): void {
  app.addHook('onRequest', async (request) => {
    const caller = await authenticator.authenticate(request.headers.authorization)
    if (!caller) {
      throw new ServiceError(
        'UNAUTHORIZED',
        request.headers.authorization ? 'The API key is unknown, revoked or malformed' : 'Missing Authorization header: send "Authorization: Token <API key>"',
      )
    }
    request.caller = caller
  })
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('callerOf used on a route without requireApiKey')
  return request.caller
}
