import type { FastifyRequest } from 'fastify'
import type { ApiKeyAuthenticator } from '../ops/api-keys'
import type { Caller } from '../ops/ops-context'

/**
 * A WebSocket route's key check, begun in `preValidation`, before the socket opens: the caller
 * is on the request by then, so the request journal files a session closed at once under its
 * project (checked after the upgrade, a close could beat it). The route's handler reads the
 * outcome with `outcomeOf` and answers a missing or wrong key in its own frames.
 */
export function socketKeyCheck<Request extends FastifyRequest>(
  authenticator: ApiKeyAuthenticator,
  keyOf: (request: Request) => string | undefined,
) {
  const checks = new WeakMap<object, Promise<Caller | undefined>>()
  return {
    preValidation: async (request: Request): Promise<void> => {
      const key = keyOf(request)
      const check = key ? authenticator.authenticate(`Token ${key}`) : Promise.resolve(undefined)
      checks.set(request, check)
      const caller = await check.catch(() => undefined)
      if (caller) request.caller = caller
    },
    /** The caller of the key, undefined when missing or unknown; rejects when the key could not be checked. */
    outcomeOf: (request: Request): Promise<Caller | undefined> => checks.get(request) ?? Promise.resolve(undefined),
  }
}
