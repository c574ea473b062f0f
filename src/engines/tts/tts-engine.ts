import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { EspeakTtsEngine } from './espeak-tts-engine'
import type { TtsEngine } from './tts-engine-contract'
import { TtsEngineError } from './tts-engine-error'

export { TtsEngineError, type TtsEngineErrorCode } from './tts-engine-error'
export type { PcmSpeech, SpeechOptions, SpeechPriority, SpeechResult, TtsEngine } from './tts-engine-contract'

/** The fewest and most worker threads the default pool has, whatever the machine. */
export const MIN_DEFAULT_SPEECH_WORKERS = 2
export const MAX_DEFAULT_SPEECH_WORKERS = 4
/** The environment variable that sets the pool's size (a whole number 1-32), overriding the default. */
export const SPEECH_WORKERS_VARIABLE = 'VOICEDESK_TTS_WORKERS'
/** How long an extra worker may stay idle before it is ended (one always stays warm). */
export const DEFAULT_IDLE_RELEASE_MS = 60_000

export interface EspeakTtsEngineOptions {
  /**
   * The most worker threads, each a warm eSpeak instance synthesizing one text at a time
   * (about 100 MB of memory each; one speaks ~200x real time). The first starts with the
   * engine, the others only when work waits for them. Default: speechWorkersFor(process.env).
   */
  workers?: number
  /** `fifo`: one queue in arrival order and no segments, as before the pool (for benchmarks to compare). Default `priority`. */
  scheduling?: 'priority' | 'fifo'
  /** An extra worker idle this long is ended to free its memory (default 60 s). */
  idleReleaseMs?: number
  /** The eSpeak NG emscripten module to load; defaults to the installed @echogarden/espeak-ng-emscripten. */
  espeakModulePath?: string
}

/**
 * Starts eSpeak NG (compiled to JavaScript/WASM) in a pool of worker threads, so synthesis never
 * blocks the event loop of the process hosting the HTTP service, and resolves once the first
 * has loaded it (about 0.2 s); it then stays loaded until close(), the others start when work
 * waits for them and end after idleReleaseMs without work. The first few
 * seconds of speech run slower (V8 is still optimising the synthesizer). Rejects with START_FAILED when eSpeak
 * cannot be loaded. Works from TypeScript sources and from the electron-vite bundle alike:
 * the worker's code travels as a string and eSpeak is resolved from node_modules.
 */
export async function createEspeakTtsEngine(options: EspeakTtsEngineOptions = {}): Promise<TtsEngine> {
  const workers = options.workers ?? poolSizeFromEnvironment()
  if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be a positive integer, got ${workers}`)
  const engine = new EspeakTtsEngine({
    espeakModulePath: options.espeakModulePath ?? resolveEspeakModule(),
    workers,
    scheduling: options.scheduling ?? 'priority',
    idleReleaseMs: options.idleReleaseMs ?? DEFAULT_IDLE_RELEASE_MS,
  })
  try {
    await engine.start()
  } catch (error) {
    await engine.close()
    throw error
  }
  return engine
}

/**
 * The pool's size: VOICEDESK_TTS_WORKERS when set, else one worker per core the process may use,
 * at least 2 (a call's sentence then runs beside a job's segment, not after it) and at most 4
 * (each holds ~100 MB, and eSpeak is fast enough that more rarely help).
 */
export function speechWorkersFor(env: Readonly<Record<string, string | undefined>>, cores = availableParallelism()): number {
  const set = env[SPEECH_WORKERS_VARIABLE]?.trim()
  if (set) {
    const workers = Number(set)
    if (!/^\d+$/.test(set) || workers < 1 || workers > 32)
      throw new RangeError(`${SPEECH_WORKERS_VARIABLE} must be a whole number from 1 to 32, got "${set}"`)
    return workers
  }
  return Math.min(MAX_DEFAULT_SPEECH_WORKERS, Math.max(MIN_DEFAULT_SPEECH_WORKERS, cores))
}

/** The default size, a bad VOICEDESK_TTS_WORKERS failing the start as any start failure does (a TTS job then says why). */
function poolSizeFromEnvironment(): number {
  try {
    return speechWorkersFor(process.env)
  } catch (error) {
    throw new TtsEngineError('START_FAILED', (error as Error).message, { cause: error })
  }
}

function resolveEspeakModule(): string {
  try {
    // The package has no "exports" map: this is its "main", espeak-ng.js, with espeak-ng.data beside it.
    return createRequire(import.meta.url).resolve('@echogarden/espeak-ng-emscripten')
  } catch (error) {
    throw new TtsEngineError('START_FAILED', 'eSpeak NG is not installed: @echogarden/espeak-ng-emscripten cannot be resolved', {
      cause: error,
    })
  }
}
