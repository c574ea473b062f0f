import { randomBytes } from 'node:crypto'
import { createSocket, type Socket } from 'node:dgram'
import { makeResponse, parse, stringify, type SipMessage } from 'sip'
import { signRequest } from 'sip/digest'
import { afterEach } from 'vitest'
import { callerRtpSocket, type HeardPacket } from './sipp'

/*
 * A softphone over UDP for the registrar's and the outbound calls' tests, written with sip.js's
 * parser and digest (the client side of what the line checks): it REGISTERs with a user's
 * password, and answers the agent's INVITE as told (answer, busy, decline, ring for ever, or
 * nothing at all), with an RTP socket that keeps what it hears.
 */

export type AnswerMode = 'answer' | 'busy' | 'decline' | 'ring' | 'silent'

const sockets: Socket[] = []
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close()
})

export class TestSoftphone {
  readonly received: SipMessage[] = []
  /** How the next INVITEs are answered. */
  mode: AnswerMode = 'answer'
  /** The dialog of the answered call: its INVITE (for a BYE of ours). */
  answered: SipMessage | undefined
  cancelled = 0
  private waiters: { match: (message: SipMessage) => boolean; resolve: (message: SipMessage) => void }[] = []
  private cseq = 1
  private readonly callId = `${randomBytes(8).toString('hex')}@softphone`
  private readonly tag = randomBytes(4).toString('hex')
  private readonly localTag = randomBytes(4).toString('hex')

