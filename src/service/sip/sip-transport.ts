import { createSocket, type Socket as UdpSocket } from 'node:dgram'
import { createServer, connect, type Server, type Socket } from 'node:net'
import { makeStreamParser, parse, stringify, type SipConnection, type SipMessage } from 'sip'

/** Where a message came from, and where its answers go: the source address and port (as rport asks). */
export interface SipRemote {
  protocol: 'UDP' | 'TCP'
  address: string
  port: number
}

/** The longest message taken: headers and body of a call's INVITE are a few KiB. */
const MAX_MESSAGE_BYTES = 64 * 1024
/** Bytes a TCP connection may send without completing a message before it is closed (a flood, or a body that never ends). */
const MAX_PENDING_STREAM_BYTES = 2 * MAX_MESSAGE_BYTES
/** An idle TCP connection is closed after this long, as sip.js does. */
const TCP_IDLE_MS = 120_000
/** TCP connections at once: beyond, new ones are refused by the kernel's backlog and Node. */
const MAX_TCP_CONNECTIONS = 1_000
/** Tries at a port both UDP and TCP have free, when any port will do. */
const FREE_PORT_TRIES = 8

export interface SipTransportOptions {
  host: string
  /** 0: a free port (the same number for UDP and TCP). */
  port: number
  /** A complete message (method or status, Via, Call-ID, From, To, CSeq); malformed ones never reach it. */
  onMessage: (message: SipMessage, remote: SipRemote) => void
  onError: (error: unknown, context: string) => void
}

/**
 * The SIP line's transports, UDP and TCP on one port, written for this service rather than
 * sip.js's own (which binds without error handlers, so a taken port would throw from an event,
 * and takes two different free ports): messages are parsed and printed by sip.js, anything that
 * does not parse as a complete message is dropped without a word, and nothing a peer sends can
 * throw out of here.
 */
export class SipTransport {
  private readonly tcpConnections = new Map<string, Socket>()
  private closed = false
  /** Messages dropped as malformed, for tests and logs. */
  dropped = 0

  private constructor(
    private readonly udp: UdpSocket,
    private readonly tcp: Server,
    readonly host: string,
    readonly port: number,
    private readonly options: SipTransportOptions,
  ) {
    udp.on('message', (data, from) => this.receive(data, { protocol: 'UDP', address: from.address, port: from.port }))
    udp.on('error', (error) => options.onError(error, 'the SIP UDP socket failed'))
    tcp.on('connection', (socket) => this.accept(socket))
    tcp.on('error', (error) => options.onError(error, 'the SIP TCP listener failed'))
  }

