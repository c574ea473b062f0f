import type { ConversationHost } from '../../conversations/conversation-host'
import type { OpsContext } from '../ops/ops-context'
import type { DialRefusal, DialTarget, ResolvedTarget, SipRegistration, Telephony } from '../ops/telephony'
import { ha1Of } from '../sip/digest-auth'
import { parseSipUri } from '../sip/dialled-number'
import type { OutboundTarget } from '../sip/outbound-call'
import { SipLine } from '../sip/sip-line'
import type { RuntimeConfig, SipLineStatus } from './config'
import { allowEntryOf, isLoopbackHost, sipHostProblem } from './sip-config'
import type { RuntimeStorage } from './storage'

/** What the line needs of the runtime once the use cases and the call host exist. */
interface SipLineParts {
  context: OpsContext
  calls: ConversationHost
}

/**
 * The SIP line as the runtime holds it: started after the HTTP server, it never stops the
 * service from starting: a port another program holds leaves the line off, with the problem
 * in `status` (the CLI's banner and the log say it). It is the use cases' Telephony too: SIP
 * users' registrations and the agents' outbound calls.
 */
export class RuntimeSipLine implements Telephony {
  private line: SipLine | undefined
  private problem: string | undefined
  private parts: SipLineParts | undefined
  private readonly allowed: { host: string; port: number | undefined }[]

  constructor(
    private readonly config: RuntimeConfig['sip'],
    private readonly storage: RuntimeStorage,
  ) {
    this.allowed = (config?.allowOutbound ?? []).flatMap((entry) => allowEntryOf(entry) ?? [])
  }

  /** Joins the use cases and the call host (made after the context, which holds this line). */
  attach(parts: SipLineParts): void {
    this.parts = parts
  }

  boundAddress(): { host: string; port: number } | undefined {
    return this.line ? { host: this.line.host, port: this.line.port } : undefined
  }

  get status(): SipLineStatus {
    if (!this.config) return { state: 'off' }
    if (this.line) return { state: 'listening', host: this.line.host, port: this.line.port }
    return { state: 'failed', problem: this.problem ?? 'not started' }
  }

  /** The line itself (tests read its counters); undefined while it does not listen. */
  get listening(): SipLine | undefined {
    return this.line
  }

  /** Whether calls and registrations need credentials: REGISTER always does; an INVITE from another machine does. */
  async authRequired(): Promise<boolean> {
    const host = this.line?.host ?? this.config?.host ?? '127.0.0.1'
    return !isLoopbackHost(host) || (await this.storage.store.sipUsers.count()) > 0
  }

  async start(): Promise<void> {
    const { config, parts } = this
    if (!config || this.line || !parts) return
    const host = config.host === 'localhost' || config.host === undefined ? '127.0.0.1' : config.host
    const { errorLog } = this.storage
    const hostProblem = sipHostProblem(host, await this.storage.store.sipUsers.count())
    if (hostProblem) {
      this.problem = hostProblem
      this.storage.log.warn(`SIP line off: ${this.problem}`)
      return
    }
    try {
      this.line = await SipLine.start({
        host,
        port: config.port,
        context: parts.context,
        connect: (jobId, projectId, transport) => parts.calls.connect(jobId, projectId, transport),
        callPlacesLeft: () => parts.calls.callPlacesLeft,
        keypadPauseMs: config.keypadPauseMs,
        ringTimeoutMs: config.ringTimeoutMs,
        onError: (error, what) => errorLog.error({ err: error }, `SIP line: ${what}`),
        // Choppy audio on a call shows here first: ticks of the packet clock that ran late.
        onMediaClock: (stats) => this.storage.log.info({ sipMediaClock: stats }, 'SIP line: the RTP packet clock while calls were on'),
      })
    } catch (error) {
      this.problem = sipListenProblem(error as NodeJS.ErrnoException, host, config.port)
      this.storage.log.warn(`SIP line off: ${this.problem}`)
    }
  }

