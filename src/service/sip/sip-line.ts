import { makeResponse, makeTransactionLayer, type SipMessage, type SipTransactionLayer } from 'sip'
import type { CallSession, CallTransport } from '../../conversations/call-session'
import { createResampler } from '../../engines/audio/speex-resampler'
import type { Store } from '../../store/ports'
import { initConversation } from '../ops/conversations'
import type { OpsContext } from '../ops/ops-context'
import { e164Of, userOf } from './dialled-number'
import { DigestGate } from './digest-auth'
import { ALLOW, InboundCall, type InboundRoute } from './inbound-call'
import { MediaPlane } from './media-plane'
import { OutboundCall, type OutboundTarget } from './outbound-call'
import { Registrar } from './registrar'
import { SipTransport, type SipRemote } from './sip-transport'

/** How long an INVITE waits for the greeting's first audio before it is answered anyway. */
const ANSWER_WAIT_MS = 3_000

export interface SipLineOptions {
  /** A loopback address (the runtime refuses others until SIP users and digest authentication exist). */
  host: string
  /** 0: a free port. */
  port: number
  context: OpsContext
  /** The conversation host's connect (ConversationHost.connect): SIP calls are live calls like the web SDK's. */
  connect: (jobId: string, projectId: string, transport: CallTransport) => Promise<CallSession | undefined>
  onError: (error: unknown, context: string) => void
  /** How long after the last key a keypad entry counts as finished (2 s). */
  keypadPauseMs?: number
  /** How long an outbound call may ring before it is given up (30 s). */
  ringTimeoutMs?: number
}

/** How long an outbound call rings by default. */
const RING_TIMEOUT_MS = 30_000

/** A call with a dialog: in-dialog requests and ACKs go to it. */
interface LineDialog {
  inDialog(request: SipMessage, transaction: ReturnType<SipTransactionLayer['createServerTransaction']>): void
  acknowledged(ack?: SipMessage): void
}

/** Whether a request came from this machine (a softphone here may call without credentials; any other needs digest). */
function fromLoopback(remote: SipRemote): boolean {
  const address = remote.address.replace(/^::ffff:/i, '')
  return address.startsWith('127.') || address === '::1'
}

/**
 * The service's SIP line (UDP and TCP on one port): calls to registered numbers are answered by
 * the agent each number is assigned to. sip.js reads and writes the messages and keeps the
 * transactions (retransmissions, the ACK of a refusal); here, which request goes where:
 * OPTIONS is answered 200, a REGISTER goes to the registrar (digest-authenticated), an INVITE
 * starts an InboundCall (from another machine only with a SIP user's digest credentials), a
 * CANCEL, an ACK and requests inside a call go to their call, and anything else is 501. A
 * request for a call that is not there is 481. `dial` places an agent's outbound call.
 */
export class SipLine {
  private readonly transactions: SipTransactionLayer
  private readonly media: MediaPlane
  /** Calls by Call-ID and our tag (in-dialog requests name both). */
  private readonly dialogs = new Map<string, LineDialog>()
  /** Digest authentication of REGISTER and of INVITEs from other machines, against the stored SIP users. */
  readonly gate: DigestGate
  readonly registrar: Registrar
  /** Calls not yet answered, by Call-ID and the INVITE's branch (a CANCEL names both). */
  private readonly unanswered = new Map<string, InboundCall>()
  private accepting = true

  private constructor(
    private readonly transport: SipTransport,
    private readonly options: SipLineOptions,
  ) {
    this.transactions = makeTransactionLayer({}, (target) => transport.connection(target as SipRemote))
    this.media = new MediaPlane(options.onError)
    this.gate = new DigestGate(async (user) => (await options.context.store.sipUsers.get(user))?.ha1Md5)
    this.registrar = new Registrar(this.gate)
  }

  /** Binds the line; rejects with the system's error (EADDRINUSE, EACCES…) when its port cannot be had. */
  static async start(options: SipLineOptions): Promise<SipLine> {
    let line: SipLine | undefined
    const transport = await SipTransport.listen({
      host: options.host,
      port: options.port,
      onMessage: (message, remote) => line?.receive(message, remote),
      onError: options.onError,
    })
    line = new SipLine(transport, options)
    return line
  }

