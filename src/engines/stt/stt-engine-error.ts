export type SttEngineErrorCode = 'UNREACHABLE' | 'TIMEOUT' | 'HTTP_ERROR' | 'BAD_RESPONSE'

/** Why a transcription failed, in words a person can act on (which server, what it said); never holds the API key. */
export class SttEngineError extends Error {
  override readonly name = 'SttEngineError'

  constructor(
    readonly code: SttEngineErrorCode,
    message: string,
    /** The HTTP status, for HTTP_ERROR. */
    readonly status?: number,
  ) {
    super(message)
  }

  /** Whether trying again later may succeed: the server was down or slow, or failed on its side (5xx). */
  get transient(): boolean {
    return this.code === 'UNREACHABLE' || this.code === 'TIMEOUT' || (this.code === 'HTTP_ERROR' && (this.status ?? 500) >= 500)
  }
}