  /** New calls are refused from now on (the live ones end with the call host's stop, each with its BYE). */
  stopAccepting(): void {
    this.line?.stopAccepting()
  }

  async close(): Promise<void> {
    await this.line?.close()
    this.line = undefined
  }

  ha1Of(name: string, password: string): string {
    return ha1Of(name, password)
  }

  registration(name: string): SipRegistration | undefined {
    const binding = this.line?.registrar.lookup(name)
    return binding && { contact: binding.contact, registeredUntil: new Date(binding.expiresAt).toISOString() }
  }

  forget(name: string): void {
    this.line?.registrar.forget(name)
  }

  async resolve(target: DialTarget): Promise<ResolvedTarget | DialRefusal> {
    const line = this.line
    if (!line) {
      const why = this.config ? `it could not start: ${this.problem ?? 'not started'}` : 'the service runs with --sip-port off'
      return { code: 'CONFLICT', message: `The SIP line is off (${why}), so no call can be placed` }
    }
    if ('uri' in target) return this.allowedUri(target.uri)
    const user = await this.userNamed(target.sipUser)
    if (!user)
      return { code: 'NOT_FOUND', message: `No SIP user named ${JSON.stringify(target.sipUser)} (add one: voicedesk sip-user add NAME)` }
    const binding = line.registrar.lookup(user)
    if (!binding) {
      return { code: 'CONFLICT', message: `The SIP user ${user} is not registered: its softphone must register with the SIP line first` }
    }
    const route: OutboundTarget = { uri: binding.contact, remote: binding.remote, fromNumber: '', toNumber: user }
    return { toNumber: user, route }
  }

  async dial(target: ResolvedTarget, call: { jobId: string; projectId: string; fromNumber: string }) {
    const { line, parts } = this
    if (!line || !parts) return { ok: false as const, code: 'UNAVAILABLE' }
    const route = { ...(target.route as OutboundTarget), fromNumber: call.fromNumber }
    return line.dial(route, (transport) => parts.calls.connect(call.jobId, call.projectId, transport))
  }

  /** The user a name calls: as given, else the same number with or without its +. */
  private async userNamed(name: string): Promise<string | undefined> {
    const { sipUsers } = this.storage.store
    for (const candidate of [name, ...(/^\+\d+$/.test(name) ? [name.slice(1)] : /^\d+$/.test(name) ? [`+${name}`] : [])]) {
      if (await sipUsers.get(candidate)) return candidate
    }
    return undefined
  }

  /** A `sip:` URI the line may ring: this machine's loopback, or a host (and port) on the allow-list. */
  private allowedUri(uri: string): ResolvedTarget | DialRefusal {
    const parsed = parseSipUri(uri)
    if (!parsed)
      return {
        code: 'VALIDATION_ERROR',
        message: `${JSON.stringify(uri)} is not a SIP URI with an IP address or localhost (sip:user@host[:port])`,
      }
    const { host, port, protocol } = parsed
    const allowed =
      isLoopbackHost(host) || this.allowed.some((entry) => entry.host === host && (entry.port === undefined || entry.port === port))
    if (!allowed) {
      return {
        code: 'FORBIDDEN',
        message: `${host}:${port} is not on the outbound allow-list (only this machine by default): start the service with --sip-allow-outbound ${host}:${port}`,
      }
    }
    const route: OutboundTarget = { uri, remote: { protocol, address: host, port }, fromNumber: '', toNumber: parsed.user ?? uri }
    return { toNumber: parsed.user ?? uri, route }
  }
}

function sipListenProblem(error: NodeJS.ErrnoException, host: string, port: number): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} (UDP or TCP) is already in use, probably by another SIP program or VoiceDesk: stop it, or pass --sip-port 0 for a free port (or --sip-port off)`
    case 'EACCES':
      return `this user may not listen on port ${port}: use a port above 1023 (--sip-port 5080), or --sip-port 0`
    case 'EADDRNOTAVAIL':
      return `${host} is not an address of this machine`
    default:
      return error.message
  }
}
