import { int16FromFloat32 } from './pcm-encoding'
import type { VoiceClassifier } from './voice-classifier'
import { loadWasmModule, type EmscriptenModule } from './wasm-module'

interface TenVadModule extends EmscriptenModule {
  HEAP32: Int32Array
  HEAPF32: Float32Array
  _ten_vad_create(handleOut: number, hopSize: number, threshold: number): number
  _ten_vad_process(handle: number, samples: number, length: number, probabilityOut: number, flagOut: number): number
  _ten_vad_destroy(handleIn: number): number
}

export interface TenVoiceClassifierOptions {
  /** Speech probability at or above which a voice starts. Default 0.5 (bench/vad.ts). */
  startProbability?: number
  /** Probability below which a voice stops (lower than the start: hysteresis). Default 0.35. */
  stopProbability?: number
  /** The hop the model judges: 160 (10 ms) or 256 (16 ms) samples at 16 kHz. Default 256. */
  hopSamples?: 160 | 256
}

let tenModule: Promise<TenVadModule> | undefined

/**
 * TEN VAD (a small neural voice detector; WASM and weights both inside the npm package, nothing
 * fetched at run time). It judges hops of 16 kHz Int16, so the call's frames are gathered into
 * hops and each frame gets the latest hop's verdict (at most one hop late). One model per
 * process, one handle (its own recurrent state) per classifier.
 */
export async function createTenVoiceClassifier(
  options: TenVoiceClassifierOptions & { sampleRate?: number } = {},
): Promise<VoiceClassifier> {
  const hopSamples = options.hopSamples ?? 256
  const start = options.startProbability ?? 0.5
  const stop = options.stopProbability ?? 0.35
  if ((options.sampleRate ?? 16_000) !== 16_000 || ![160, 256].includes(hopSamples) || !(stop <= start && start > 0 && start < 1)) {
    throw new RangeError(
      `TEN VAD takes 16 kHz, hops of 160 or 256 samples and 0 < stop ≤ start < 1, not ${options.sampleRate} Hz, ${hopSamples}, ${stop}/${start}`,
    )
  }
  tenModule ??= loadWasmModule<TenVadModule>('@gooney-001/ten-vad-lib')
  const ten = await tenModule.catch((error: unknown) => {
    tenModule = undefined
    throw error
  })
  const handleCell = ten._malloc(4)
  // The model's own flag uses one fixed threshold; the probability with two thresholds is steadier.
  if (ten._ten_vad_create(handleCell, hopSamples, start) !== 0) {
    ten._free(handleCell)
    throw new Error('TEN VAD could not start')
  }
  const hopPointer = ten._malloc(hopSamples * 2)
  const probabilityPointer = ten._malloc(4)
  const flagPointer = ten._malloc(4)
  const pending = new Int16Array(hopSamples)
  let filled = 0
  let voice = false
  let disposed = false
  return {
    isVoice(frame) {
      if (disposed) throw new Error('The voice classifier was disposed')
      const samples = int16FromFloat32(frame)
      for (let offset = 0; offset < samples.length;) {
        const taken = Math.min(hopSamples - filled, samples.length - offset)
        pending.set(samples.subarray(offset, offset + taken), filled)
        filled += taken
        offset += taken
        if (filled < hopSamples) break
        ten.HEAP16.set(pending, hopPointer >> 1)
        if (ten._ten_vad_process(ten.HEAP32[handleCell >> 2]!, hopPointer, hopSamples, probabilityPointer, flagPointer) !== 0)
          throw new Error('TEN VAD failed on a hop')
        const probability = ten.HEAPF32[probabilityPointer >> 2]!
        voice = probability >= (voice ? stop : start)
        filled = 0
      }
      return voice
    },
    dispose() {
      if (disposed) return
      disposed = true
      ten._ten_vad_destroy(handleCell)
      for (const pointer of [handleCell, hopPointer, probabilityPointer, flagPointer]) ten._free(pointer)
    },
  }
}
