import { ERROR_STATUS, type ErrorCode } from '../../../shared/api/errors'
import {
  BROWSER_BRIDGE,
  IPC_OPERATION_NAMES,
  type IpcError,
  type IpcEvent,
  type IpcOperationName,
  type VoiceDeskBridge,
  type VoiceDeskOperations,
} from '../../../shared/ipc/operations'
import {
  BROWSER_STREAMS,
  type IpcStreamClose,
  type IpcStreamHandle,
  type IpcStreamName,
  type IpcStreamServerFrame,
  type OpenIpcStream,
} from '../../../shared/ipc/streams'
import { createStreamListeners } from '../../../shared/ipc/stream-listeners'

/** The slice of fetch and its answer the bridge uses. */
type Fetch = (
  input: string,
  init: { method: string; headers: Record<string, string>; body: string },
) => Promise<{ status: number; json(): Promise<unknown> }>
/** The slice of EventSource the bridge uses. */
export interface EventSourceLike {
  onmessage: ((event: { data: string }) => void) | null
  onopen?: (() => void) | null
  onerror?: (() => void) | null
  close(): void
}

/** The slice of the browser's WebSocket the bridge uses (the `ws` package's has it too, for tests in Node). */
export interface WebSocketLike {
  readonly readyState: number
  onopen: (() => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onclose: ((event: { code: number }) => void) | null
  onerror: (() => void) | null
  send(data: string): void
  close(code?: number): void
}

const CONNECTING = 0
const OPEN = 1

/** The browser bridge also says when its event stream came back after a break (events may have been missed). */
export interface BrowserBridge extends VoiceDeskBridge {
  onReconnect(listener: () => void): () => void
  /** The event stream broke (the service stopped, or refused the token): worth checking the link at once. */
  onBreak(listener: () => void): () => void
}

export interface BrowserBridgeOptions {
  token: string
  /** Same origin by default: the UI is served by the service it calls. */
  baseUrl?: string
  fetch?: Fetch
  createEventSource?: (url: string) => EventSourceLike
  createWebSocket?: (url: string) => WebSocketLike
}

const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code)

function failure(code: ErrorCode, message: string): { ok: false; error: IpcError } {
  return { ok: false, error: { code, message, details: [] } }
}

/** Reads an answer of POST /ipc/<name>: an IpcResult, or (from auth or a proxy) a /v1 error envelope. */
async function resultOf(response: { status: number; json(): Promise<unknown> }): Promise<unknown> {
  let body: unknown
  try {
    body = await response.json()
  } catch {
    return failure(response.status === 401 ? 'UNAUTHORIZED' : 'INTERNAL', `The service answered ${response.status} without JSON`)
  }
  if (typeof body === 'object' && body !== null) {
    if ('ok' in body) return body
    const envelope = body as { message?: unknown; error?: { code?: unknown; details?: unknown } }
    if (envelope.error && isErrorCode(envelope.error.code)) {
      return {
        ok: false,
        error: {
          code: envelope.error.code,
          message: typeof envelope.message === 'string' ? envelope.message : envelope.error.code,
          details: Array.isArray(envelope.error.details) ? envelope.error.details : [],
        },
      }
    }
  }
  return failure(response.status === 401 ? 'UNAUTHORIZED' : 'INTERNAL', `Unexpected answer (${response.status})`)
}

/**
 * VoiceDeskBridge over HTTP, for the UI served by `voicedesk serve`: each operation is a
 * POST of its input to /ipc/<name>; live updates arrive as server-sent events (EventSource
 * reconnects by itself). The same contract as the Electron preload.
 */
