import { randomBytes } from 'node:crypto'
import { makeResponse, type SipMessage } from 'sip'
import { authenticateRequest, calculateUserRealmPasswordHash, challenge, type DigestHeader, type DigestServerContext } from 'sip/digest.js'

/** The realm of every SIP user's digest: part of the stored HA1, so it never changes. */
export const SIP_REALM = 'voicedesk'
/** How long a nonce may be answered (and, with qop=auth, used again with a growing count). */
const NONCE_LIFETIME_MS = 5 * 60_000
/** Nonces kept at once: a flood of unanswered challenges drops the oldest, never grows memory. */
const MAX_NONCES = 10_000

/** The digest's HA1 of a user's password, as stored (MD5(name:realm:password), by sip.js). */
export function ha1Of(name: string, password: string): string {
  return calculateUserRealmPasswordHash(name, SIP_REALM, password)
}

/** What a request's credentials came to: the user they prove, a fresh challenge to send, or a refusal. */
export type DigestVerdict =
  { ok: true; user: string } | { ok: false; challenge: SipMessage } | { ok: false; status: 403; reason: string; challenge?: undefined }

interface NonceState {
  context: DigestServerContext
  issuedAt: number
  /** The user who first answered it: another name may not use it. */
  user?: string
}

function unquoted(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value
}

/**
 * Digest authentication of REGISTER and INVITE (RFC 3261 22.4): sip.js makes the challenge and
 * checks the answer against the user's stored HA1; here, which nonces were given and may still
 * be answered. A nonce is random (crypto), lives 5 minutes and is bound to the first user who
 * answers it; a wrong answer forgets it. With qop=auth each use must count up (a replayed
 * request fails); without qop a nonce answers once.
 */
export class DigestGate {
  private readonly nonces = new Map<string, NonceState>()

  constructor(
    private readonly ha1Of: (user: string) => Promise<string | undefined>,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** A 401 for `request` with a new challenge (`stale`: its nonce had expired; the client answers again without asking its user). */
  challenge(request: SipMessage, stale = false): SipMessage {
    this.forgetOld()
    const context: DigestServerContext = { realm: SIP_REALM, cnonce: randomBytes(16).toString('hex'), qop: 'auth' }
    const response = challenge(context, makeResponse(request, 401, 'Unauthorized'))
    if (stale) {
      const headers = response.headers['www-authenticate'] as DigestHeader[] | undefined
      const offered = headers?.[headers.length - 1]
      if (offered) offered.stale = 'true'
    }
    if (context.nonce) this.nonces.set(context.nonce, { context, issuedAt: this.now() })
    return response
  }

  /** Checks `request`'s Authorization: the user it proves, or what to answer. Never throws for what a peer sends. */
  async verify(request: SipMessage): Promise<DigestVerdict> {
    const credentials = credentialsOf(request)
    if (!credentials) return { ok: false, challenge: this.challenge(request) }
    const state = this.nonces.get(credentials.nonce)
    if (!state || this.now() - state.issuedAt > NONCE_LIFETIME_MS) {
      this.nonces.delete(credentials.nonce)
      return { ok: false, challenge: this.challenge(request, true) }
    }
    if (state.user !== undefined && state.user !== credentials.user) return this.refuse(credentials.nonce)
    const ha1 = await this.ha1Of(credentials.user)
    if (ha1 === undefined) return this.refuse(credentials.nonce)
    let good = false
    try {
      good = authenticateRequest(state.context, request, { hash: ha1 })
    } catch {
      good = false
    }
    if (!good) return this.refuse(credentials.nonce)
    state.user = credentials.user
    // Without qop nothing counts the uses: such a nonce answers once.
    if (!state.context.qop) this.nonces.delete(credentials.nonce)
    return { ok: true, user: credentials.user }
  }

  /** Nonces held now (tests: a flood never grows past MAX_NONCES). */
  get size(): number {
    return this.nonces.size
  }

  private refuse(nonce: string): DigestVerdict {
    this.nonces.delete(nonce)
    return { ok: false, status: 403, reason: 'Forbidden' }
  }

  private forgetOld(): void {
    const now = this.now()
    for (const [nonce, state] of this.nonces) {
      if (this.nonces.size < MAX_NONCES && now - state.issuedAt <= NONCE_LIFETIME_MS) break
      this.nonces.delete(nonce)
    }
  }
}

/** The Digest credentials for our realm in a request: the user name and the nonce they answer. */
function credentialsOf(request: SipMessage): { user: string; nonce: string } | undefined {
  const headers = request.headers.authorization
  if (!Array.isArray(headers)) return undefined
  for (const header of headers as DigestHeader[]) {
    if (typeof header !== 'object' || header === null || String(header.scheme).toLowerCase() !== 'digest') continue
    if (unquoted(header.realm) !== SIP_REALM) continue
    const user = unquoted(header.username)
    const nonce = unquoted(header.nonce)
    if (user && nonce && typeof header.response === 'string') return { user, nonce }
  }
  return undefined
}
