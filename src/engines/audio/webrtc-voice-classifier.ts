import { FixedBlocks } from './fixed-blocks'
import { int16FromFloat32 } from './pcm-encoding'
import type { VoiceClassifier } from './voice-classifier'
import { loadWasmModule, type EmscriptenModule } from './wasm-module'

interface FvadModule extends EmscriptenModule {
  _fvad_new(): number
  _fvad_set_mode(instance: number, mode: number): number
  _fvad_set_sample_rate(instance: number, sampleRate: number): number
  _fvad_process(instance: number, frame: number, length: number): number
  _fvad_free(instance: number): void
}

export interface WebRtcVoiceClassifierOptions {
  /** Aggressiveness 0-3: higher calls less noise a voice, and misses more quiet speech. Default 2. */
  mode?: 0 | 1 | 2 | 3
  /** The block libfvad judges: 10, 20 or 30 ms. Default 20. */
  blockMs?: 10 | 20 | 30
  /** 8000, 16000, 32000 or 48000 Hz. Default 16000. */
  sampleRate?: number
}

let fvadModule: Promise<FvadModule> | undefined

/**
 * WebRTC's voice activity detector (libfvad in WASM, loaded from node_modules once per process).
 * It judges blocks of 10/20/30 ms of Int16, so the call's 128-sample frames are gathered into
 * blocks and each frame gets the latest block's verdict (at most one block late).
 */
export async function createWebRtcVoiceClassifier(options: WebRtcVoiceClassifierOptions = {}): Promise<VoiceClassifier> {
  const mode = options.mode ?? 2
  const sampleRate = options.sampleRate ?? 16_000
  const blockSamples = ((options.blockMs ?? 20) * sampleRate) / 1000
  fvadModule ??= loadWasmModule<FvadModule>('@echogarden/fvad-wasm')
  const fvad = await fvadModule.catch((error: unknown) => {
    fvadModule = undefined
    throw error
  })
  let instance = fvad._fvad_new()
  if (!instance) throw new Error('WebRTC VAD could not start (out of memory)')
  if (
    fvad._fvad_set_mode(instance, mode) !== 0 ||
    fvad._fvad_set_sample_rate(instance, sampleRate) !== 0 ||
    ![10, 20, 30].includes(options.blockMs ?? 20)
  ) {
    fvad._fvad_free(instance)
    throw new RangeError(
      `WebRTC VAD takes mode 0-3, 8/16/32/48 kHz and 10/20/30 ms blocks, not mode ${mode} at ${sampleRate} Hz in ${options.blockMs} ms`,
    )
  }
  const blockPointer = fvad._malloc(blockSamples * 2)
  const blocks = new FixedBlocks<Int16Array>(new Int16Array(blockSamples))
  let voice = false
  const judge = (block: Int16Array) => {
    fvad.HEAP16.set(block, blockPointer >> 1)
    voice = fvad._fvad_process(instance, blockPointer, blockSamples) === 1
  }
  const isVoiceInt16 = (samples: Int16Array): boolean => {
    if (!instance) throw new Error('The voice classifier was disposed')
    blocks.push(samples, judge)
    return voice
  }
  return {
    isVoice: (frame) => isVoiceInt16(int16FromFloat32(frame)),
    isVoiceInt16,
    dispose() {
      if (!instance) return
      fvad._free(blockPointer)
      fvad._fvad_free(instance)
      instance = 0
    },
  }
}
