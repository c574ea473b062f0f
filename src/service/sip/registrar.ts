import { makeResponse, type SipMessage, type SipServerTransaction } from 'sip'
import type { DigestGate } from './digest-auth'
import { userOf } from './dialled-number'
import type { SipRemote } from './sip-transport'

/** Expires when a REGISTER names none (seconds), and the bounds of what is taken. */
export const REGISTRATION_DEFAULT_SECONDS = 3_600
export const REGISTRATION_MIN_SECONDS = 60
export const REGISTRATION_MAX_SECONDS = 7_200

/** Where a registered user is reached: its Contact, and the address and transport its REGISTER came from (NAT-safe). */
export interface Binding {
  user: string
  contact: string
  remote: SipRemote
  /** ms since the epoch. */
  expiresAt: number
}

/**
 * The line's registrar and location service (RFC 3261 10): a SIP user registers its softphone
 * with digest authentication, and the agents' outbound calls find it here. One binding per user
 * (the newest REGISTER's contact wins), in memory only: softphones register again at start and
 * every Expires. A user may register only itself.
 */
export class Registrar {
  private readonly bindings = new Map<string, Binding>()

  constructor(
    private readonly gate: DigestGate,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The user's binding while it has not expired. */
  lookup(user: string): Binding | undefined {
    const binding = this.bindings.get(user)
    if (binding && binding.expiresAt <= this.now()) {
      this.bindings.delete(user)
      return undefined
    }
    return binding
  }

  /** Drops the user's binding (removed, or a new password: it must register again). */
  forget(user: string): void {
    this.bindings.delete(user)
  }

  /** Answers a REGISTER through its transaction; never throws for what a peer sends. */
  async register(request: SipMessage, transaction: SipServerTransaction, remote: SipRemote): Promise<void> {
    const verdict = await this.gate.verify(request)
    if (!verdict.ok) return transaction.send(verdict.challenge ?? makeResponse(request, verdict.status, verdict.reason))
    const user = verdict.user
    if (userOf(request.headers.to?.uri) !== user) {
      return transaction.send(forbidden(request, `The user ${user} may register only itself (the To header names another)`))
    }
    const contacts = request.headers.contact
    const expiresHeader = secondsOf(request.headers.expires)
    // sip.js reads `Contact: *` as one contact whose URI is `*`.
    if (contacts === '*' || (Array.isArray(contacts) && contacts.some((entry) => entry.uri === '*'))) {
      if (expiresHeader !== 0) return transaction.send(makeResponse(request, 400, 'Bad Request'))
      this.bindings.delete(user)
      return transaction.send(makeResponse(request, 200, 'OK'))
    }
    const contact = Array.isArray(contacts) ? contacts[contacts.length - 1] : undefined
    if (contact) {
      const asked = secondsOf(contact.params.expires) ?? expiresHeader ?? REGISTRATION_DEFAULT_SECONDS
      if (asked === 0) {
        this.bindings.delete(user)
      } else if (asked < REGISTRATION_MIN_SECONDS) {
        return transaction.send(
          makeResponse(request, 423, 'Interval Too Brief', { headers: { 'min-expires': String(REGISTRATION_MIN_SECONDS) } }),
        )
      } else {
        const seconds = Math.min(asked, REGISTRATION_MAX_SECONDS)
        this.bindings.set(user, { user, contact: contact.uri, remote, expiresAt: this.now() + seconds * 1000 })
      }
    }
    transaction.send(this.current(request, user))
  }

  /** 200 OK listing the user's binding now, with the seconds it has left. */
  private current(request: SipMessage, user: string): SipMessage {
    const binding = this.lookup(user)
    if (!binding) return makeResponse(request, 200, 'OK')
    const seconds = Math.max(0, Math.round((binding.expiresAt - this.now()) / 1000))
    return makeResponse(request, 200, 'OK', {
      headers: { contact: [{ uri: binding.contact, params: { expires: String(seconds) } }], expires: String(seconds) },
    })
  }
}

function forbidden(request: SipMessage, why: string): SipMessage {
  const response = makeResponse(request, 403, 'Forbidden')
  response.headers.warning = `399 voicedesk "${why.replace(/"/g, "'")}"`
  return response
}

/** An Expires value in whole seconds (up to 2^32-1, RFC 3261 20.19); undefined when absent or not a number. */
function secondsOf(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined
  const text = String(value).trim()
  if (!/^\d{1,10}$/.test(text)) return undefined
  return Number(text)
}
