import type { FastifyInstance } from 'fastify'
import type { WebSocket } from 'ws'
import { BROWSER_STREAMS, IPC_STREAM_NAMES, type IpcStreamName } from '../../../shared/ipc/streams'
import type { IpcError } from '../../../shared/ipc/operations'
import {
  openOperatorStream,
  refuseStream,
  type OperatorStreamConnection,
  type OperatorStreamHandlers,
  type StreamCarrier,
} from '../../operator/operator-streams'

/** Logs what failed inside an operation (the caller gets INTERNAL and no details). */
export type OperationFailureLogger = (error: unknown, operation: string) => void

export interface OperatorStreamRouteOptions {
  streams: OperatorStreamHandlers
  /** The UI token check of the /ipc routes (constant time). */
  isUiToken: (candidate: string | undefined) => boolean
  logFailure: OperationFailureLogger
}

/** How long a socket may stay open without sending its input. */
const INPUT_WAIT_MS = 10_000

const NOT_JSON = Symbol('not JSON')

const refusal = (code: IpcError['code'], message: string): IpcError => ({ code, message, details: [] })

/**
 * Browser mode's carrier of the operator contract's streams: `GET /ipc/streams/<name>?token=<ui
 * token>` upgraded to a WebSocket (a browser's WebSocket sends no headers, so the token comes in
 * the query, as for /ipc/events; error logs drop the query string). The first text message is the
 * input, then JSON frames go each way. Every refusal (a page of another origin, a wrong token, an
 * unknown stream, a bad input) is a `refused` frame then a clean close (1000), so the page can
 * read why; a browser learns nothing from a refused handshake.
 *
 * /ipc stays same-origin: a page may open a stream only from the service's own origin (or send
 * no Origin at all, as programs do). A WebSocket is not bound by CORS, so this is checked here.
 */
export function registerOperatorStreamRoute(app: FastifyInstance, options: OperatorStreamRouteOptions): void {
  app.get<{ Params: { name: string }; Querystring: { token?: string } }>(
    BROWSER_STREAMS.path(':name' as IpcStreamName),
    { websocket: true, schema: { hide: true } },
    (socket, request) => {
      const carrier: StreamCarrier = {
        send: (frame) => {
          if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame))
        },
        close: () => {
          if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(1000)
        },
      }
      const origin = request.headers.origin
      if (origin !== undefined && !isSameOrigin(origin, request.headers.host)) {
        return refuseStream(
          carrier,
          refusal(
            'FORBIDDEN',
            `The origin ${JSON.stringify(origin.slice(0, 200))} may not open the operator UI's streams: only the UI this service serves may`,
          ),
        )
      }
      if (!options.isUiToken(request.query.token)) {
        return refuseStream(carrier, refusal('UNAUTHORIZED', 'Missing or wrong UI token: open the link that `voicedesk serve` printed'))
      }
      const name = request.params.name
      if (!(IPC_STREAM_NAMES as readonly string[]).includes(name)) {
        return refuseStream(carrier, refusal('NOT_FOUND', `No stream named ${JSON.stringify(name.slice(0, 100))}`))
      }
      let connection: OperatorStreamConnection | undefined
      const inputTimer = setTimeout(
        () =>
          refuseStream(
            carrier,
            refusal('VALIDATION_ERROR', `No input within ${INPUT_WAIT_MS / 1000} s: the first message of a stream is its input, as JSON`),
          ),
        INPUT_WAIT_MS,
      )
      inputTimer.unref()
      socket.on('message', (data, isBinary) => {
        const value = isBinary ? NOT_JSON : parseJson(data)
        if (!connection) {
          clearTimeout(inputTimer)
          if (value === NOT_JSON)
            return refuseStream(carrier, refusal('VALIDATION_ERROR', 'The first message of a stream is its input, as JSON text'))
          connection = openOperatorStream(options.streams, name, value, carrier, options.logFailure)
          return
        }
        if (value === NOT_JSON) return carrier.send({ type: 'info', code: 'INVALID_FRAME', message: 'Frame ignored: frames are JSON text' })
        connection.receive(value)
      })
      socket.on('close', () => {
        clearTimeout(inputTimer)
        connection?.closed()
      })
      socket.on('error', (error) => options.logFailure(error, `stream ${name}`))
    },
  )
}

/** Whether a page's Origin is this service's own (the Host it was reached at, already checked against the allow-list). */
function isSameOrigin(origin: string, host: string | undefined): boolean {
  return host !== undefined && origin.toLowerCase() === `http://${host.toLowerCase()}`
}

function parseJson(data: WebSocket.RawData): unknown {
  try {
    return JSON.parse(
      Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8'),
    ) as unknown
  } catch {
    return NOT_JSON
  }
}
