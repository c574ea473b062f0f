import { randomBytes, randomInt } from 'node:crypto'
import { makeResponse, type SipMessage, type SipServerTransaction } from 'sip'
import type { ServerFrame } from '../../shared/api/stream-frames'
import type { CallSession, CallTransport } from '../../conversations/call-session'
import type { Resampler } from '../../engines/audio/speex-resampler'
import { keyOfInfo } from './keypad'
import type { MediaPlane } from './media-plane'
import { RtpBridge } from './rtp-bridge'
import { answerSdp, negotiate, offerSdp, type NegotiatedMedia } from './sdp-negotiation'
import type { SipRemote } from './sip-transport'

/** RFC 3261's T1 and T2: a 200 OK over UDP is sent again at T1, doubling up to T2, until its ACK comes (64 × T1 at most). */
const T1_MS = 500
const T2_MS = 4_000

/** Who answers a dialled number: a refusal (a final status) or the number's agent. */
export type InboundRoute =
  | { status: number; reason: string }
  | { agent: { voiceAgentId: string; projectId: string; apiKeyId: string; userId: string }; number: string }

/** The refusals a conversation's connection can meet, as SIP says them. */
const REFUSALS: Readonly<Record<string, { status: number; reason: string }>> = {
  TOO_MANY_CALLS: { status: 486, reason: 'Busy Here' },
  UNAVAILABLE: { status: 503, reason: 'Service Unavailable' },
  AGENT_MISSING: { status: 480, reason: 'Temporarily Unavailable' },
}

export interface InboundCallDeps {
  /** The line's address and port, for Contact and SDP. */
  host: string
  port: number
  /** The media thread: every call's RTP socket and the packet clock. */
  media: MediaPlane
  route: (number: string | undefined) => Promise<InboundRoute>
  /**
   * Makes the call's conversation and connects it (conversation-init and the host's connect, as
   * a web call's socket does); undefined when refused: the transport was told why first.
   */
  connect: (
    route: Extract<InboundRoute, { agent: unknown }>,
    fromNumber: string,
    transport: CallTransport,
  ) => Promise<CallSession | undefined>
  resampler: (fromRate: number, toRate: number) => Promise<Resampler>
  /** Sends a message to the caller's signalling address (responses go through the INVITE's transaction). */
  send: (message: SipMessage) => void
  /** Sends a request of ours in the dialog (BYE) as a client transaction. */
  request: (message: SipMessage) => void
  /** The call's dialog exists (its tag is known) or ended: the line routes in-dialog requests by it. */
  dialog: (call: InboundCall, open: boolean) => void
  /** How long the answer waits for the agent's first audio (the greeting) before it answers anyway. */
  answerWaitMs: number
  keypadPauseMs?: number
  onError: (error: unknown, context: string) => void
}

type Phase = 'setting-up' | 'ringing' | 'answered' | 'ended'

/**
 * One inbound call, from its INVITE to its BYE: the number's agent (or a refusal), the SDP
 * answer, the RTP channel, and the call session every web call uses. It rings (180) while the
 * conversation connects and the greeting is made, and answers (200) with the first of the
 * greeting's audio, so the caller hears the agent at once. The caller's audio goes in as the
 * web SDK's microphone would (8 kHz G.711 decoded and resampled to 16 kHz), the agent's comes
 * out as RTP on the packet clock; keys (RFC 4733 or SIP INFO) become a caller turn.
 */