export function createBrowserBridge(options: BrowserBridgeOptions): BrowserBridge {
  const base = options.baseUrl ?? ''
  const doFetch: Fetch = options.fetch ?? ((input, init) => fetch(input, init))
  const createEventSource =
    options.createEventSource ??
    ((url: string) => new (globalThis as unknown as { EventSource: new (url: string) => EventSourceLike }).EventSource(url))
  const createWebSocket =
    options.createWebSocket ??
    ((url: string) => new (globalThis as unknown as { WebSocket: new (url: string) => WebSocketLike }).WebSocket(url))
  // WebSockets need an absolute ws: or wss: address; the page's own origin when the UI is served by the service.
  const webSocketBase = () => (base || (globalThis as unknown as { location: { origin: string } }).location.origin).replace(/^http/, 'ws')
  const operations = Object.fromEntries(
    IPC_OPERATION_NAMES.map((name: IpcOperationName) => [
      name,
      async (input: unknown) => {
        let response: Awaited<ReturnType<Fetch>>
        try {
          response = await doFetch(`${base}${BROWSER_BRIDGE.operationPath(name)}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
            body: JSON.stringify(input ?? {}),
          })
        } catch (error) {
          return failure('INTERNAL', `Cannot reach the VoiceDesk service (${error instanceof Error ? error.message : String(error)})`)
        }
        return resultOf(response)
      },
    ]),
  ) as unknown as VoiceDeskOperations

  const listeners = new Set<(event: IpcEvent) => void>()
  const reconnectListeners = new Set<() => void>()
  const breakListeners = new Set<() => void>()
  let source: EventSourceLike | null = null
  const open = () => {
    const url = `${base}${BROWSER_BRIDGE.eventsPath}?token=${encodeURIComponent(options.token)}`
    source = createEventSource(url)
    let opened = false
    // EventSource reconnects by itself; every open after the first follows a break.
    source.onopen = () => {
      if (opened) for (const listener of [...reconnectListeners]) listener()
      opened = true
    }
    source.onerror = () => {
      for (const listener of [...breakListeners]) listener()
    }
    source.onmessage = (message) => {
      let event: IpcEvent
      try {
        event = JSON.parse(message.data) as IpcEvent
      } catch {
        return
      }
      for (const listener of [...listeners]) listener(event)
    }
  }

  const openStream: OpenIpcStream = (name, input) =>
    openWebSocketStream(
      createWebSocket,
      `${webSocketBase()}${BROWSER_STREAMS.path(name)}?token=${encodeURIComponent(options.token)}`,
      input,
    )

  return {
    host: 'browser',
    operations,
    openStream,
    onReconnect(listener) {
      reconnectListeners.add(listener)
      return () => void reconnectListeners.delete(listener)
    },
    onBreak(listener) {
      breakListeners.add(listener)
      return () => void breakListeners.delete(listener)
    },
    onEvent(listener) {
      listeners.add(listener)
      if (source === null) open()
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0 && source !== null) {
          source.close()
          source = null
        }
      }
    },
  }
}

/**
 * One stream over a WebSocket (BROWSER_STREAMS): the input is the first message, then frames are
 * JSON text each way. Frames sent before the socket opens wait for it. The close says `failed`
 * when the service refused the stream (its `refused` frame's error) or the socket broke without
 * a clean close (the service went away).
 */
function openWebSocketStream<N extends IpcStreamName>(
  createWebSocket: (url: string) => WebSocketLike,
  url: string,
  input: unknown,
): IpcStreamHandle<N> {
  const listeners = createStreamListeners<N>()
  const waiting: string[] = []
  let refusal: IpcError | undefined
  let closedHere = false
  const finish = (close: IpcStreamClose) => listeners.finish(close)
  let socket: WebSocketLike | undefined
  try {
    socket = createWebSocket(url)
  } catch (error) {
    const message = `Cannot open a stream to the VoiceDesk service (${error instanceof Error ? error.message : String(error)})`
    queueMicrotask(() => finish({ kind: 'failed', error: { code: 'INTERNAL', message, details: [] } }))
  }
  if (socket) {
    const open = socket
    open.onopen = () => {
      open.send(JSON.stringify(input ?? {}))
      for (const text of waiting.splice(0)) open.send(text)
    }
    open.onmessage = (event) => {
      if (typeof event.data !== 'string') return
      let frame: IpcStreamServerFrame<N>
      try {
        frame = JSON.parse(event.data) as IpcStreamServerFrame<N>
      } catch {
        return
      }
      if (frame.type === 'refused') refusal = frame.error
      listeners.deliver(frame)
    }
    // An error is followed by close, which says what happened.
    open.onerror = () => {}
    open.onclose = (event) => {
      if (refusal) return finish({ kind: 'failed', error: refusal })
      if (event.code === 1000 || closedHere) return finish({ kind: 'closed' })
      finish({
        kind: 'failed',
        error: { code: 'INTERNAL', message: `The stream to the VoiceDesk service broke (WebSocket close ${event.code})`, details: [] },
      })
    }
  }
  return {
    send(frame) {
      if (!socket || listeners.closed) return
      const text = JSON.stringify(frame)
      if (socket.readyState === OPEN) socket.send(text)
      else if (socket.readyState === CONNECTING) waiting.push(text)
    },
    close() {
      closedHere = true
      if (socket && (socket.readyState === OPEN || socket.readyState === CONNECTING)) socket.close(1000)
    },
    onFrame: listeners.onFrame,
    onClose: listeners.onClose,
  }
}