  get host(): string {
    return this.transport.host
  }

  get port(): number {
    return this.transport.port
  }

  /** Messages dropped as malformed so far. */
  get dropped(): number {
    return this.transport.dropped
  }

  /** New calls are refused (503) from now on: the service is stopping. */
  stopAccepting(): void {
    this.accepting = false
  }

  async close(): Promise<void> {
    this.accepting = false
    // The BYEs of calls the service just ended leave first (a client transaction sends on the next tick); once, not retried.
    await new Promise((resolve) => setImmediate(resolve))
    this.transactions.destroy()
    await this.transport.close()
    await this.media.close()
  }

  private receive(message: SipMessage, remote: SipRemote): void {
    if (message.method === undefined) {
      // A response to a request of ours (a BYE).
      this.transactions.getClient(message)?.message(message, remote)
      return
    }
    const existing = this.transactions.getServer(message)
    if (message.method === 'ACK') {
      // The ACK of a refusal belongs to its INVITE's transaction; the ACK of a 200 to the call (some
      // phones reuse the INVITE's branch for it, so it may find the transaction too: the call hears it either way).
      existing?.message(message, remote)
      this.dialogOf(message)?.acknowledged(message)
      return
    }
    if (existing) {
      // A retransmission: the transaction answers it again.
      existing.message(message, remote)
      return
    }
    const transaction = this.transactions.createServerTransaction(message, this.transport.connection(remote))
    const tag = message.headers.to?.params.tag
    switch (message.method) {
      case 'OPTIONS':
        return transaction.send(makeResponse(message, 200, 'OK', { headers: { allow: ALLOW, accept: 'application/sdp' } }))
      case 'REGISTER':
        return void this.registrar.register(message, transaction, remote).catch((error: unknown) => {
          this.options.onError(error, 'a REGISTER could not be answered')
          transaction.send(makeResponse(message, 500, 'Server Internal Error'))
        })
      case 'INVITE':
        if (tag) return this.toDialog(message, transaction)
        if (!this.accepting) return transaction.send(makeResponse(message, 503, 'Service Unavailable'))
        if (fromLoopback(remote)) return void this.inbound(message, transaction, remote)
        return void this.authenticated(message, transaction, remote)
      case 'CANCEL': {
        const call = this.unanswered.get(`${message.headers['call-id'] ?? ''};${message.headers.via?.[0]?.params.branch ?? ''}`)
        transaction.send(makeResponse(message, call ? 200 : 481, call ? 'OK' : 'Call/Transaction Does Not Exist'))
        call?.cancel()
        return
      }
      case 'BYE':
      case 'INFO':
        return this.toDialog(message, transaction)
      default:
        return transaction.send(makeResponse(message, 501, 'Not Implemented', { headers: { allow: ALLOW } }))
    }
  }

  private toDialog(message: SipMessage, transaction: ReturnType<SipTransactionLayer['createServerTransaction']>): void {
    const call = this.dialogOf(message)
    if (!call) return transaction.send(makeResponse(message, 481, 'Call/Transaction Does Not Exist'))
    call.inDialog(message, transaction)
  }

  /** An INVITE from another machine: answered only with a SIP user's digest credentials. */
  private async authenticated(
    invite: SipMessage,
    transaction: ReturnType<SipTransactionLayer['createServerTransaction']>,
    remote: SipRemote,
  ): Promise<void> {
    try {
      const verdict = await this.gate.verify(invite)
      if (!verdict.ok) return transaction.send(verdict.challenge ?? makeResponse(invite, verdict.status, verdict.reason))
    } catch (error) {
      this.options.onError(error, 'the credentials of an INVITE could not be checked')
      return transaction.send(makeResponse(invite, 500, 'Server Internal Error'))
    }
    this.inbound(invite, transaction, remote)
  }

