import { randomBytes } from 'node:crypto'
import { createSocket, type Socket } from 'node:dgram'
import { afterEach } from 'vitest'

/*
 * A SIP peer over UDP written by hand for the line's edge cases (a CANCEL at once, a re-INVITE,
 * answering the agent's BYE, hostile datagrams), where a scripted client would hide the bytes.
 */

export interface RawMessage {
  /** The start line: `SIP/2.0 200 OK` or `BYE sip:… SIP/2.0`. */
  firstLine: string
  status: number | undefined
  method: string | undefined
  headers: Map<string, string>
  body: string
  text: string
}

const sockets: Socket[] = []
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close()
})

export function parseRaw(text: string): RawMessage {
  const [head = '', body = ''] = text.split('\r\n\r\n')
  const [firstLine = '', ...lines] = head.split('\r\n')
  const headers = new Map<string, string>()
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  const status = /^SIP\/2\.0 (\d{3})/.exec(firstLine)?.[1]
  return {
    firstLine,
    status: status === undefined ? undefined : Number(status),
    method: status === undefined ? firstLine.split(' ')[0] : undefined,
    headers,
    body,
    text,
  }
}

export class RawSipPeer {
  readonly received: RawMessage[] = []
  private waiters: { match: (message: RawMessage) => boolean; resolve: (message: RawMessage) => void }[] = []

  private constructor(
    private readonly socket: Socket,
    readonly port: number,
    private readonly line: number,
  ) {
    socket.on('message', (data) => {
      const message = parseRaw(data.toString('latin1'))
      this.received.push(message)
      for (const waiter of [...this.waiters]) {
        if (waiter.match(message)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1)
          waiter.resolve(message)
        }
      }
    })
  }

  static async open(linePort: number): Promise<RawSipPeer> {
    const socket = createSocket('udp4')
    sockets.push(socket)
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
    return new RawSipPeer(socket, socket.address().port, linePort)
  }

  send(text: string | Buffer): void {
    this.socket.send(typeof text === 'string' ? Buffer.from(text, 'latin1') : text, this.line, '127.0.0.1')
  }

  /** The first message (already received or still to come) that matches. */
  next(match: (message: RawMessage) => boolean, timeoutMs = 10_000): Promise<RawMessage> {
    const found = this.received.find(match)
    if (found) return Promise.resolve(found)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`No matching SIP message within ${timeoutMs} ms; got: ${this.received.map((m) => m.firstLine).join(' | ')}`)),
        timeoutMs,
      )
      this.waiters.push({
        match,
        resolve: (message) => {
          clearTimeout(timer)
          resolve(message)
        },
      })
    })
  }

  /** A request from this peer; `extra` headers and an SDP body as given. */
  request(
    method: string,
    uri: string,
    dialog: Dialog,
    cseq: number,
    options: { extra?: string[]; sdp?: string; branch?: string } = {},
  ): string {
    const body = options.sdp ?? ''
    return [
      `${method} ${uri} SIP/2.0`,
      `Via: SIP/2.0/UDP 127.0.0.1:${this.port};branch=${options.branch ?? branch()};rport`,
      `From: <sip:+15550001111@127.0.0.1:${this.port}>;tag=${dialog.fromTag}`,
      `To: <${uri}>${dialog.toTag ? `;tag=${dialog.toTag}` : ''}`,
      `Call-ID: ${dialog.callId}`,
      `CSeq: ${cseq} ${method}`,
      `Contact: <sip:peer@127.0.0.1:${this.port}>`,
      'Max-Forwards: 70',
      ...(options.extra ?? []),
      ...(body ? ['Content-Type: application/sdp'] : []),
      `Content-Length: ${Buffer.byteLength(body, 'latin1')}`,
      '',
      body,
    ].join('\r\n')
  }

  /** Answers a request of the line's (its BYE) with `status`. */
  answer(request: RawMessage, status: number, reason: string): void {
    const copy = ['via', 'from', 'to', 'call-id', 'cseq'].map(
      (name) => `${name === 'call-id' ? 'Call-ID' : name[0]!.toUpperCase() + name.slice(1)}: ${request.headers.get(name)}`,
    )
    this.send([`SIP/2.0 ${status} ${reason}`, ...copy, 'Content-Length: 0', '', ''].join('\r\n'))
  }
}

export interface Dialog {
  callId: string
  fromTag: string
  toTag?: string
}

export function newDialog(): Dialog {
  return { callId: `${randomBytes(8).toString('hex')}@test`, fromTag: randomBytes(4).toString('hex') }
}

export function branch(): string {
  return `z9hG4bK${randomBytes(6).toString('hex')}`
}

/** An SDP offer of the caller at 127.0.0.1:`port`: PCMU by default, `codecs` to offer others, `direction` for hold. */
export function offer(port: number, options: { payloads?: string; rtpmaps?: string[]; direction?: string } = {}): string {
  return [
    'v=0',
    'o=peer 1 1 IN IP4 127.0.0.1',
    's=-',
    'c=IN IP4 127.0.0.1',
    't=0 0',
    `m=audio ${port} RTP/AVP ${options.payloads ?? '0 101'}`,
    ...(options.rtpmaps ?? ['a=rtpmap:0 PCMU/8000', 'a=rtpmap:101 telephone-event/8000']),
    `a=${options.direction ?? 'sendrecv'}`,
    '',
  ].join('\r\n')
}
