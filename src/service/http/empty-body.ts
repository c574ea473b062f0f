import { errorCodes, type FastifyInstance } from 'fastify'
import type { IncomingHttpHeaders } from 'node:http'

/** The request says it has no body: `Content-Length: 0` and not chunked. */
export function declaresEmptyBody(headers: IncomingHttpHeaders): boolean {
  return headers['content-length'] === '0' && headers['transfer-encoding'] === undefined
}

/**
 * One rule for every route: an empty body is no body, whatever type it declares. axios sends a
 * POST without data as `Content-Type: application/x-www-form-urlencoded` with
 * `Content-Length: 0` (Pipedream's List Jobs), and a chunked body may end without a byte.
 * Registered for every type no other parser takes (`*`): such a body is answered 415 at its
 * first byte, without reading the rest (the error closes the connection); only its end with
 * no byte at all lets the request through, as one without a body.
 */
export function registerEmptyBodyRule(app: FastifyInstance): void {
  app.addContentTypeParser('*', (request, payload, done) => {
    // Unknown routes answer 404 whatever their body; a declared empty body has nothing to wait for.
    if (request.is404 || declaresEmptyBody(request.headers)) return done(null, undefined)
    const settle = (error: Error | null) => {
      payload.off('data', onData).off('end', onEnd).off('error', onError)
      done(error, undefined)
    }
    const onData = (chunk: Buffer) => {
      if (chunk.length > 0) settle(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE())
    }
    const onEnd = () => settle(null)
    const onError = (error: Error) => settle(error)
    payload.on('data', onData).once('end', onEnd).once('error', onError)
  })
}