  /**
   * Places an agent's call to `target` (a registered softphone, or an allowed SIP URI): the
   * conversation's session connects first; answers its refusal's code when it was refused.
   */
  async dial(
    target: OutboundTarget,
    connect: (transport: CallTransport) => Promise<CallSession | undefined>,
  ): Promise<{ ok: true } | { ok: false; code: string }> {
    if (!this.accepting) return { ok: false, code: 'UNAVAILABLE' }
    const connection = this.transport.connection(target.remote)
    const call: OutboundCall = new OutboundCall(target, {
      host: this.transport.host,
      port: this.transport.port,
      media: this.media,
      resampler: (fromRate, toRate) => createResampler(fromRate, toRate, 1, { quality: 5 }),
      connect,
      invite: (message, onResponse) => this.transactions.createClientTransaction(connection, message, onResponse),
      request: (message) => {
        this.transactions.createClientTransaction(connection, message, () => undefined)
      },
      send: (message) => this.transport.send(target.remote, message),
      dialog: (which, open) => this.dialogChanged(`${which.callId};${which.localTag}`, which, open),
      ringTimeoutMs: this.options.ringTimeoutMs ?? RING_TIMEOUT_MS,
      keypadPauseMs: this.options.keypadPauseMs,
      onError: this.options.onError,
    })
    return call.start()
  }

  private dialogChanged(key: string, which: LineDialog, open: boolean): void {
    if (open) this.dialogs.set(key, which)
    else if (this.dialogs.get(key) === which) {
      // Kept a little longer: a BYE's retransmission, or an ACK late, still finds its call.
      setTimeout(() => this.dialogs.get(key) === which && this.dialogs.delete(key), 32_000).unref()
    }
  }

  private dialogOf(message: SipMessage): LineDialog | undefined {
    return this.dialogs.get(`${message.headers['call-id'] ?? ''};${message.headers.to?.params.tag ?? ''}`)
  }

  private inbound(invite: SipMessage, transaction: ReturnType<SipTransactionLayer['createServerTransaction']>, remote: SipRemote): void {
    const call: InboundCall = new InboundCall(invite, transaction, remote, {
      host: this.transport.host,
      port: this.transport.port,
      media: this.media,
      route: (uri) => routeOf(this.options.context.store, uri),
      connect: async (route, fromNumber, callTransport) => {
        const { context } = this.options
        const { agent } = route
        const { jobId } = await initConversation(
          context,
          { projectId: agent.projectId, apiKeyId: agent.apiKeyId, userId: agent.userId },
          { voiceAgentId: agent.voiceAgentId },
          { direction: 'inbound', fromNumber, toNumber: route.number },
        )
        return this.options.connect(jobId, agent.projectId, callTransport)
      },
      resampler: (fromRate, toRate) => createResampler(fromRate, toRate, 1, { quality: 5 }),
      send: (message) => this.transport.send(remote, message),
      request: (message) => {
        this.transactions.createClientTransaction(this.transport.connection(remote), message, () => undefined)
      },
      dialog: (which, open) => {
        this.dialogChanged(`${which.callId};${which.localTag}`, which, open)
        if (!open) this.unanswered.delete(`${which.callId};${which.branch}`)
      },
      answerWaitMs: ANSWER_WAIT_MS,
      keypadPauseMs: this.options.keypadPauseMs,
      onError: this.options.onError,
    })
    this.unanswered.set(`${call.callId};${call.branch}`, call)
    void call.run()
  }
}

/** Who answers a dialled request-URI: the agent its number is assigned to, or the refusal that says why not. */
async function routeOf(store: Pick<Store, 'phoneNumbers'>, uri: string | undefined): Promise<InboundRoute> {
  const number = e164Of(userOf(uri))
  if (!number) return { status: 404, reason: 'Not Found' }
  const registrations = await store.phoneNumbers.findEverywhere(number)
  const [registration] = registrations
  if (!registration) return { status: 404, reason: 'Not Found' }
  // Registered in more than one project: which project's agent answers is not for the line to guess.
  if (registrations.length > 1) return { status: 485, reason: 'Ambiguous' }
  if (!registration.voiceAgentId) return { status: 480, reason: 'Temporarily Unavailable' }
  return {
    number,
    agent: {
      voiceAgentId: registration.voiceAgentId,
      projectId: registration.projectId,
      apiKeyId: registration.apiKeyId,
      userId: registration.userId,
    },
  }
}
