/*
 * What clients of a local OpenAI-compatible server (a chat model, a speech recogniser) say
 * about where it is and why it could not be reached: the same words for every engine.
 */

/** The server as shown in messages: origin and path, never credentials written into the URL. Throws for a non-http(s) address. */
export function describeServer(baseUrl: string, what: string): string {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new Error(`The ${what} address is not a URL: ${baseUrl}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`The ${what} address must be http or https, not ${url.protocol}`)
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the server running?)',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'host unreachable',
  ETIMEDOUT: 'the connection timed out',
}

type FetchFailureCause = { code?: string; message?: string; errors?: { code?: string }[] }

/** The system error code of a fetch that failed to connect (ECONNREFUSED, ENOTFOUND…), from undici's error cause, when it has one. */
export function networkCode(error: unknown): string | undefined {
  const cause = (error as { cause?: FetchFailureCause }).cause
  return cause?.code ?? cause?.errors?.[0]?.code
}

/** Why fetch failed to connect, from undici's error cause (an AggregateError when several addresses were tried). */
export function networkReason(error: unknown): string {
  const code = networkCode(error)
  if (code && NETWORK_REASONS[code]) return `${NETWORK_REASONS[code]} (${code})`
  return (error as { cause?: FetchFailureCause }).cause?.message || (error as Error).message || String(error)
}
