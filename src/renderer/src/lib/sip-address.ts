/** The host part of a SIP URI: an IPv6 address in brackets. */
export function sipHostPart(host: string): string {
  return host.includes(':') ? `[${host}]` : host
}

/** How to call `number` on a listening line: `sip:+14155550100@127.0.0.1:5060`. */
export function sipAddressOf(number: string, line: { host: string; port: number }): string {
  return `sip:${number}@${sipHostPart(line.host)}:${line.port}`
}