export class InboundCall {
  readonly callId: string
  readonly localTag = randomBytes(8).toString('hex')
  private phase: Phase = 'setting-up'
  private cancelled = false
  private hungUpByCaller = false
  private media: NegotiatedMedia | undefined
  /** The call's audio between its session and its RTP socket (and the caller's keys). */
  private audio: RtpBridge | undefined
  private session: CallSession | undefined
  private refusal: string | undefined
  private readonly sessionId = randomInt(1, 2 ** 31)
  private sdpVersion = 1
  private localSeq = randomInt(1, 2 ** 16)
  private okTimer: ReturnType<typeof setTimeout> | undefined
  private answerTimer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly invite: SipMessage,
    private readonly transaction: SipServerTransaction,
    readonly remote: SipRemote,
    private readonly deps: InboundCallDeps,
  ) {
    this.callId = invite.headers['call-id'] ?? ''
  }

  /** The branch of the INVITE, by which a CANCEL names it. */
  get branch(): string {
    return this.invite.headers.via?.[0]?.params.branch ?? ''
  }

  /** Handles the INVITE to its answer or refusal; never throws (a fault answers 500). */
  async run(): Promise<void> {
    try {
      await this.setUp()
    } catch (error) {
      this.deps.onError(error, 'an inbound SIP call failed to start')
      if (this.phase !== 'answered' && this.phase !== 'ended') this.refuse(500, 'Server Internal Error')
      else this.end()
    }
  }

  private async setUp(): Promise<void> {
    this.transaction.send(makeResponse(this.invite, 100, 'Trying'))
    const dialled = this.invite.uri
    const route = await this.deps.route(dialled)
    if (this.cancelled) return
    if ('status' in route) return this.refuse(route.status, route.reason)
    // No body: a late offer (RFC 3261 13.2.1). The 200 OK carries our offer, the ACK the caller's answer.
    if (this.invite.content) {
      const contentType = String(this.invite.headers['content-type'] ?? '').toLowerCase()
      if (!contentType.startsWith('application/sdp')) {
        return this.refuse(488, 'Not Acceptable Here', `The INVITE's body is ${contentType || 'untyped'}, not an SDP offer`)
      }
      const negotiation = negotiate(this.invite.content)
      if (!negotiation.ok) return this.refuse(488, 'Not Acceptable Here', negotiation.problem)
      this.media = negotiation.media
    }
    this.audio = await RtpBridge.open(this.deps, {
      session: () => this.session,
      hearing: () => this.phase !== 'ended',
      lost: () => {
        this.deps.onError(new Error('The SIP media thread stopped'), 'a SIP call lost its audio')
        if (this.session)
          void this.session.end('error', { code: 'INTERNAL', message: 'The call lost its audio (the SIP media thread stopped)' })
        else this.refuse(500, 'Server Internal Error')
      },
    })
    if (this.media) this.audio.use(this.media)
    if (this.cancelled) return this.release()
    const fromNumber = userOfFrom(this.invite) ?? 'anonymous'
    this.session = await this.deps.connect(route, fromNumber, {
      send: (frame, onWritten) => {
        this.frame(frame)
        onWritten?.()
      },
      close: () => this.agentEnded(),
    })
    if (!this.session) {
      const refusal = REFUSALS[this.refusal ?? ''] ?? { status: 500, reason: 'Server Internal Error' }
      return this.refuse(refusal.status, refusal.reason)
    }
    if (this.cancelled) {
      this.session.receive({ event: 'stop' })
      return
    }
    this.phase = 'ringing'
    this.deps.dialog(this, true)
    this.transaction.send(this.response(180, 'Ringing'))
    // The greeting is made now; the call is answered with its first audio (or after answerWaitMs without any).
    this.session.receive({ event: 'start' })
    this.answerTimer = setTimeout(() => this.answer(), this.deps.answerWaitMs)
  }

  /** A CANCEL of the INVITE: before the answer, the INVITE is answered 487 and the call ends (after it, nothing changes). */
  cancel(): void {
    if (this.phase === 'answered' || this.phase === 'ended') return
    this.cancelled = true
    this.hungUpByCaller = true
    this.finalResponse(487, 'Request Terminated')
    if (this.session) this.session.receive({ event: 'stop' })
    else this.release()
  }

  /** The ACK of our 200 OK: it need not be sent again. After a late offer, it carries the caller's answer. */
  acknowledged(ack?: SipMessage): void {
    if (this.okTimer !== undefined) clearTimeout(this.okTimer)
    this.okTimer = undefined
    if (!ack || this.media || this.phase !== 'answered' || !this.audio) return
    const negotiation = ack.content ? negotiate(ack.content) : undefined
    if (!negotiation?.ok) {
      // Our offer was answered with nothing we can use: the call cannot carry audio.
      this.deps.onError(new Error(negotiation?.problem ?? 'The ACK has no SDP answer'), 'a late-offer SIP call got no usable answer')
      this.session?.receive({ event: 'stop' })
      return
    }
    this.media = negotiation.media
    this.audio.use(this.media)
  }

  /** A request inside the dialog (BYE, INFO, re-INVITE), answered through its own transaction. */
  inDialog(request: SipMessage, transaction: SipServerTransaction): void {
    switch (request.method) {
      case 'BYE':
        transaction.send(makeResponse(request, 200, 'OK'))
        this.hungUpByCaller = true
        if (this.session) this.session.receive({ event: 'stop' })
        else this.release()
        return
      case 'INFO': {
        const key = keyOfInfo(String(request.headers['content-type'] ?? ''), request.content ?? '')
        if (key !== undefined) this.audio?.press(key)
        transaction.send(makeResponse(request, 200, 'OK'))
        return
      }
      case 'INVITE':
        return this.reinvite(request, transaction)
      default:
        transaction.send(makeResponse(request, 405, 'Method Not Allowed', { headers: { allow: ALLOW } }))
    }
  }

  /** A re-INVITE (hold, resume, a new address): a new answer; while the caller holds the call (sendonly, inactive), nothing is sent. */
  private reinvite(request: SipMessage, transaction: SipServerTransaction): void {
    if (this.phase !== 'answered' || !this.audio) {
      transaction.send(makeResponse(request, 491, 'Request Pending'))
      return
    }
    let media = this.media
    if (request.content) {
      const negotiation = negotiate(request.content)
      if (!negotiation.ok) {
        transaction.send(
          makeResponse(request, 488, 'Not Acceptable Here', { headers: { warning: `399 voicedesk "${negotiation.problem}"` } }),
        )
        return
      }
      media = negotiation.media
      this.media = media
      this.sdpVersion += 1
      this.audio.use(media)
    }
    transaction.send(
      makeResponse(request, 200, 'OK', {
        headers: { to: toWithTag(request, this.localTag), contact: this.contact(), 'content-type': 'application/sdp' },
        content: media ? this.answer_(media) : undefined,
      }),
    )
  }

  /** What the call session sends: its audio, marks and clears to the RTP bridge (the first audio answers the call), a refusal's info. */
  private frame(frame: ServerFrame): void {
    this.audio?.frame(frame)
    if (frame.event === 'media' && this.phase === 'ringing') this.answer()
    // Before the session exists, an info frame is a refusal (TOO_MANY_CALLS, UNAVAILABLE…).
    if (frame.event === 'info' && !this.session) this.refusal = frame.code
  }

  /** 200 OK with the SDP answer; the agent's audio starts on the packet clock. */
  private answer(): void {
    if (this.phase !== 'ringing' || !this.audio) return
    if (this.answerTimer !== undefined) clearTimeout(this.answerTimer)
    this.phase = 'answered'
    const { rtp } = this.audio
    const local = { address: rtp.address, port: rtp.port, sessionId: this.sessionId, sessionVersion: this.sdpVersion }
    const ok = this.response(200, 'OK', this.media ? answerSdp(local, this.media) : offerSdp(local))
    this.transaction.send(ok)
    if (this.remote.protocol === 'UDP') this.resendOk(ok, T1_MS, 0)
    rtp.play()
  }

  private resendOk(ok: SipMessage, delayMs: number, waitedMs: number): void {
    if (waitedMs + delayMs > 64 * T1_MS) {
      // No ACK within 64 × T1: the caller is gone (RFC 3261 13.3.1.4).
      this.okTimer = undefined
      if (this.phase === 'answered') this.session?.receive({ event: 'stop' })
      return
    }
    this.okTimer = setTimeout(() => {
      this.deps.send(ok)
      this.resendOk(ok, Math.min(delayMs * 2, T2_MS), waitedMs + delayMs)
    }, delayMs)
  }

  /** The call session ended (the agent hung up, the call was ended, or it was refused): a BYE when the caller is still there. */
  private agentEnded(): void {
    if (this.phase === 'answered' && !this.hungUpByCaller) this.sendBye()
    else if (this.phase === 'ringing') this.finalResponse(480, 'Temporarily Unavailable')
    this.end()
  }

  /** Ends the call here: no more audio, the dialog closed. */
  private end(): void {
    if (this.phase === 'ended') return
    this.phase = 'ended'
    this.release()
  }

  private release(): void {
    this.phase = 'ended'
    if (this.answerTimer !== undefined) clearTimeout(this.answerTimer)
    this.acknowledged()
    this.audio?.close()
    this.deps.dialog(this, false)
  }

  private sendBye(): void {
    const to = this.invite.headers.from
    const from = this.invite.headers.to
    if (!to || !from) return
    const contact = Array.isArray(this.invite.headers.contact) ? this.invite.headers.contact[0]?.uri : undefined
    this.localSeq += 1
    this.deps.request({
      method: 'BYE',
      uri: contact ?? to.uri,
      headers: {
        via: [{ version: '2.0', protocol: this.remote.protocol, host: this.deps.host, port: this.deps.port, params: { rport: null } }],
        to,
        from: { ...from, params: { ...from.params, tag: this.localTag } },
        'call-id': this.callId,
        cseq: { seq: this.localSeq, method: 'BYE' },
        'max-forwards': '70',
      },
    })
  }

  private refuse(status: number, reason: string, warning?: string): void {
    this.finalResponse(status, reason, warning)
    this.release()
  }

  private finalResponse(status: number, reason: string, warning?: string): void {
    const response = this.response(status, reason)
    if (warning) response.headers.warning = `399 voicedesk "${warning.replace(/"/g, "'")}"`
    this.transaction.send(response)
  }

  private response(status: number, reason: string, sdp?: string): SipMessage {
    return makeResponse(this.invite, status, reason, {
      headers: {
        to: toWithTag(this.invite, this.localTag),
        ...(status < 300 ? { contact: this.contact(), allow: ALLOW } : {}),
        ...(sdp ? { 'content-type': 'application/sdp' } : {}),
      },
      content: sdp,
    })
  }

  private contact(): { uri: string; params: Record<string, string | null> }[] {
    const user = this.invite.uri ? userPart(this.invite.uri) : undefined
    const host = this.deps.host.includes(':') ? `[${this.deps.host}]` : this.deps.host
    const transport = this.remote.protocol === 'TCP' ? ';transport=tcp' : ''
    return [{ uri: `sip:${user ? `${user}@` : ''}${host}:${this.deps.port}${transport}`, params: {} }]
  }

  private answer_(media: NegotiatedMedia): string {
    const rtp = this.audio?.rtp
    if (!rtp) throw new Error('The RTP channel is not open')
    return answerSdp({ address: rtp.address, port: rtp.port, sessionId: this.sessionId, sessionVersion: this.sdpVersion }, media)
  }
}

/** The methods the line answers inside and outside a call. */
export const ALLOW = 'INVITE, ACK, CANCEL, BYE, OPTIONS, INFO, REGISTER'

function toWithTag(request: SipMessage, tag: string): SipMessage['headers']['to'] {
  const to = request.headers.to
  return to && { ...to, params: { ...to.params, tag: to.params.tag ?? tag } }
}

/** The From header's user part (the caller's number or name), as sent. */
function userOfFrom(invite: SipMessage): string | undefined {
  const uri = invite.headers.from?.uri
  const user = uri ? userPart(uri) : undefined
  if (!user) return undefined
  try {
    return decodeURIComponent(user).slice(0, 64)
  } catch {
    return user.slice(0, 64)
  }
}

function userPart(uri: string): string | undefined {
  return /^sips?:([^@;>]+)@/i.exec(uri)?.[1]
}
