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

/** The slice of fetch and its answer the bridge uses. */
type Fetch = (input: string, init: { method: string; headers: Record<string, string>; body: string }) => Promise<{ status: number; json(): Promise<unknown> }>
/** The slice of EventSource the bridge uses. */
export interface EventSourceLike {
  onmessage: ((event: { data: string }) => void) | null
  onopen?: (() => void) | null
  onerror?: (() => void) | null
  close(): void
}

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
  const createEventSource = options.createEventSource ?? ((url: string) => new (globalThis as unknown as { EventSource: new (url: string) => EventSourceLike }).EventSource(url))
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

  return {
    host: 'browser',
    operations,
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
