import { randomBytes, randomInt } from 'node:crypto'
import { makeResponse, type SipMessage, type SipServerTransaction } from 'sip'
import type { CallSession, CallTransport } from '../../conversations/call-session'
import type { Resampler } from '../../engines/audio/speex-resampler'
import type { ServerFrame } from '../../shared/api/stream-frames'
import type { JobErrorCode } from '../../shared/api/job-error-codes'
import { ALLOW } from './inbound-call'
import { keyOfInfo } from './keypad'
import type { MediaPlane } from './media-plane'
import { RtpBridge } from './rtp-bridge'
import { answerSdp, negotiate, offerSdp, type NegotiatedMedia } from './sdp-negotiation'
import type { SipRemote } from './sip-transport'

/** Who the agent calls: the request-URI, where the INVITE goes (a registered softphone's source address), and the numbers recorded. */
export interface OutboundTarget {
  uri: string
  remote: SipRemote
  /** The From user (the agent's side) and the To user, as the conversation records them. */
  fromNumber: string
  toNumber: string
}

export interface OutboundCallDeps {
  host: string
  port: number
  media: MediaPlane
  resampler: (fromRate: number, toRate: number) => Promise<Resampler>
  /** Connects the conversation's call session (ConversationHost.connect): undefined when refused (the transport was told why). */
  connect: (transport: CallTransport) => Promise<CallSession | undefined>
  /** The INVITE as a client transaction: every response comes to `onResponse` (a 408 when nothing answers). */
  invite: (message: SipMessage, onResponse: (response: SipMessage) => void) => void
  /** A request of ours (BYE, CANCEL) as a client transaction. */
  request: (message: SipMessage) => void
  /** Sent as is, outside any transaction (the ACK of a 200). */
  send: (message: SipMessage) => void
  /** The dialog exists (the callee answered) or ended: the line routes in-dialog requests by Call-ID and our tag. */
  dialog: (call: OutboundCall, open: boolean) => void
  /** How long the phone may ring before the call is given up (CANCEL). */
  ringTimeoutMs: number
  keypadPauseMs?: number
  onError: (error: unknown, context: string) => void
}

type Phase = 'setting-up' | 'calling' | 'ringing' | 'answered' | 'ended'

/** How a final refusal of the INVITE ends the conversation. */
function failureOf(status: number, reason: string, provisional: boolean): { code: JobErrorCode; message: string } {
  const said = `the softphone answered ${status} ${reason}`
  if (status === 486 || status === 600) return { code: 'CALL_BUSY', message: `Busy: ${said}` }
  if (status === 408 && !provisional) return { code: 'CALL_UNREACHABLE', message: 'Unreachable: the softphone did not answer the INVITE' }
  if (status === 408 || status === 480 || status === 487) return { code: 'CALL_NO_ANSWER', message: `No answer: ${said}` }
  if (status >= 500 && status < 600) return { code: 'CALL_UNREACHABLE', message: `Unreachable: ${said}` }
  return { code: 'CALL_REJECTED', message: `Rejected: ${said}` }
}

/**
 * One call the agent places (POST /v1/voice-agents/call): the conversation's session is
 * connected first (it takes a place of the call cap), then the INVITE with VoiceDesk's offer
 * goes to the softphone. Ringing (180), then 200 OK: the ACK, the answer's media, and the
 * agent's greeting starts. A refusal (busy, rejected), a ring that lasts past the timeout (a
 * CANCEL) or no answer at all ends the conversation FAILED with the reason. BYE from either
 * side ends it as a web call ends. The audio path is an inbound call's: G.711 at 8 kHz,
 * resampled, RTP paced by the media thread.
 */
export class OutboundCall {
  readonly callId = `${randomBytes(12).toString('hex')}@voicedesk`
  readonly localTag = randomBytes(8).toString('hex')
  private phase: Phase = 'setting-up'
  private remoteTag: string | undefined
  private remoteTarget: string
  private invite: SipMessage | undefined
  private provisional = false
  private hungUpByCallee = false
  /** The call's audio between its session and its RTP socket (and the callee's keys). */
  private audio: RtpBridge | undefined
  private media: NegotiatedMedia | undefined
  private session: CallSession | undefined
  private refusal: string | undefined
  private ringTimer: ReturnType<typeof setTimeout> | undefined
  private readonly sessionId = randomInt(1, 2 ** 31)
  private localSeq = randomInt(1, 2 ** 16)
  /** The o= line's version: 1 in the INVITE's offer, one more with each answer to a re-INVITE. */
  private sdpVersion = 1

  constructor(
    readonly target: OutboundTarget,
    private readonly deps: OutboundCallDeps,
  ) {
    this.remoteTarget = target.uri
  }

