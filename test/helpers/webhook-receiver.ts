import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterEveryTest } from './after-every'

/** A request as the receiver saw it. */
export interface ReceivedRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
  /** performance.now() when the whole body had arrived. */
  receivedAt: number
}

/** What to answer a request: a status (with a body, after a delay), or no answer at all. */
export type Answer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | 'hang' | 'reset'

export interface WebhookReceiver {
  /** Base URL, e.g. http://127.0.0.1:41234. */
  readonly url: string
  readonly requests: ReceivedRequest[]
  /** Chooses the answer to the n-th request (0-based); 204 by default. */
  answer(choose: (index: number, request: ReceivedRequest) => Answer): void
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>
  /** Answers every request left hanging with this status. */
  releaseHanging(status?: number): void
  close(): Promise<void>
}

const open = new Set<WebhookReceiver>()

afterEveryTest(async () => {
  const receivers = [...open]
  open.clear()
  await Promise.all(receivers.map((receiver) => receiver.close()))
})

/** A real HTTP server on 127.0.0.1 that records every webhook it gets. Closed after each test. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = []
  const hanging = new Set<ServerResponse>()
  const sockets = new Set<Socket>()
  const waiters: { count: number; resolve: () => void }[] = []
  let choose: (index: number, request: ReceivedRequest) => Answer = () => ({ status: 204 })

  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const request: ReceivedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: performance.now(),
      }
      const answer = choose(requests.length, request)
      requests.push(request)
      for (const waiter of waiters.filter((entry) => requests.length >= entry.count)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
      if (answer === 'hang') {
        hanging.add(response)
        return
      }
      if (answer === 'reset') {
        incoming.socket.destroy()
        return
      }
      const send = () => response.writeHead(answer.status, answer.headers).end(answer.body ?? '')
      if (answer.delayMs) setTimeout(send, answer.delayMs)
      else send()
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  let closing: Promise<void> | undefined
  const receiver: WebhookReceiver = {
    url,
    requests,
    answer: (next) => {
      choose = next
    },
    waitForRequests: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        if (requests.length >= count) return resolve(requests)
        const timer = setTimeout(
          () => reject(new Error(`${requests.length} of ${count} webhook requests arrived at ${url} within ${timeoutMs} ms`)),
          timeoutMs,
        )
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer)
            resolve(requests)
          },
        })
      }),
    releaseHanging: (status = 200) => {
      for (const response of hanging) response.writeHead(status).end()
      hanging.clear()
    },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })),
  }
  open.add(receiver)
  return receiver
}
