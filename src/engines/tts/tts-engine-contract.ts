/* What every text-to-speech engine offers; its own file so that an engine and the factory that starts it (tts-engine.ts) both import it without a cycle. */

import type { Pronunciation } from './pronunciations'
import type { SpeechPriority } from './speech-queue'

export type { SpeechPriority }

/** How one synthesis is asked for. */
export interface SpeechOptions {
  /** Aborting it rejects the synthesis with ABORTED at once and frees its place in the queue. */
  signal?: AbortSignal
  /**
   * `live` (the default): a person waits for it (a call's next sentence, realtime TTS), served
   * before every `batch` synthesis (TTS jobs), which waits while any live one does.
   */
  priority?: SpeechPriority
  /**
   * Live syntheses of one flow are served in the order asked, flows in turn (so one call's queued
   * sentences do not hold back another call). Any value compared by identity; by default
   * syntheses sharing `signal` are one flow, and each without a signal is a flow of its own.
   */
  flow?: unknown
  /**
   * Voice dictionary entries applied to the text before anything else (pronunciations.ts):
   * each whole word, any case, is said as its pronunciation.
   */
  pronunciations?: readonly Pronunciation[]
}

/** Synthesized speech as samples, for callers that play it rather than store it (live calls). */
export interface PcmSpeech {
  /** 16-bit mono samples at `sampleRate`. */
  samples: Int16Array
  sampleRate: number
  /** Samples / sampleRate. */
  durationSeconds: number
}

/** Synthesized speech. */
export interface SpeechResult {
  /** A complete RIFF/WAVE file: canonical 44-byte header, PCM 16-bit mono at `sampleRate`. */
  wav: Buffer
  sampleRate: number
  /** Samples / sampleRate. */
  durationSeconds: number
}

/** Offline text to speech for the catalogue voices. Rejects only with TtsEngineError. */
export interface TtsEngine {
  /**
   * Speaks `text` (plain text, any length; whitespace is normalised, markup is read out, not
   * obeyed; digits, times, dates, amounts, emails and identifiers are said as words in the
   * voice's language, see speakable-text.ts) with one of the 14 catalogue voices (src/shared/voices.ts ids).
   * Rejects with code UNKNOWN_VOICE for another id, EMPTY_TEXT when nothing speakable is
   * left, ABORTED as soon as `signal` aborts, WORKER_CRASHED when the worker thread died
   * mid-synthesis (the next call starts a new one), ENGINE_CLOSED after close().
   * Calls may overlap: they queue and are served by priority (see SpeechOptions), a long text
   * segment by segment. `options` may be a bare AbortSignal.
   */
  synthesize(text: string, voiceId: string, options?: AbortSignal | SpeechOptions): Promise<SpeechResult>
  /** The same speech as samples, with no WAV to parse back. Rejects like synthesize. */
  synthesizePcm(text: string, voiceId: string, options?: AbortSignal | SpeechOptions): Promise<PcmSpeech>
  /**
   * The same speech, handed over chunk by chunk as eSpeak makes it (PCM 16-bit LE mono at
   * `sampleRate`, a few hundred ms each) rather than whole: resolves once the last chunk has
   * been given, with no `wav`. Rejects like synthesize; no chunk comes after it settles.
   */
  synthesizeStream(
    text: string,
    voiceId: string,
    onChunk: (pcm: Buffer, sampleRate: number) => void,
    options?: AbortSignal | SpeechOptions,
  ): Promise<Omit<SpeechResult, 'wav'>>
  /**
   * The phonemes eSpeak would say for `text` with this voice (IPA, `_` between phonemes of a
   * word), after the same preparation as synthesize, and no audio: to check what the voice
   * says (tests, diagnostics). Rejects like synthesize.
   */
  phonemes(text: string, voiceId: string, options?: AbortSignal | SpeechOptions): Promise<string>
  /**
   * Stops the engine: terminates its worker threads and fails calls still waiting with
   * ENGINE_CLOSED. Idempotent. A closed engine stays closed: later calls reject with
   * ENGINE_CLOSED (a stopping runtime must not bring the worker back).
   */
  close(): Promise<void>
}
