import { isIP } from 'node:net'
import type { RuntimeConfig } from './config'

/*
 * The SIP line's settings as the command line and the runtime check them, apart from the line
 * itself (sip.ts): `voicedesk` reads its options without loading the SIP stack.
 */

/** The SIP line's default port (`serve --sip-port`); an embedder's runtime has no line unless its config asks for one. */
export const DEFAULT_SIP_PORT = 5060

/** Whether `host` is this machine only: the line may bind there without SIP users (which come with digest authentication). */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true
  if (isIP(host) === 4) return host.startsWith('127.')
  return host === '::1'
}

/** Why a SIP line config cannot start, naming its field; undefined when it can (a host other than loopback is checked at start, against the SIP users). */
export function sipConfigProblem(sip: NonNullable<RuntimeConfig['sip']>): string | undefined {
  if (!Number.isInteger(sip.port) || sip.port < 0 || sip.port > 65_535)
    return `port must be a whole number from 0 to 65535, not ${sip.port}`
  for (const entry of sip.allowOutbound ?? []) {
    if (!allowEntryOf(entry)) return `allowOutbound entry ${JSON.stringify(entry)} is not host or host:port (an IP address or localhost)`
  }
  return undefined
}

/**
 * Why the line may not bind `host` with `users` SIP users: any address but this machine's
 * loopback reaches other machines, so it is taken only once SIP users exist (every REGISTER,
 * and every INVITE from another machine, then needs one's digest credentials).
 */
export function sipHostProblem(host: string, users: number): string | undefined {
  if (isLoopbackHost(host) || users > 0) return undefined
  return `${host} is not this machine only, and there are no SIP users yet: add one first ("voicedesk sip-user add NAME", or in the app), so that registrations and calls from other machines need its password (digest authentication); or use 127.0.0.1`
}

/** An allow-list entry as host and port (undefined: any port); undefined when it is not one. */
export function allowEntryOf(entry: string): { host: string; port: number | undefined } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:\s]+|[0-9a-f:]+)(?::(\d{1,5}))?$/i.exec(entry.trim())
  if (!match?.[1]) return undefined
  const host = match[1].replace(/^\[|\]$/g, '').toLowerCase()
  if (host !== 'localhost' && isIP(host) === 0) return undefined
  const port = match[2] === undefined ? undefined : Number(match[2])
  if (port !== undefined && (port < 1 || port > 65_535)) return undefined
  return { host: host === 'localhost' ? '127.0.0.1' : host, port }
}
