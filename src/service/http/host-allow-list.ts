import ipaddr from 'ipaddr.js'
import { networkInterfaces } from 'node:os'

export interface HostAllowListOptions {
  /** The address or name the service listens on (`--host`). */
  listenHost: string
  /** More names or addresses the operator allows (`--allowed-host`), without port. */
  allowedHosts?: readonly string[]
}

/** Distinct Host values remembered; beyond that the memory starts again (a flood of forged names costs nothing). */
const MAX_REMEMBERED = 256

const WILDCARDS = new Set(['0.0.0.0', '::'])

/** `name`, `name:port`, `[v6]` or `[v6]:port`, as the bare lower-case name or address; undefined when malformed. */
export function hostnameOf(hostHeader: string): string | undefined {
  const value = hostHeader.trim().toLowerCase()
  if (value.startsWith('[')) {
    const end = value.indexOf(']')
    const rest = value.slice(end + 1)
    if (end === -1 || (rest !== '' && !/^:\d*$/.test(rest))) return undefined
    return value.slice(1, end)
  }
  const colon = value.indexOf(':')
  const name = colon === -1 ? value : value.slice(0, colon)
  if (colon !== -1 && !/^\d*$/.test(value.slice(colon + 1))) return undefined // a bare IPv6, or junk
  return name.endsWith('.') ? name.slice(0, -1) : name
}

/** An IP in one spelling (::ffff:127.0.0.1 is 127.0.0.1), or undefined for a name. */
function addressKey(host: string): string | undefined {
  return ipaddr.isValid(host) && (ipaddr.IPv4.isValidFourPartDecimal(host) || ipaddr.IPv6.isValid(host))
    ? ipaddr.process(host).toString()
    : undefined
}

function isLoopback(host: string): boolean {
  // RFC 6761: localhost and every name under it are this machine; no web page can rebind them.
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  const key = addressKey(host)
  return key !== undefined && ipaddr.process(key).range() === 'loopback'
}

function interfaceAddresses(): Set<string> {
  const addresses = new Set<string>()
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) addresses.add(ipaddr.process(entry.address.replace(/%.*$/, '')).toString())
  }
  return addresses
}

/**
 * Which Host headers this service answers (DNS rebinding: a page on evil.example whose name
 * is re-pointed at 127.0.0.1 reaches the service with `Host: evil.example`). Allowed: loopback
 * names and addresses, the listening host, the operator's allowed hosts and, when listening
 * on every interface, the machine's interface addresses. The port is not compared. Decisions
 * are remembered per distinct Host value, so the check costs one map lookup per request.
 */
export function createHostAllowList(options: HostAllowListOptions): (hostHeader: string | undefined) => boolean {
  const wildcard = WILDCARDS.has(options.listenHost)
  const fixed = new Set<string>()
  for (const host of [options.listenHost, ...(options.allowedHosts ?? [])]) {
    const bare = hostnameOf(host.includes(':') && !host.startsWith('[') && ipaddr.IPv6.isValid(host) ? `[${host}]` : host)
    if (bare) fixed.add(addressKey(bare) ?? bare)
  }
  const remembered = new Map<string, boolean>()

  const decide = (hostHeader: string): { allowed: boolean; final: boolean } => {
    const host = hostnameOf(hostHeader)
    if (host === undefined || host === '') return { allowed: false, final: true }
    const key = addressKey(host) ?? host
    if (isLoopback(host) || fixed.has(key)) return { allowed: true, final: true }
    // An address the machine gains later (a new network) must work at once: not remembered as refused.
    if (wildcard && addressKey(host) !== undefined) return { allowed: interfaceAddresses().has(key), final: false }
    return { allowed: false, final: true }
  }

  return (hostHeader) => {
    if (hostHeader === undefined) return false
    const known = remembered.get(hostHeader)
    if (known !== undefined) return known
    const { allowed, final } = decide(hostHeader)
    if (final || allowed) {
      if (remembered.size >= MAX_REMEMBERED) remembered.clear()
      remembered.set(hostHeader, allowed)
    }
    return allowed
  }
}
