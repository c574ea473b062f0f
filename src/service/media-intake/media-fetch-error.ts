/**
 * Why the media of a URL could not be taken in, in words a caller can act on. The message
 * never holds the URL's user, password or query (where signed URLs keep their secrets): see
 * describeUrl. The code is the job error code a transcription fails with.
 */
export class MediaFetchError extends Error {
  constructor(
    readonly code: 'MEDIA_FETCH_FAILED' | 'MEDIA_TOO_LARGE',
    message: string,
    /** The remote server's HTTP status, when it answered one that was refused. */
    readonly status?: number,
    /** A failure that may pass (the network, a timeout, the server's 5xx or 429): worth another try. */
    readonly transient = false,
  ) {
    super(message)
    this.name = 'MediaFetchError'
  }
}

/** A URL as it may be shown: scheme, host and path (cut when long), without user, password, query or fragment. */
export function describeUrl(url: URL | string): string {
  try {
    const parsed = typeof url === 'string' ? new URL(url) : url
    const path = parsed.pathname.length > 120 ? `${parsed.pathname.slice(0, 117)}...` : parsed.pathname
    return `${parsed.protocol}//${parsed.host}${path}`
  } catch {
    return 'the URL'
  }
}
