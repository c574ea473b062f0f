/**
 * Messages between the engine (main thread) and its eSpeak worker thread.
 * The worker's code is a string (espeak-worker-source.ts), so these types are the checked
 * half of the contract: keep both sides in step when changing one.
 */

/** Given to the worker at start. */
export interface EspeakWorkerData {
  /** Absolute path of the eSpeak NG emscripten module (espeak-ng.js). */
  espeakModulePath: string
  /**
   * An Int32Array of one slot on shared memory: the id of the request to stop. The worker
   * reads it while eSpeak runs, when a posted message could not be received.
   */
  cancelSlot: SharedArrayBuffer
}

/** Main thread to worker: speak one text. The worker handles one request at a time. */
export interface SynthesizeRequest {
  type: 'synthesize'
  id: number
  /** Already normalised and escaped for eSpeak. */
  text: string
  espeakVoice: string
  rate: number
  pitch: number
  range: number
  /** Post each chunk of audio as eSpeak makes it (`chunk` messages), and no samples with `speech`. */
  stream: boolean
  /** Answer with the phonemes eSpeak says (IPA, `_` between phonemes) in `speech.ipa`, and no samples. */
  phonemes?: boolean
}

/** Worker to main thread. */
export type EspeakWorkerMessage =
  /** eSpeak is loaded and warmed up. */
  | { type: 'ready'; sampleRate: number }
  /** Streaming requests: the next chunk of PCM (16-bit mono, platform byte order) of request `id`, transferred. */
  | { type: 'chunk'; id: number; pcm: ArrayBuffer }
  /** The PCM (16-bit mono, platform byte order) of request `id`, transferred; empty when cancelled or streamed. */
  | { type: 'speech'; id: number; pcm: ArrayBuffer; cancelled: boolean; ipa?: string }
  /** Request `id` failed inside eSpeak; the worker is still usable. */
  | { type: 'failed'; id: number; message: string }