  /**
   * Opens the media and the session, then sends the INVITE. Answers the refusal's code when the
   * session was refused (TOO_MANY_CALLS, UNAVAILABLE…); the INVITE's outcome comes later.
   */
  async start(): Promise<{ ok: true } | { ok: false; code: string }> {
    try {
      this.audio = await RtpBridge.open(this.deps, {
        session: () => this.session,
        hearing: () => this.phase === 'answered',
        lost: () =>
          void this.session?.end('error', { code: 'INTERNAL', message: 'The call lost its audio (the SIP media thread stopped)' }),
      })
      this.session = await this.deps.connect({
        send: (frame, onWritten) => {
          this.frame(frame)
          onWritten?.()
        },
        close: () => this.sessionEnded(),
      })
    } catch (error) {
      this.release()
      throw error
    }
    if (!this.session) {
      this.release()
      return { ok: false, code: this.refusal ?? 'INTERNAL' }
    }
    this.sendInvite()
    return { ok: true }
  }

  private sendInvite(): void {
    const rtp = this.audio?.rtp
    if (!rtp) return
    const sdp = offerSdp({ address: rtp.address, port: rtp.port, sessionId: this.sessionId, sessionVersion: this.sdpVersion })
    this.invite = {
      method: 'INVITE',
      uri: this.target.uri,
      headers: {
        via: [this.via()],
        to: { uri: this.target.uri, params: {} },
        from: { uri: this.localUri(), params: { tag: this.localTag } },
        'call-id': this.callId,
        cseq: { seq: this.localSeq, method: 'INVITE' },
        contact: [{ uri: this.localUri(), params: {} }],
        allow: ALLOW,
        'max-forwards': '70',
        'content-type': 'application/sdp',
      },
      content: sdp,
    }
    this.phase = 'calling'
    this.deps.invite(this.invite, (response) => this.responded(response))
    this.ringTimer = setTimeout(() => this.giveUp(), this.deps.ringTimeoutMs)
  }

  /** A response to the INVITE (retransmitted 200s included: each is ACKed). */
  private responded(response: SipMessage): void {
    const status = response.status ?? 0
    if (status < 200) {
      if (status > 100) this.provisional = true
      if (status > 100 && this.phase === 'calling') this.phase = 'ringing'
      return
    }
    if (status < 300) return this.answered(response)
    if (this.phase === 'calling' || this.phase === 'ringing') {
      // The INVITE's transaction is over (sip.js ACKed the refusal): nothing to cancel.
      this.phase = 'ended'
      this.fail(failureOf(status, response.reason ?? '', this.provisional))
    }
  }

  private answered(ok: SipMessage): void {
    const tag = ok.headers.to?.params.tag ?? undefined
    const contact = Array.isArray(ok.headers.contact) ? ok.headers.contact[0]?.uri : undefined
    if (this.phase === 'answered' || this.phase === 'ended') {
      // A retransmission of the 200 (our ACK was lost), or an answer after we gave up: ACKed, and then a BYE if we had.
      if (this.remoteTag === undefined || this.remoteTag === tag) this.sendAck(ok, contact)
      if (this.phase === 'ended' && this.remoteTag === undefined) {
        this.remoteTag = tag
        if (contact) this.remoteTarget = contact
        this.sendBye()
      }
      return
    }
    this.remoteTag = tag
    if (contact) this.remoteTarget = contact
    this.sendAck(ok, contact)
    this.clearRing()
    const negotiation = ok.content ? negotiate(ok.content) : undefined
    if (!negotiation?.ok) {
      this.phase = 'answered'
      this.deps.dialog(this, true)
      this.deps.onError(new Error(negotiation?.problem ?? 'The 200 OK has no SDP answer'), 'an outbound SIP call got no usable answer')
      void this.session?.end('error', { code: 'CALL_REJECTED', message: 'The softphone answered without usable audio (no G.711)' })
      return
    }
    this.media = negotiation.media
    this.phase = 'answered'
    this.deps.dialog(this, true)
    this.audio?.use(this.media)
    this.audio?.rtp.play()
    // The agent greets now.
    this.session?.receive({ event: 'start' })
  }

  /** The phone rang too long: a CANCEL (once it rang; before, nothing answered yet) and the call ends unanswered. */
  private giveUp(): void {
    this.ringTimer = undefined
    if (this.phase !== 'calling' && this.phase !== 'ringing') return
    const seconds = Math.round(this.deps.ringTimeoutMs / 1000)
    this.fail(
      this.provisional
        ? { code: 'CALL_NO_ANSWER', message: `No answer: the softphone rang for ${seconds} s without answering` }
        : { code: 'CALL_UNREACHABLE', message: `Unreachable: nothing answered the INVITE within ${seconds} s` },
    )
  }

  /** The call ends before an answer: a CANCEL for a ringing INVITE, and the conversation FAILED. */
  private fail(failure: { code: JobErrorCode; message: string }): void {
    if (this.phase === 'ringing' || this.phase === 'calling') this.sendCancel()
    this.phase = 'ended'
    this.clearRing()
    void this.session?.end('error', failure)
  }

