/*
 * The speech-recognition port. One engine implements it: a client of an OpenAI-compatible
 * `/v1/audio/transcriptions` endpoint (whisper.cpp's server, speaches / faster-whisper-server,
 * LocalAI). No weights ship with VoiceDesk, so recognition is off unless one is configured; the
 * callers then say so (an `info` frame, STT_ENGINE_NOT_CONFIGURED) and never invent text.
 */

/** A span of the transcript with its times in seconds from the start of the audio. */
export interface TranscriptSegment {
  start: number
  end: number
  text: string
}

export interface Transcript {
  text: string
  /** The language the server detected or was told (ISO 639-1), when it says. */
  language?: string
  /** Seconds of audio, when the server says. */
  durationSeconds?: number
  /** When the server gives them (verbose_json). */
  segments?: TranscriptSegment[]
}

export interface TranscribeOptions {
  /** ISO 639-1 (`ar`, `en`): sent as `language`. Left out, the server detects it. */
  language?: string
  signal?: AbortSignal
}

export interface SttEngine {
  /** `openai-compatible`: shown in records. */
  readonly name: string
  /** The model name sent to the server (may be a server default). */
  readonly model: string
  /**
   * Transcribes a complete RIFF/WAVE file (PCM 16-bit mono, 16 kHz is best). Rejects with
   * SttEngineError: UNREACHABLE, TIMEOUT, HTTP_ERROR (the status and the server's words),
   * BAD_RESPONSE; an abort rejects with the signal's reason.
   */
  transcribe(wav: Buffer, options?: TranscribeOptions): Promise<Transcript>
}
