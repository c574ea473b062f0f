import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { isIP } from 'node:net'
import type { buildConnector as BuildConnector } from 'undici'
import { refusedAddressReason, type WebhookAddressPolicy } from './webhook-address-policy'

/** The code of an attempt refused because of the address it would connect to. */
export const REFUSED_ADDRESS_CODE = 'VOICEDESK_REFUSED_ADDRESS'

/** dns.lookup's shape, as net.connect calls it (tests pass one that resolves names of their own). */
export type Lookup = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void

function refusal(host: string, address: string, reason: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    `Refused to connect to ${host}${host === address ? '' : ` (${address})`}: ${reason}; allow it with --allow-webhook-host ${host}`,
  )
  error.code = REFUSED_ADDRESS_CODE
  return error
}

/**
 * A DNS lookup that drops the addresses webhooks may not reach, and fails when none is left.
 * net.connect connects to what the lookup answers, so the check is on the very address
 * connected to: a name that resolves differently later (DNS rebinding) is checked again.
 */
export function guardedLookup(policy: WebhookAddressPolicy, lookup: Lookup = dnsLookup): Lookup {
  return (hostname, options, callback) => {
    if (policy.isAllowedHost(hostname)) return lookup(hostname, options, callback)
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      const all = addresses as LookupAddress[]
      const usable = all.filter((entry) => refusedAddressReason(entry.address) === undefined)
      const first = all[0]
      const [chosen] = usable
      if (chosen === undefined || !first) {
        return callback(
          // None usable: the first address is one of the refused, and says why.
          first
            ? refusal(hostname, first.address, refusedAddressReason(first.address) ?? 'refused')
            : Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }),
          [],
        )
      }
      if (options.all) return callback(null, usable)
      callback(null, chosen.address, chosen.family)
    })
  }
}

/**
 * undici's connector with the address policy: IP literals are checked before connecting
 * (no lookup runs for them), names through guardedLookup.
 */
export function guardedConnector(
  buildConnector: typeof BuildConnector,
  policy: WebhookAddressPolicy,
  options: BuildConnector.BuildOptions & { lookup?: Lookup },
): BuildConnector.connector {
  const connect = buildConnector({ ...options, lookup: guardedLookup(policy, options.lookup) })
  return (connectOptions, callback) => {
    const host = connectOptions.hostname.replace(/^\[(.*)\]$/, '$1')
    const reason = isIP(host) && !policy.isAllowedHost(host) ? refusedAddressReason(host) : undefined
    if (reason) return callback(refusal(host, host, reason), null)
    return connect(connectOptions, callback)
  }
}
