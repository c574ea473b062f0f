import { isIP } from 'node:net'
import { parseUri } from 'sip'

/*
 * Numbers as SIP carries them: the user part of a request-URI or a From header
 * (`sip:+15551234567@127.0.0.1`, `sip:15551234567@…;user=phone`), percent-encoded and with
 * visual separators allowed (RFC 3966).
 */

/** The user part of a SIP URI, decoded; undefined when the URI has none or cannot be read. */
export function userOf(uri: string | undefined): string | undefined {
  if (uri === undefined) return undefined
  let user: string | undefined
  try {
    user = parseUri(uri)?.user
  } catch {
    return undefined
  }
  if (user === undefined) return undefined
  try {
    return decodeURIComponent(user)
  } catch {
    return user
  }
}

/** A dialled user part as an E.164 number (`+` and 2 to 15 digits, the `+` optional when dialled); undefined when it is not one. */
export function e164Of(user: string | undefined): string | undefined {
  if (user === undefined) return undefined
  const compact = user.replace(/[-.() ]/g, '')
  const match = /^\+?(\d{2,15})$/.exec(compact)
  return match ? `+${match[1]}` : undefined
}

/** A `sip:` URI's user, host (an IP address, or localhost as 127.0.0.1), port (5060 when left out) and transport; undefined when it is not one. */
export function parseSipUri(uri: string): { user: string | undefined; host: string; port: number; protocol: 'UDP' | 'TCP' } | undefined {
  let parsed: ReturnType<typeof parseUri>
  try {
    parsed = parseUri(uri)
  } catch {
    return undefined
  }
  if (!parsed || parsed.schema?.toLowerCase() !== 'sip' || typeof parsed.host !== 'string') return undefined
  const host = parsed.host.replace(/^\[|\]$/g, '').toLowerCase()
  const address = host === 'localhost' ? '127.0.0.1' : host
  if (isIP(address) === 0) return undefined
  const port = parsed.port === undefined ? 5060 : Number(parsed.port)
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return undefined
  const transport = String(parsed.params.transport ?? 'udp').toLowerCase()
  if (transport !== 'udp' && transport !== 'tcp') return undefined
  const user = userOf(uri)
  return { user, host: address, port, protocol: transport === 'tcp' ? 'TCP' : 'UDP' }
}