  /** A request inside the dialog: BYE, INFO (keys), a re-INVITE. */
  inDialog(request: SipMessage, transaction: SipServerTransaction): void {
    switch (request.method) {
      case 'BYE':
        transaction.send(makeResponse(request, 200, 'OK'))
        this.hungUpByCallee = true
        if (this.session) this.session.receive({ event: 'stop' })
        else this.release()
        return
      case 'INFO': {
        const key = keyOfInfo(String(request.headers['content-type'] ?? ''), request.content ?? '')
        if (key !== undefined) this.audio?.press(key)
        return transaction.send(makeResponse(request, 200, 'OK'))
      }
      case 'INVITE':
        return this.reinvite(request, transaction)
      default:
        transaction.send(makeResponse(request, 405, 'Method Not Allowed', { headers: { allow: ALLOW } }))
    }
  }

  /** The ACK of a 200 we sent (a re-INVITE's): nothing to do. */
  acknowledged(): void {}

  private reinvite(request: SipMessage, transaction: SipServerTransaction): void {
    const { audio } = this
    if (this.phase !== 'answered' || !audio) return transaction.send(makeResponse(request, 491, 'Request Pending'))
    let media = this.media
    if (request.content) {
      const negotiation = negotiate(request.content)
      if (!negotiation.ok) return transaction.send(makeResponse(request, 488, 'Not Acceptable Here'))
      media = negotiation.media
      this.media = media
      audio.use(media)
    }
    this.sdpVersion += 1
    const { rtp } = audio
    const local = { address: rtp.address, port: rtp.port, sessionId: this.sessionId, sessionVersion: this.sdpVersion }
    transaction.send(
      makeResponse(request, 200, 'OK', {
        headers: {
          to: { ...request.headers.to, uri: request.headers.to?.uri ?? '', params: { ...request.headers.to?.params, tag: this.localTag } },
          contact: [{ uri: this.localUri(), params: {} }],
          'content-type': 'application/sdp',
        },
        content: media ? answerSdp(local, media) : offerSdp(local),
      }),
    )
  }

  /** What the call session sends: the agent's audio, marks and clears (barge-in) to the RTP bridge, a refusal's info. */
  private frame(frame: ServerFrame): void {
    this.audio?.frame(frame)
    if (frame.event === 'info' && !this.session) this.refusal = frame.code
  }

  /** The session ended (the agent hung up, the callee did, the service stops, or the call failed): a BYE or CANCEL as needed. */
  private sessionEnded(): void {
    if (this.phase === 'answered' && !this.hungUpByCallee) this.sendBye()
    else if (this.phase === 'calling' || this.phase === 'ringing') this.sendCancel()
    this.release()
  }

  private release(): void {
    if (this.phase === 'answered' || this.phase === 'ended') this.deps.dialog(this, false)
    this.phase = 'ended'
    this.clearRing()
    this.audio?.close()
    this.audio = undefined
  }

  private clearRing(): void {
    if (this.ringTimer !== undefined) clearTimeout(this.ringTimer)
    this.ringTimer = undefined
  }

  private sendAck(ok: SipMessage, contact: string | undefined): void {
    const invite = this.invite
    if (!invite) return
    this.deps.send({
      method: 'ACK',
      uri: contact ?? this.remoteTarget,
      headers: {
        via: [{ ...this.via(), params: { ...this.via().params, branch: `z9hG4bK${randomBytes(8).toString('hex')}` } }],
        to: ok.headers.to,
        from: invite.headers.from,
        'call-id': this.callId,
        cseq: { seq: invite.headers.cseq?.seq ?? this.localSeq, method: 'ACK' },
        'max-forwards': '70',
      },
    })
  }

  /** CANCEL of the INVITE: its Request-URI, Call-ID, From, To and top Via (the branch the transaction gave it). */
  private sendCancel(): void {
    const invite = this.invite
    if (!invite || !this.provisional) return
    this.deps.request({
      method: 'CANCEL',
      uri: invite.uri,
      headers: {
        via: [invite.headers.via?.[0] ?? this.via()],
        to: invite.headers.to,
        from: invite.headers.from,
        'call-id': this.callId,
        cseq: { seq: invite.headers.cseq?.seq ?? this.localSeq, method: 'CANCEL' },
        'max-forwards': '70',
      },
    })
  }

  private sendBye(): void {
    const invite = this.invite
    if (!invite) return
    this.localSeq += 1
    this.deps.request({
      method: 'BYE',
      uri: this.remoteTarget,
      headers: {
        via: [this.via()],
        to: { uri: this.target.uri, params: this.remoteTag ? { tag: this.remoteTag } : {} },
        from: invite.headers.from,
        'call-id': this.callId,
        cseq: { seq: this.localSeq, method: 'BYE' },
        'max-forwards': '70',
      },
    })
  }

  private via(): NonNullable<SipMessage['headers']['via']>[number] {
    return { version: '2.0', protocol: this.target.remote.protocol, host: this.deps.host, port: this.deps.port, params: { rport: null } }
  }

  /** The agent's side: its number at the line's address. */
  private localUri(): string {
    const host = this.deps.host.includes(':') ? `[${this.deps.host}]` : this.deps.host
    const transport = this.target.remote.protocol === 'TCP' ? ';transport=tcp' : ''
    const user = this.target.fromNumber.replace(/[^\w+.-]/g, '')
    return `sip:${user ? `${user}@` : ''}${host}:${this.deps.port}${transport}`
  }
}