  /** Binds UDP and TCP on host:port; rejects with the system's error (EADDRINUSE, EACCES…) when the port cannot be had. */
  static async listen(options: SipTransportOptions): Promise<SipTransport> {
    for (let attempt = 1; ; attempt += 1) {
      const udp = await bindUdp(options.host, options.port)
      const port = udp.address().port
      try {
        const tcp = await listenTcp(options.host, port)
        return new SipTransport(udp, tcp, options.host, port, options)
      } catch (error) {
        udp.close()
        // With a port of our choosing, another free one may have both; a port the operator named is theirs to change.
        if (options.port !== 0 || attempt >= FREE_PORT_TRIES || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
      }
    }
  }

  /** A connection for sip.js's transaction layer: it sends to `remote`, over the same protocol. */
  connection(remote: SipRemote): SipConnection {
    return { send: (message) => this.send(remote, message), release: () => undefined, protocol: remote.protocol }
  }

  /** Sends a message; a TCP peer whose connection closed is connected to again. Failures are logged, never thrown. */
  send(remote: SipRemote, message: SipMessage): void {
    // A transaction's timer may still fire after the line closed: nothing is sent then.
    if (this.closed) return
    let text: string
    try {
      text = stringify(message)
    } catch (error) {
      this.options.onError(error, 'a SIP message could not be written')
      return
    }
    const bytes = Buffer.from(text, 'binary')
    const failed = (error: unknown) => this.options.onError(error, `a SIP message to ${remote.address}:${remote.port} could not be sent`)
    if (remote.protocol === 'UDP') {
      try {
        this.udp.send(bytes, remote.port, remote.address, (error) => error && failed(error))
      } catch (error) {
        failed(error)
      }
      return
    }
    const key = `${remote.address}:${remote.port}`
    let socket = this.tcpConnections.get(key)
    if (!socket || socket.destroyed) {
      socket = connect(remote.port, remote.address)
      this.accept(socket, key)
    }
    socket.write(bytes)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    for (const socket of this.tcpConnections.values()) socket.destroy()
    this.tcpConnections.clear()
    await Promise.all([
      new Promise<void>((resolve) => this.udp.close(() => resolve())),
      new Promise<void>((resolve) => this.tcp.close(() => resolve())),
    ])
  }

  private receive(data: Buffer, remote: SipRemote): void {
    let message: SipMessage | undefined
    try {
      message = data.length <= MAX_MESSAGE_BYTES ? parse(data) : undefined
    } catch {
      message = undefined
    }
    this.deliver(message, remote)
  }

  private deliver(message: SipMessage | undefined, remote: SipRemote): void {
    if (!message || !isComplete(message)) {
      this.dropped += 1
      return
    }
    if (message.method) {
      // RFC 3261 18.2.1 and RFC 3581: where the request really came from.
      const via = message.headers.via?.[0]
      if (via) {
        via.params.received = remote.address
        if ('rport' in via.params) via.params.rport = String(remote.port)
      }
    }
    try {
      this.options.onMessage(message, remote)
    } catch (error) {
      this.options.onError(error, 'a SIP message could not be handled')
    }
  }

  private accept(socket: Socket, knownKey?: string): void {
    const key = knownKey ?? `${socket.remoteAddress ?? ''}:${socket.remotePort ?? 0}`
    if (!knownKey && this.tcpConnections.size >= MAX_TCP_CONNECTIONS) {
      socket.destroy()
      return
    }
    this.tcpConnections.set(key, socket)
    const remote = (): SipRemote => ({ protocol: 'TCP', address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0 })
    let pending = 0
    const frame = makeStreamParser(
      (message) => {
        pending = 0
        this.deliver(message, remote())
      },
      () => {
        this.dropped += 1
        socket.destroy()
      },
      MAX_MESSAGE_BYTES,
      MAX_MESSAGE_BYTES,
    )
    socket.setEncoding('binary')
    socket.setTimeout(TCP_IDLE_MS, () => socket.destroy())
    socket.on('data', (chunk: string) => {
      pending += chunk.length
      if (pending > MAX_PENDING_STREAM_BYTES) {
        this.dropped += 1
        socket.destroy()
        return
      }
      try {
        frame(chunk)
      } catch {
        this.dropped += 1
        socket.destroy()
      }
    })
    socket.on('error', () => socket.destroy())
    socket.on('close', () => {
      if (this.tcpConnections.get(key) === socket) this.tcpConnections.delete(key)
    })
  }
}

/** A message the transaction layer and the line can rely on (what sip.js's own transports check, and the types of each). */
function isComplete(message: SipMessage): boolean {
  const { headers } = message
  const via = headers.via
  return (
    (typeof message.method === 'string' ? typeof message.uri === 'string' : Number.isInteger(message.status)) &&
    Array.isArray(via) &&
    via.length > 0 &&
    via.every((entry) => typeof entry?.host === 'string' && typeof entry.params === 'object' && entry.params !== null) &&
    typeof headers['call-id'] === 'string' &&
    headers['call-id'] !== '' &&
    typeof headers.from?.uri === 'string' &&
    typeof headers.to?.uri === 'string' &&
    Number.isSafeInteger(headers.cseq?.seq) &&
    typeof headers.cseq?.method === 'string'
  )
}

function bindUdp(host: string, port: number): Promise<UdpSocket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4')
    socket.once('error', reject)
    socket.bind(port, host, () => {
      socket.removeListener('error', reject)
      resolve(socket)
    })
  })
}

function listenTcp(host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.maxConnections = MAX_TCP_CONNECTIONS
    server.once('error', reject)
    server.listen(port, host, () => {
      server.removeListener('error', reject)
      resolve(server)
    })
  })
}
