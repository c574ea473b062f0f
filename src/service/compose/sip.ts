import { isIP } from 'node:net'
import type { ConversationHost } from '../../conversations/conversation-host'
import type { OpsContext } from '../ops/ops-context'
import { SipLine } from '../sip/sip-line'
import type { RuntimeConfig, SipLineStatus } from './config'
import type { RuntimeStorage } from './storage'

/** The SIP line's default port (`serve --sip-port`); an embedder's runtime has no line unless its config asks for one. */
export const DEFAULT_SIP_PORT = 5060

/** Whether `host` is this machine only: the line may bind there without SIP users (which come with digest authentication). */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true
  if (isIP(host) === 4) return host.startsWith('127.')
  return host === '::1'
}

/** Why a SIP line config cannot start, naming its field; undefined when it can. */
export function sipConfigProblem(sip: NonNullable<RuntimeConfig['sip']>): string | undefined {
  if (!Number.isInteger(sip.port) || sip.port < 0 || sip.port > 65_535)
    return `port must be a whole number from 0 to 65535, not ${sip.port}`
  const hostProblem = sipHostProblem(sip.host ?? '127.0.0.1')
  return hostProblem && `host ${hostProblem}`
}

/** Why the line may not bind `host`: any address but this machine's loopback would answer anyone. */
export function sipHostProblem(host: string): string | undefined {
  if (isLoopbackHost(host)) return undefined
  return `${host} is not this machine only: a SIP line on another address needs SIP users with passwords (digest authentication), which this version does not have yet, so it would answer anyone; use 127.0.0.1`
}

/**
 * The SIP line as the runtime holds it: started after the HTTP server, it never stops the
 * service from starting: a port another program holds leaves the line off, with the problem
 * in `status` (the CLI's banner and the log say it).
 */
export class RuntimeSipLine {
  private line: SipLine | undefined
  private problem: string | undefined

  constructor(
    private readonly config: RuntimeConfig['sip'],
    private readonly parts: { context: OpsContext; calls: ConversationHost; storage: RuntimeStorage },
  ) {}

  get status(): SipLineStatus {
    if (!this.config) return { state: 'off' }
    if (this.line) return { state: 'listening', host: this.line.host, port: this.line.port }
    return { state: 'failed', problem: this.problem ?? 'not started' }
  }

  /** The line itself (tests read its counters); undefined while it does not listen. */
  get listening(): SipLine | undefined {
    return this.line
  }

  async start(): Promise<void> {
    const { config } = this
    if (!config || this.line) return
    const host = config.host === 'localhost' || config.host === undefined ? '127.0.0.1' : config.host
    const { errorLog } = this.parts.storage
    try {
      this.line = await SipLine.start({
        host,
        port: config.port,
        context: this.parts.context,
        connect: (jobId, projectId, transport) => this.parts.calls.connect(jobId, projectId, transport),
        callPlacesLeft: () => this.parts.calls.callPlacesLeft,
        keypadPauseMs: config.keypadPauseMs,
        onError: (error, what) => errorLog.error({ err: error }, `SIP line: ${what}`),
        // Choppy audio on a call shows here first: ticks of the packet clock that ran late.
        onMediaClock: (stats) =>
          this.parts.storage.log.info({ sipMediaClock: stats }, 'SIP line: the RTP packet clock while calls were on'),
      })
    } catch (error) {
      this.problem = sipListenProblem(error as NodeJS.ErrnoException, host, config.port)
      this.parts.storage.log.warn(`SIP line off: ${this.problem}`)
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
