/**
 * The part of `sip` 0.0.6 (kirm's sip.js, which ships no types) the SIP line uses: message
 * parsing and printing, responses, the stream framer for TCP and the transaction layer. Its
 * own transports and `create`/`start` are not used: they bind without error handlers (a taken
 * port would throw from an event) and pick a different free port for UDP and TCP.
 */
declare module 'sip' {
  export interface SipUri {
    schema: string
    user?: string
    password?: string
    host: string
    port?: number
    params: Record<string, string | null>
    headers: Record<string, string>
  }

  export interface SipNameAddress {
    name?: string
    uri: string
    params: Record<string, string | null>
  }

  export interface SipVia {
    version: string
    protocol: string
    host: string
    port?: number
    params: Record<string, string | null>
  }

  export interface SipHeaders {
    via?: SipVia[]
    to?: SipNameAddress
    from?: SipNameAddress
    'call-id'?: string
    cseq?: { seq: number; method: string }
    contact?: SipNameAddress[] | '*'
    'content-type'?: string
    'content-length'?: number
    [name: string]: unknown
  }

  export interface SipMessage {
    method?: string
    uri?: string
    status?: number
    reason?: string
    version?: string
    headers: SipHeaders
    content?: string
  }

  /** A message from its bytes (one UDP datagram); undefined when it is not one. Headers it cannot read are left out. */
  export function parse(data: Buffer | string): SipMessage | undefined
  export function stringify(message: SipMessage): string
  export function parseUri(uri: string): SipUri | undefined
  export function stringifyUri(uri: SipUri | string): string
  export function makeResponse(
    request: SipMessage,
    status: number,
    reason?: string,
    extension?: { headers?: Record<string, unknown>; content?: string },
  ): SipMessage
  /** A framer for a byte stream (TCP): `onMessage` for each message, `onFlood` when headers or a body exceed the limits. */
  export function makeStreamParser(
    onMessage: (message: SipMessage) => void,
    onFlood?: () => void,
    maxBytesHeaders?: number,
    maxContentLength?: number,
  ): (data: string) => void

  export interface SipConnection {
    send(message: SipMessage): void
    release(): void
    protocol: string
  }

  export interface SipServerTransaction {
    send(message: SipMessage): void
    message(message: SipMessage, remote?: unknown): void
    shutdown(): void
  }

  export interface SipTransactionLayer {
    createServerTransaction(request: SipMessage, connection: SipConnection): SipServerTransaction
    createClientTransaction(connection: SipConnection, request: SipMessage, callback: (response: SipMessage) => void): unknown
    getServer(message: SipMessage): SipServerTransaction | undefined
    getClient(message: SipMessage): { message(message: SipMessage, remote?: unknown): void } | undefined
    destroy(): void
  }

  export function makeTransactionLayer(options: Record<string, unknown>, open: (target: unknown) => SipConnection): SipTransactionLayer
}

/**
 * sip.js's digest authentication (RFC 2617 as SIP uses it): the challenge a response carries
 * and the check of a request's credentials against a user's HA1. A context holds one nonce's
 * state (its nonce count grows with each request checked against it).
 */
declare module 'sip/digest.js' {
  import type { SipMessage } from 'sip'

  export interface DigestServerContext {
    realm: string
    /** Given to `challenge`: becomes the nonce (sip.js names it so). */
    cnonce?: string
    nonce?: string
    qop?: string
    opaque?: string
    nc?: number
    ha1?: string
    proxy?: boolean
  }

  /** An Authorization or WWW-Authenticate header as sip.js parses it: values keep their quotes. */
  export interface DigestHeader {
    scheme: string
    [parameter: string]: string | undefined
  }

  /** Adds a WWW-Authenticate (401) or Proxy-Authenticate (407) challenge to `response`, filling `context`'s nonce. */
  export function challenge(context: DigestServerContext, response: SipMessage): SipMessage
  /** Whether `request`'s credentials for the context's realm answer its nonce with the user's HA1 (`hash`). */
  export function authenticateRequest(context: DigestServerContext, request: SipMessage, credentials: { hash: string }): boolean
  /** MD5(user:realm:password), hex: the HA1 a registrar keeps instead of the password. */
  export function calculateUserRealmPasswordHash(user: string, realm: string, password: string): string
}

declare module 'sip/digest.js' {
  /** The client side (tests' softphones): signs `request` with the Authorization that answers `challenge`. */
  export function signRequest(
    context: Record<string, unknown>,
    request: import('sip').SipMessage,
    challenge: import('sip').SipMessage,
    credentials: { user: string; password: string },
  ): unknown
}

/** The same module as Node's ESM loader needs it named in the built service (the package has no `exports` map). */
declare module 'sip/digest.js' {
  export * from 'sip/digest'
}
