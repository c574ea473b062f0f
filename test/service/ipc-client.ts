/**
 * Browser mode as the renderer uses it, for tests: POST /ipc/<operation> with the UI token,
 * and the /ipc/events stream read as EventSource would (its parsing, in a few lines).
 */
import { get, type IncomingMessage } from 'node:http'
import { expect } from 'vitest'
import type { RuntimeConfig } from '../../src/service/runtime'
import { startTestService } from '../helpers/test-service'
import {
  IPC_OPERATIONS,
  IpcEventSchema,
  type IpcEvent,
  type IpcInput,
  type IpcOperationName,
  type IpcOutput,
  type IpcResult,
} from '../../src/shared/ipc/operations'
import { afterEveryTest } from '../helpers/after-every'

export interface IpcClient {
  /** The raw answer: status and JSON body (an IpcResult when the status is 200). */
  post(name: string, input?: unknown, token?: string | null): Promise<{ status: number; body: unknown }>
  /** Calls an operation and answers its IpcResult. */
  call<N extends IpcOperationName>(name: N, input?: IpcInput<N>): Promise<IpcResult<N>>
  /** Calls an operation that must succeed; its data is checked against the contract's output schema. */
  ok<N extends IpcOperationName>(name: N, input?: IpcInput<N>): Promise<IpcOutput<N>>
}

export function ipcClient(baseUrl: string, uiToken: string): IpcClient {
  const post: IpcClient['post'] = async (name, input, token = uiToken) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (token !== null) headers.authorization = `Bearer ${token}`
    const response = await fetch(`${baseUrl}/ipc/${name}`, { method: 'POST', headers, body: JSON.stringify(input ?? {}) })
    return { status: response.status, body: await response.json() }
  }
  const call = async <N extends IpcOperationName>(name: N, input?: IpcInput<N>) => {
    const { status, body } = await post(name, input)
    expect(status, JSON.stringify(body)).toBe(200)
    return body as IpcResult<N>
  }
  return {
    post,
    call,
    ok: async (name, input) => {
      const result = await call(name, input)
      if (!result.ok) throw new Error(`${name} was refused: ${JSON.stringify(result.error)}`)
      return IPC_OPERATIONS[name].output.parse(result.data) as IpcOutput<typeof name>
    },
  }
}

export interface EventStream {
  /** Every event received so far. */
  readonly events: IpcEvent[]
  /** Resolves with the first event (received before or after the call) that matches. */
  next(matches: (event: IpcEvent) => boolean, timeoutMs?: number): Promise<IpcEvent>
  /** Resolves when the service ends the stream. */
  readonly ended: Promise<void>
  close(): void
}

/**
 * Opens /ipc/events and resolves once the service has answered (the subscription is then in
 * place). node:http on a connection of its own (no pool), so closing it closes its socket.
 */
export async function openEventStream(baseUrl: string, token: string): Promise<EventStream> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = get(`${baseUrl}/ipc/events?token=${encodeURIComponent(token)}`, { agent: false }, resolve)
    request.once('error', reject)
  })
  expect(response.statusCode).toBe(200)
  expect(response.headers['content-type']).toMatch(/^text\/event-stream/)
  const events: IpcEvent[] = []
  const waiters = new Set<() => void>()
  let buffer = ''
  response.setEncoding('utf8')
  response.on('data', (chunk: string) => {
    buffer += chunk
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n')
      if (data) {
        events.push(IpcEventSchema.parse(JSON.parse(data)))
        for (const wake of [...waiters]) wake()
      }
    }
  })
  const ended = new Promise<void>((resolve) => response.once('close', () => resolve()))
  return {
    events,
    ended,
    next: (matches, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        let seen = 0
        const check = () => {
          for (; seen < events.length; seen += 1) {
            if (matches(events[seen]!)) {
              clearTimeout(timer)
              waiters.delete(check)
              resolve(events[seen]!)
              return
            }
          }
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`No matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`))
        }, timeoutMs)
        waiters.add(check)
        check()
      }),
    close: () => response.destroy(),
  }
}

/** Event streams opened through startBrowserMode's `events`, closed after each test. */
const openStreams: EventStream[] = []
afterEveryTest(() => {
  for (const stream of openStreams.splice(0)) stream.close()
})

/**
 * A test service in browser mode on a free port: its URL, an /ipc client holding the UI token,
 * and `events` to open its /ipc/events stream (closed after the test).
 */
export async function startBrowserMode(config: Partial<RuntimeConfig> = {}) {
  const service = await startTestService({ port: 0, ...config })
  const url = await service.runtime.start()
  const events = async () => {
    const stream = await openEventStream(url, service.runtime.uiToken)
    openStreams.push(stream)
    return stream
  }
  return { service, url, ipc: ipcClient(url, service.runtime.uiToken), events }
}
