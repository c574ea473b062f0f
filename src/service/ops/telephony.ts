/**
 * The SIP line as the use cases see it (ops never import the line itself: the wiring joins
 * them): the digest HA1 of a password, where registered users are, and placing an agent's call.
 */

/** Where a registered SIP user's softphone is, and until when. */
export interface SipRegistration {
  contact: string
  /** ISO time the registration expires. */
  registeredUntil: string
}

/** Who an outbound call goes to: a SIP user's name, or a `sip:` URI (which must be on the allow-list). */
export type DialTarget = { sipUser: string } | { uri: string }

/** Why a call cannot be placed: a use-case error's code and message. */
export interface DialRefusal {
  code: 'NOT_FOUND' | 'CONFLICT' | 'FORBIDDEN' | 'VALIDATION_ERROR'
  message: string
}

/** A target the line can ring, resolved before the conversation is made; the numbers it records. */
export interface ResolvedTarget {
  toNumber: string
  /** Opaque to the use case: the line's own description of where the INVITE goes. */
  route: unknown
}

export interface Telephony {
  /** Where the line listens now (its bound port: `--sip-port 0` picks one when it starts); undefined while it does not. */
  boundAddress(): { host: string; port: number } | undefined
  /** The digest HA1 the store keeps for a user's password. */
  ha1Of(name: string, password: string): string
  /** The user's registration now, if any. */
  registration(name: string): SipRegistration | undefined
  /** Forgets the user's registration (removed, or a new password). */
  forget(name: string): void
  /**
   * Whether the line asks for credentials beyond REGISTER (which always needs them): true once SIP
   * users exist or when it listens on another address than loopback (`sip.status`'s authRequired).
   */
  authRequired(): Promise<boolean>
  /** Where a call to `target` would go, or why it cannot be placed now (line off, not registered, not allowed). */
  resolve(target: DialTarget): Promise<ResolvedTarget | DialRefusal>
  /**
   * Rings the target for the conversation `jobId`: resolves once its session connected (the call
   * then rings on), or with the refusal's code (TOO_MANY_CALLS, UNAVAILABLE…; the conversation is
   * FAILED then).
   */
  dial(
    target: ResolvedTarget,
    call: { jobId: string; projectId: string; fromNumber: string },
  ): Promise<{ ok: true } | { ok: false; code: string }>
}

/** A line that is not there (an embedder's runtime without one): every call is refused, nobody is registered. */
export const NO_TELEPHONY: Telephony = {
  boundAddress: () => undefined,
  ha1Of: () => {
    throw new Error('No SIP line in this runtime')
  },
  registration: () => undefined,
  forget: () => undefined,
  authRequired: async () => false,
  resolve: async () => ({ code: 'CONFLICT', message: 'The SIP line is off' }),
  dial: async () => ({ ok: false, code: 'UNAVAILABLE' }),
}
