import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { WebSocket } from 'ws'
import { ClientFrameSchema, type ClientFrame, type ServerFrame } from '../../../shared/api/stream-frames'
import type { ApiKeyAuthenticator } from '../../ops/api-keys'
import type { Caller } from '../../ops/ops-context'
import { originAllowed } from '../cors'
import { REPEATED_QUERY_MESSAGE, repeatedQueryParameter } from '../repeated-query-check'
import { socketKeyCheck } from '../socket-key-check'
import type { FaultBook } from '../../faults/fault-book'

/** A connected call, as the socket sees it. */
export interface StreamSession {
  receive(frame: ClientFrame): void
  transportClosed(): void
}

export interface StreamRouteOptions {
  authenticator: ApiKeyAuthenticator
  /** Connects a socket to its conversation; undefined when refused (the transport was told why and closed). */
  connect: (
    jobId: string,
    caller: Caller,
    transport: { send(frame: ServerFrame, onWritten?: () => void): void; close(): void; unpaced?: boolean },
  ) => Promise<StreamSession | undefined>
  /** The origins /v1 allows: a page the CORS list refuses may not open a call either. */
  corsOrigins: () => readonly string[] | Promise<readonly string[]>
  onError: (error: unknown) => void
  /** Fault injection: a rule matching `GET /stream/{jobId}` delays the session, refuses it (an info frame with its code) or drops the socket. */
  faults?: FaultBook
}

/** A parameter given twice reaches the handler as an array (repeatedQueryInFrames): refused there, in a frame. */
type StreamRoute = { Params: { jobId: string }; Querystring: { api_key?: string | string[]; playback?: string | string[] } }

/**
 * The web SDK's socket, `/stream/{jobId}?api_key=<key>`. Browsers send no headers on a
 * WebSocket, so the key comes in the query (never logged: error logs drop the query string).
 * Every refusal is an `info` frame and a clean close (1000) after the handshake: a refused
 * handshake makes the SDK throw inside the page. Needs WebSockets.register first (web-sockets.ts).
 */
export function registerStreamRoute(app: FastifyInstance, options: StreamRouteOptions): void {
  const keyCheck = socketKeyCheck(options.authenticator, (request: FastifyRequest<StreamRoute>) => keyOf(request.query))
  const config = { repeatedQueryInFrames: true }
  app.get<StreamRoute>(
    '/stream/:jobId',
    { websocket: true, schema: { hide: true }, config, preValidation: keyCheck.preValidation },
    (socket, request) => {
      const transport = {
        // `?playback=unpaced`: a client that does not play the audio (a simulated caller) takes it as fast as it is made.
        unpaced: request.query.playback === 'unpaced',
        send: (frame: ServerFrame, onWritten?: () => void) => {
          if (socket.readyState !== socket.OPEN) return onWritten?.()
          let told = false
          const written = onWritten
            ? () => {
                if (told) return
                told = true
                onWritten()
              }
            : undefined
          // ws calls back once the frame was written (with an error when the socket closed first: the call ends then anyway).
          socket.send(JSON.stringify(frame), written)
          // Nothing left waiting in this process: it reached the kernel now; a busy event loop would run the callback later than that.
          if (socket.bufferedAmount === 0) written?.()
        },
        close: () => {
          if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(1000)
        },
      }
      const refuse = (code: string, message: string) => {
        transport.send({ event: 'info', code, message })
        transport.close()
      }
      const early: ClientFrame[] = []
      let session: StreamSession | undefined
      let closed = false
      socket.on('message', (data, isBinary) => {
        const frame = isBinary ? undefined : parseFrame(data)
        if (frame === 'ignored') return
        if (!frame) {
          transport.send({
            event: 'info',
            code: 'INVALID_FRAME',
            message: 'Frames are JSON text with an "event": start, media, mark, tools_response, stop or text',
          })
          return
        }
        if (session) session.receive(frame)
        else early.push(frame)
      })
      socket.on('close', () => {
        closed = true
        session?.transportClosed()
      })
      socket.on('error', (error) => options.onError(error))
      void (async () => {
        const origin = request.headers.origin
        if (origin !== undefined && !originAllowed(origin, await options.corsOrigins())) {
          return refuse(
            'FORBIDDEN',
            `The origin ${JSON.stringify(origin.slice(0, 200))} may not start calls; allow it with --cors-origin or the CORS setting`,
          )
        }
        const repeated = repeatedQueryParameter(request.query)
        if (repeated !== undefined) return refuse('VALIDATION_ERROR', `query.${repeated}: ${REPEATED_QUERY_MESSAGE}`)
        const { playback } = request.query
        if (playback !== undefined && playback !== 'unpaced' && playback !== 'realtime')
          return refuse(
            'VALIDATION_ERROR',
            `query.playback: must be realtime (the default) or unpaced, not ${JSON.stringify(String(playback).slice(0, 40))}`,
          )
        if (!keyOf(request.query)) return refuse('UNAUTHORIZED', 'Missing api_key: connect to /stream/{jobId}?api_key=<API key>')
        const caller = await keyCheck.outcomeOf(request)
        if (!caller) return refuse('UNAUTHORIZED', 'The API key is unknown, revoked or malformed')
        const fault =
          options.faults?.empty === false
            ? options.faults.matchRequest(caller.projectId, 'GET', request.url.split('?')[0] ?? request.url)
            : undefined
        if (fault) {
          if (fault.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
          if (fault.respond) return refuse(fault.respond.code, fault.respond.message)
          if (fault.dropConnection) return socket.terminate()
        }
        session = await options.connect(request.params.jobId, caller, transport)
        if (!session) return
        for (const frame of early.splice(0)) session.receive(frame)
        if (closed) session.transportClosed()
      })().catch((error: unknown) => {
        options.onError(error)
        refuse('INTERNAL', 'The call could not start inside VoiceDesk; the service log has the details')
      })
    },
  )
}

/** The key of `?api_key=`, when given once. */
function keyOf(query: StreamRoute['Querystring']): string | undefined {
  return typeof query.api_key === 'string' ? query.api_key : undefined
}

/** The events a client frame may carry, as the frame contract names them. */
const CLIENT_EVENTS = new Set<string>(ClientFrameSchema.options.map((frame) => frame.shape.event.value))

/** A client frame, 'ignored' for an event VoiceDesk does not know (a newer SDK's), undefined when it is not a frame at all. */
function parseFrame(data: WebSocket.RawData): ClientFrame | 'ignored' | undefined {
  let value: unknown
  try {
    value = JSON.parse(
      Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8'),
    )
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null || typeof (value as { event?: unknown }).event !== 'string') return undefined
  const parsed = ClientFrameSchema.safeParse(value)
  if (parsed.success) return parsed.data
  const known = CLIENT_EVENTS.has((value as { event: string }).event)
  return known ? undefined : 'ignored'
}
