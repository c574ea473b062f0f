import { createRequire } from 'node:module'
import { EspeakTtsEngine } from './espeak-tts-engine'
import type { TtsEngine } from './tts-engine-contract'
import { TtsEngineError } from './tts-engine-error'

export { TtsEngineError, type TtsEngineErrorCode } from './tts-engine-error'
export type { SpeechResult, TtsEngine } from './tts-engine-contract'

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
