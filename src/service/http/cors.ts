import type { FastifyReply, FastifyRequest } from 'fastify'
import { errorEnvelope } from '../../shared/api/errors'
import type { RequestGate } from './request-gates'

/** How long a browser may reuse a preflight's answer (Chromium caps it at two hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 7_200
const ALLOWED_METHODS = 'GET, POST, PATCH, DELETE'
const ALLOWED_HEADERS = 'authorization, content-type'

/** Whether `origin` is on the list: exact (case-insensitive), `scheme://host:*` for any port, or `*`. */
export function originAllowed(origin: string, allowList: readonly string[]): boolean {
  const candidate = origin.toLowerCase()
  for (const entry of allowList) {
    if (entry === '*') return true
    const pattern = entry.toLowerCase().replace(/\/$/, '')
    if (pattern.endsWith(':*')) {
      const base = pattern.slice(0, -2)
      if (candidate === base || (candidate.startsWith(`${base}:`) && /^\d+$/.test(candidate.slice(base.length + 1)))) return true
    } else if (candidate === pattern) {
      return true
    }
  }
  return false
}

/**
 * CORS for /v1/* only, for an allow-list of origins read at every request (so a changed
 * setting counts at once). A root gate, so it runs before the key check: preflights need no
 * key, and every real answer (errors too, a 401) carries the allow headers a browser needs to
 * read it. A refused origin gets no CORS header at all (its preflight: 403 in the envelope).
 * /ipc, /app, /media, /preview and the event stream stay same-origin: no header there.
 */
export function corsGate(allowList: () => readonly string[] | Promise<readonly string[]>): RequestGate {
  /** Sets the headers; answers a preflight itself and then says so (true): the request goes no further. */
  const answer = async (request: FastifyRequest, reply: FastifyReply, origin: string): Promise<boolean> => {
    const list = await allowList()
    const allowed = originAllowed(origin, list)
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined
    if (allowed) allowOrigin(reply, list.includes('*') ? '*' : origin)
    else reply.header('vary', 'Origin')
    if (!preflight) return false
    if (!allowed) {
      reply
        .status(403)
        .send(
          errorEnvelope(
            'FORBIDDEN',
            `The origin ${JSON.stringify(origin.slice(0, 200))} may not call /v1 from a browser; allow it with --cors-origin or the CORS setting`,
          ),
        )
      return true
    }
    reply
      .status(204)
      .header('access-control-allow-methods', ALLOWED_METHODS)
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS))
      .send()
    return true
  }
  // A request without Origin (every server-to-server call) costs two reads, no promise.
  return (request, reply) => {
    const origin = request.headers.origin
    if (origin === undefined || !request.url.startsWith('/v1/')) return undefined
    return answer(request, reply, origin).then((answered) => (answered ? 'answered' : undefined))
  }
}

function allowOrigin(reply: FastifyReply, value: string): void {
  reply
    .header('access-control-allow-origin', value)
    .header('vary', 'Origin')
    .header('access-control-expose-headers', 'Retry-After, X-Total-Count')
}
