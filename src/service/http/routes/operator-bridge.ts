import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { createHash, timingSafeEqual } from 'node:crypto'
import { existsSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { join } from 'node:path'
import { errorEnvelope } from '../../../shared/api/errors'
import { BROWSER_BRIDGE, type IpcEvent } from '../../../shared/ipc/operations'
import { invokeOperation } from '../../operator/invoke-operation'
import type { OperatorEvents } from '../../operator/operator-events'
import type { OperatorHandlers } from '../../operator/operator-handlers'
import type { OperatorStreamHandlers } from '../../operator/operator-streams'
import { ServiceError } from '../../ops/service-error'
import { registerOperatorStreamRoute, type OperationFailureLogger } from './operator-streams'

export interface OperatorBridgeOptions {
  /** The browser transport's handler table (service.info says host 'browser'). */
  handlers: OperatorHandlers
  events: OperatorEvents
  /** The streams of the contract, over WebSockets (/ipc/streams/<name>); left out, none is served. */
  streams?: OperatorStreamHandlers
  /** The per-start UI token that /ipc needs. */
  uiToken: string
  /** The built renderer; /app/ answers 404 without it. */
  rendererDir?: string
}

/** A comment line on every event stream this often, so proxies and browsers keep it open. */
export const HEARTBEAT_MS = 15_000

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest()

/** Compares in constant time: hashing first gives both sides the same length. */
function tokenMatcher(uiToken: string): (candidate: string | undefined) => boolean {
  const expected = sha256(uiToken)
  return (candidate) => candidate !== undefined && timingSafeEqual(sha256(candidate), expected)
}

function bearerOf(request: FastifyRequest): string | undefined {
  return /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1]
}

/**
 * Browser mode: the operator UI served by `voicedesk serve` talks to the same handler table
 * as the Electron window, over HTTP.
 * - `POST /ipc/<operation>`: JSON input, answered 200 with the IpcResult (refusals included);
 *   `Authorization: Bearer <ui token>`, else 401 in the /v1 envelope. Body limits and bad
 *   JSON are answered in the envelope, by the app's own parser and error handler.
 * - `GET /ipc/events?token=`: server-sent events, one `data: <IpcEvent JSON>` each.
 * - `GET /ipc/streams/<name>?token=`: a WebSocket per stream (see operator-streams.ts).
 * - `GET /app/`: the built renderer.
 */
export async function registerOperatorBridge(
  app: FastifyInstance,
  options: OperatorBridgeOptions,
  logFailure: OperationFailureLogger,
): Promise<void> {
  const isUiToken = tokenMatcher(options.uiToken)
  /** Each open event stream, to the function that ends it. */
  const streams = new Map<ServerResponse, () => void>()

  // Event streams never end by themselves: closing the service ends them, or it would wait for the browser.
  // Ended with their subscription: events still come while the service closes (the journal's last batch).
  app.addHook('preClose', async () => {
    for (const end of [...streams.values()]) end()
  })

  await app.register(async (ipc) => {
    ipc.get(BROWSER_BRIDGE.eventsPath, { schema: { hide: true } }, async (request, reply) => {
      // EventSource sends no headers, so the token comes in the query.
      const { token } = request.query as { token?: string }
      if (!isUiToken(token))
        throw new ServiceError('UNAUTHORIZED', 'Missing or wrong UI token: open the link that `voicedesk serve` printed')
      reply.hijack()
      const stream = reply.raw
      stream.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      })
      // Nothing is written once the stream ended or broke: a write after its end would be an error nobody handles.
      const send = (text: string) => {
        if (!stream.writableEnded && !stream.destroyed) stream.write(text)
      }
      send(': connected\n\n')
      const unsubscribe = options.events.subscribe((event: IpcEvent) => send(`data: ${JSON.stringify(event)}\n\n`))
      const heartbeat = setInterval(() => send(': heartbeat\n\n'), HEARTBEAT_MS)
      heartbeat.unref()
      const end = () => {
        clearInterval(heartbeat)
        unsubscribe()
        streams.delete(stream)
        // Ended on our side too: a response left open keeps its connection from closing with the service.
        if (!stream.writableEnded) stream.end()
      }
      streams.set(stream, end)
      request.raw.socket.once('close', end)
      stream.once('close', end)
      // A broken connection: the stream is ended like a closed one (an error event with no listener would stop the process).
      stream.once('error', end)
    })

    if (options.streams) registerOperatorStreamRoute(ipc, { streams: options.streams, isUiToken, logFailure })

    ipc.register(async (operations) => {
      // Before the body is read: without the token nothing is parsed.
      operations.addHook('onRequest', async (request) => {
        if (!isUiToken(bearerOf(request))) {
          throw new ServiceError('UNAUTHORIZED', 'Missing or wrong UI token: send "Authorization: Bearer <ui token>"')
        }
      })
      operations.post('/ipc/:operation', { schema: { hide: true } }, async (request) => {
        const { operation } = request.params as { operation: string }
        return invokeOperation(options.handlers, operation, request.body, logFailure)
      })
    })
  })

  // Someone who types the service's address into a browser is looking for the UI.
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect(BROWSER_BRIDGE.appPath))

  const rendererDir = options.rendererDir
  if (rendererDir && existsSync(join(rendererDir, 'index.html'))) {
    await app.register(async (scope) => {
      await scope.register(fastifyStatic, {
        root: rendererDir,
        // Without its trailing slash, so that /app is redirected to /app/ (the page's relative ./assets/ need it).
        prefix: BROWSER_BRIDGE.appPath.replace(/\/$/, ''),
        index: ['index.html'],
        redirect: true,
        list: false,
        dotfiles: 'deny',
        // The page's own CSP is its <meta> (script-src 'self'); headers add what a meta cannot say.
        setHeaders: (response, path) => {
          response.header('x-content-type-options', 'nosniff')
          response.header('referrer-policy', 'no-referrer')
          response.header('content-security-policy', "frame-ancestors 'none'")
          response.header('cache-control', path.endsWith('.html') ? 'no-store' : 'private, max-age=31536000, immutable')
        },
      })
    })
  } else {
    app.get('/app', { schema: { hide: true } }, async (_request, reply) => reply.redirect(BROWSER_BRIDGE.appPath))
    app.get(`${BROWSER_BRIDGE.appPath}*`, { schema: { hide: true } }, async (_request, reply) =>
      reply.status(404).send(errorEnvelope('NOT_FOUND', 'The operator UI is not built here: run "npm run build" (out/renderer)')),
    )
  }
}
