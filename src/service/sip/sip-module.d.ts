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
