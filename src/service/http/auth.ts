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
  // A callback hook: a key known since the database last changed is answered without a promise (every request pays for one otherwise).
  app.addHook('onRequest', (request, _reply, done) => {
    const known = authenticator.knownCaller(request.headers.authorization)
    if (known) {
      request.caller = known
      return done()
    }
    authenticator.authenticate(request.headers.authorization).then((caller) => {
      if (!caller) {
        const message = request.headers.authorization
          ? 'The API key is unknown, revoked or malformed'
          : 'Missing Authorization header: send "Authorization: Token <API key>"'
        return done(new ServiceError('UNAUTHORIZED', message))
      }
      request.caller = caller
      done()
    }, done)
  })
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('callerOf used on a route without requireApiKey')
  return request.caller
}
