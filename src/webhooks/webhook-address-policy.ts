import ipaddr from 'ipaddr.js'

/** AWS's IPv6 instance metadata service; the IPv4 one (169.254.169.254) is link-local. */
const METADATA_IPV6 = ipaddr.IPv6.parse('fd00:ec2::254')

/**
 * Why webhooks may not go to an IP address, or undefined when they may. Refused: link-local
 * (169.254.0.0/16, fe80::/10: where cloud metadata services answer), unspecified (0.0.0.0/8,
 * `::`: "this host" to the kernel) and fd00:ec2::254; IPv4-mapped and NAT64 (64:ff9b::/96) forms of these too.
 * Loopback and private networks stay allowed: this is a local tool.
 */
export function refusedAddressReason(address: string): string | undefined {
  const literal = address.replace(/^\[(.*)\]$/, '$1')
  if (!ipaddr.isValid(literal)) return undefined
  const parsed = ipaddr.process(literal) // ::ffff:169.254.169.254 is 169.254.169.254
  const range = parsed.range()
  if (range === 'linkLocal') return 'a link-local address (where cloud metadata services answer)'
  if (range === 'unspecified') return 'an unspecified address'
  if (parsed.kind() === 'ipv6' && parsed.match(METADATA_IPV6, 128)) return 'a cloud metadata address'
  if (parsed.kind() === 'ipv6' && range === 'rfc6052') {
    // NAT64 (64:ff9b::/96) carries an IPv4 address in its last 32 bits: 64:ff9b::a9fe:a9fe reaches 169.254.169.254.
    const [high = 0, low = 0] = (parsed as ipaddr.IPv6).parts.slice(6)
    return refusedAddressReason(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`)
  }
  return undefined
}

/**
 * A host name or IP literal as compared with the allow-list: lower case, no brackets, an IP
 * in one spelling (URLs write ::ffff:169.254.169.254 as ::ffff:a9fe:a9fe; both are 169.254.169.254).
 */
function hostKey(host: string): string {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
  return ipaddr.isValid(bare) ? ipaddr.process(bare).toString() : bare
}

/**
 * Where webhooks may be sent: checked when a webhookUrl is given (its host, when that is an
 * IP literal) and again when the sender connects (the address a name resolved to then).
 * Hosts on the operator's allow-list (`--allow-webhook-host`) pass both checks.
 */
export class WebhookAddressPolicy {
  private readonly allowed: ReadonlySet<string>

  constructor(allowedHosts: readonly string[] = []) {
    this.allowed = new Set(allowedHosts.map(hostKey))
  }

  isAllowedHost(host: string): boolean {
    return this.allowed.size > 0 && this.allowed.has(hostKey(host))
  }

  /** Why a URL's host (an IP literal) is refused, or undefined. Host names are left to connect time. */
  refusedUrlReason(url: string): string | undefined {
    let hostname: string
    try {
      hostname = new URL(url).hostname
    } catch {
      return undefined // the schema has already refused it
    }
    if (this.isAllowedHost(hostname)) return undefined
    const reason = refusedAddressReason(hostname)
    return (
      reason && `${hostname.replace(/^\[(.*)\]$/, '$1')} is ${reason}; webhooks are not sent there (allow it with --allow-webhook-host)`
    )
  }
}
