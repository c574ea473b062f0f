/**
 * Why a synthesis failed, for callers that act on it (a job handler may retry
 * WORKER_CRASHED, which restarts the worker, and end the job on the others).
 */
export type TtsEngineErrorCode =
  /** The voice id is not one of the catalogue's 14. */
  | 'UNKNOWN_VOICE'
  /** Nothing speakable is left once whitespace and control characters are removed. */
  | 'EMPTY_TEXT'
  /** The caller's AbortSignal fired; `cause` is the signal's reason. */
  | 'ABORTED'
  /** The worker thread died during this synthesis; the next call starts a new one. */
  | 'WORKER_CRASHED'
  /** eSpeak could not be loaded in a worker thread (missing package or data file). */
  | 'START_FAILED'
  /** eSpeak reported an error for this text; the worker is still usable. */
  | 'SYNTHESIS_FAILED'
  /** close() was called. */
  | 'ENGINE_CLOSED'

/** The only error a TtsEngine rejects with. */
export class TtsEngineError extends Error {
  override readonly name = 'TtsEngineError'

  constructor(
    readonly code: TtsEngineErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}
