import type { VoiceClassifier } from './voice-classifier'

export interface EnergyVoiceClassifierOptions {
  /** dB above the noise floor at which a voice starts. Default 9 (bench/vad.ts: 12 misses more speech in noise, 8 starts turns on hum). */
  startAboveFloorDb?: number
  /** dB above the noise floor below which it stops (lower than the start: hysteresis). Default 4. */
  stopAboveFloorDb?: number
  /** Never a voice below this level, however quiet the room. Default -55 dBFS. */
  minimumDbfs?: number
  /** How fast the floor rises towards a louder background, in ms (it falls at once). Default 2000. */
  floorRiseMs?: number
  sampleRate?: number
}

/**
 * Level-based voice detection: each frame's RMS in dBFS compared with an adaptive noise floor,
 * with a higher threshold to start than to stop so a voice does not flicker at its edges. The
 * floor follows quieter frames at once and louder ones slowly, and only outside a voice, so a
 * steady hum or hiss is learnt as background within a few seconds.
 */
export function createEnergyVoiceClassifier(options: EnergyVoiceClassifierOptions = {}): VoiceClassifier {
  const startAbove = options.startAboveFloorDb ?? 9
  const stopAbove = options.stopAboveFloorDb ?? 4
  const minimum = options.minimumDbfs ?? -55
  const riseMs = options.floorRiseMs ?? 2_000
  const sampleRate = options.sampleRate ?? 16_000
  let floor: number | undefined
  let voice = false
  return {
    isVoice(frame) {
      if (frame.length === 0) return voice
      let sum = 0
      for (const sample of frame) sum += sample * sample
      const level = 10 * Math.log10(sum / frame.length + 1e-12)
      floor ??= level
      const threshold = floor + (voice ? stopAbove : startAbove)
      voice = level >= Math.max(threshold, minimum)
      if (level < floor) floor = level
      else if (!voice) floor += (level - floor) * Math.min(1, (frame.length / sampleRate) * (1_000 / riseMs))
      return voice
    },
    dispose() {},
  }
}