  private constructor(
    private readonly socket: Socket,
    readonly port: number,
    private readonly linePort: number,
    /** The address it binds and the line listens on (loopback unless a test says otherwise). */
    readonly host: string,
    readonly rtp: { port: number; packets: HeardPacket[]; send(bytes: Uint8Array, to: { address: string; port: number }): void },
  ) {
    socket.on('message', (data) => {
      const message = parse(data.toString('binary'))
      if (!message) return
      this.received.push(message)
      if (message.method) this.onRequest(message)
      for (const waiter of [...this.waiters]) {
        if (waiter.match(message)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1)
          waiter.resolve(message)
        }
      }
    })
  }

  static async open(linePort: number, host = '127.0.0.1'): Promise<TestSoftphone> {
    const socket = createSocket('udp4')
    sockets.push(socket)
    await new Promise<void>((resolve) => socket.bind(0, host, resolve))
    return new TestSoftphone(socket, socket.address().port, linePort, host, await callerRtpSocket())
  }

  send(message: SipMessage | string): void {
    const text = typeof message === 'string' ? message : stringify(message)
    this.socket.send(Buffer.from(text, 'binary'), this.linePort, this.host)
  }

  next(match: (message: SipMessage) => boolean, timeoutMs = 10_000): Promise<SipMessage> {
    const found = this.received.find(match)
    if (found) return Promise.resolve(found)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No matching SIP message within ${timeoutMs} ms`)), timeoutMs)
      this.waiters.push({
        match,
        resolve: (message) => {
          clearTimeout(timer)
          resolve(message)
        },
      })
    })
  }

  /** A REGISTER of `user` (unsigned); `expires` in its Expires header. */
  registerRequest(user: string, expires: number | undefined): SipMessage {
    const uri = `sip:127.0.0.1:${this.linePort}`
    return {
      method: 'REGISTER',
      uri,
      headers: {
        via: [{ version: '2.0', protocol: 'UDP', host: this.host, port: this.port, params: { branch: branch(), rport: null } }],
        to: { uri: `sip:${user}@${this.host}:${this.linePort}`, params: {} },
        from: { uri: `sip:${user}@${this.host}:${this.linePort}`, params: { tag: this.tag } },
        'call-id': this.callId,
        cseq: { seq: this.cseq++, method: 'REGISTER' },
        contact: [{ uri: `sip:${user}@${this.host}:${this.port}`, params: {} }],
        ...(expires === undefined ? {} : { expires: String(expires) }),
        'max-forwards': '70',
      },
    }
  }

  /** An INVITE from this phone to `uri` (an SDP offer on its RTP port). */
  inviteRequest(uri: string, callId: string): SipMessage {
    const sdp = [
      'v=0',
      `o=softphone 1 1 IN IP4 ${this.host}`,
      's=-',
      `c=IN IP4 ${this.host}`,
      't=0 0',
      'm=audio 40000 RTP/AVP 0',
      'a=rtpmap:0 PCMU/8000',
      '',
    ].join('\r\n')
    return {
      method: 'INVITE',
      uri,
      headers: {
        via: [{ version: '2.0', protocol: 'UDP', host: this.host, port: this.port, params: { branch: branch(), rport: null } }],
        to: { uri, params: {} },
        from: { uri: `sip:caller@${this.host}:${this.port}`, params: { tag: this.tag } },
        'call-id': callId,
        cseq: { seq: this.cseq++, method: 'INVITE' },
        contact: [{ uri: `sip:caller@${this.host}:${this.port}`, params: {} }],
        'max-forwards': '70',
        'content-type': 'application/sdp',
      },
      content: sdp,
    }
  }

  /** Sends `request` and answers its final response. */
  async transact(request: SipMessage, timeoutMs = 5_000): Promise<SipMessage> {
    const branchOf = request.headers.via?.[0]?.params.branch
    // Sent again every 500 ms until answered, as a phone does over UDP (a datagram may be lost).
    this.send(request)
    const again = setInterval(() => this.send(request), 500)
    try {
      return await this.next((message) => (message.status ?? 0) >= 200 && message.headers.via?.[0]?.params.branch === branchOf, timeoutMs)
    } finally {
      clearInterval(again)
    }
  }

  /** REGISTERs `user` with `password`: the challenge (401), then the signed request. Answers the final response. */
  async register(user: string, password: string, expires?: number): Promise<{ challenge: SipMessage; final: SipMessage }> {
    const challenge = await this.transact(this.registerRequest(user, expires))
    if (challenge.status !== 401) return { challenge, final: challenge }
    const signed = this.registerRequest(user, expires)
    signRequest({}, signed, challenge, { user, password })
    return { challenge, final: await this.transact(signed) }
  }

  /** Hangs up the answered call (a BYE of ours); answers the line's 200. */
  async hangUp(): Promise<SipMessage> {
    const invite = this.answered
    if (!invite) throw new Error('No call was answered')
    const contact = Array.isArray(invite.headers.contact) ? invite.headers.contact[0]?.uri : undefined
    return this.transact({
      method: 'BYE',
      uri: contact ?? invite.headers.from?.uri ?? '',
      headers: {
        via: [{ version: '2.0', protocol: 'UDP', host: '127.0.0.1', port: this.port, params: { branch: branch(), rport: null } }],
        to: invite.headers.from,
        from: { ...invite.headers.to, uri: invite.headers.to?.uri ?? '', params: { ...invite.headers.to?.params, tag: this.localTag } },
        'call-id': invite.headers['call-id'],
        cseq: { seq: 1, method: 'BYE' },
        'max-forwards': '70',
      },
    })
  }

  private respond(
    request: SipMessage,
    status: number,
    reason: string,
    extra: { headers?: Record<string, unknown>; content?: string } = {},
  ) {
    const response = makeResponse(request, status, reason, extra)
    if (status > 100 && response.headers.to)
      response.headers.to = { ...response.headers.to, params: { ...response.headers.to.params, tag: this.localTag } }
    this.send(response)
  }

  private onRequest(request: SipMessage): void {
    switch (request.method) {
      case 'INVITE':
        return this.invited(request)
      case 'CANCEL':
        this.cancelled += 1
        this.respond(request, 200, 'OK')
        return this.respond(
          { ...request, headers: { ...request.headers, cseq: { seq: request.headers.cseq?.seq ?? 1, method: 'INVITE' } } },
          487,
          'Request Terminated',
        )
      case 'BYE':
        return this.respond(request, 200, 'OK')
      case 'ACK':
        return
      default:
        return this.respond(request, 200, 'OK')
    }
  }

  private invited(invite: SipMessage): void {
    if (this.mode === 'silent') return
    this.respond(invite, 100, 'Trying')
    if (this.mode === 'busy') return this.respond(invite, 486, 'Busy Here')
    if (this.mode === 'decline') return this.respond(invite, 603, 'Decline')
    this.respond(invite, 180, 'Ringing')
    if (this.mode === 'ring') return
    this.answered = invite
    const sdp = [
      'v=0',
      'o=softphone 1 1 IN IP4 127.0.0.1',
      's=-',
      'c=IN IP4 127.0.0.1',
      't=0 0',
      `m=audio ${this.rtp.port} RTP/AVP 0 101`,
      'a=rtpmap:0 PCMU/8000',
      'a=rtpmap:101 telephone-event/8000',
      'a=sendrecv',
      '',
    ].join('\r\n')
    this.respond(invite, 200, 'OK', {
      headers: { contact: [{ uri: `sip:phone@127.0.0.1:${this.port}`, params: {} }], 'content-type': 'application/sdp' },
      content: sdp,
    })
  }
}

export function branch(): string {
  return `z9hG4bK${randomBytes(6).toString('hex')}`
}
