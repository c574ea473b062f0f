import { createRequire } from 'node:module'
import { EspeakTtsEngine } from './espeak-tts-engine'
import { TtsEngineError } from './tts-engine-error'

export { TtsEngineError, type TtsEngineErrorCode } from './tts-engine-error'

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
   * Calls may overlap: they queue and are served in order.
   */
  synthesize(text: string, voiceId: string, signal?: AbortSignal): Promise<SpeechResult>
  /**
   * The same speech, handed over chunk by chunk as eSpeak makes it (PCM 16-bit LE mono at
   * `sampleRate`, a few hundred ms each) rather than whole: resolves once the last chunk has
   * been given, with no `wav`. Rejects like synthesize; no chunk comes after it settles.
   */
  synthesizeStream(text: string, voiceId: string, onChunk: (pcm: Buffer, sampleRate: number) => void, signal?: AbortSignal): Promise<Omit<SpeechResult, 'wav'>>
  /**
   * The phonemes eSpeak would say for `text` with this voice (IPA, `_` between phonemes of a
   * word), after the same preparation as synthesize, and no audio: to check what the voice
   * says (tests, diagnostics). Rejects like synthesize.
   */
  phonemes(text: string, voiceId: string, signal?: AbortSignal): Promise<string>
  /**
   * Stops the engine: terminates its worker threads and fails calls still waiting with
   * ENGINE_CLOSED. Idempotent. A closed engine stays closed: later calls reject with
   * ENGINE_CLOSED (a stopping runtime must not bring the worker back).
   */
  close(): Promise<void>
}

export interface EspeakTtsEngineOptions {
  /**
   * Worker threads, each a warm eSpeak instance synthesizing one text at a time
   * (about 100 MB of memory each). Default 1: one thread already speaks ~200x real time.
   */
  workers?: number
  /** The eSpeak NG emscripten module to load; defaults to the installed @echogarden/espeak-ng-emscripten. */
  espeakModulePath?: string
}

/**
 * Starts eSpeak NG (compiled to JavaScript/WASM) in worker threads, so synthesis never
 * blocks the event loop of the process hosting the HTTP service, and resolves once they
 * have loaded it (about 0.2 s); they then stay loaded until close(). The first few
 * seconds of speech run slower (V8 is still optimising the synthesizer). Rejects with START_FAILED when eSpeak
 * cannot be loaded. Works from TypeScript sources and from the electron-vite bundle alike:
 * the worker's code travels as a string and eSpeak is resolved from node_modules.
 */
export async function createEspeakTtsEngine(options: EspeakTtsEngineOptions = {}): Promise<TtsEngine> {
  const workers = options.workers ?? 1
  if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be a positive integer, got ${workers}`)
  const engine = new EspeakTtsEngine({ espeakModulePath: options.espeakModulePath ?? resolveEspeakModule(), workers })
  try {
    await engine.start()
  } catch (error) {
    await engine.close()
    throw error
  }
  return engine
}

function resolveEspeakModule(): string {
  try {
    // The package has no "exports" map: this is its "main", espeak-ng.js, with espeak-ng.data beside it.
    return createRequire(import.meta.url).resolve('@echogarden/espeak-ng-emscripten')
  } catch (error) {
    throw new TtsEngineError('START_FAILED', 'eSpeak NG is not installed: @echogarden/espeak-ng-emscripten cannot be resolved', { cause: error })
  }
}
