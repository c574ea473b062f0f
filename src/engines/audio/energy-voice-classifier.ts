import { FixedBlocks } from './fixed-blocks'
import { VOICE_BAND_HOP, createVoiceBandPower } from './voice-band-power'
import type { VoiceClassifier } from './voice-classifier'

export interface EnergyVoiceClassifierOptions {
  /** dB above the noise floor at which a voice starts. Default 6 (bench/vad.ts). */
  startAboveFloorDb?: number
  /** dB above the noise floor below which it stops (lower than the start: hysteresis). Default 3. */
  stopAboveFloorDb?: number
  /** Never a voice below this level, however quiet the room. Default -55 dBFS. */
  minimumDbfs?: number
  /** How fast the floor rises towards a louder background, in ms. Default 2000. */
  floorRiseMs?: number
  /** How fast it falls towards a quieter one, in ms; 0 falls at once, to the quietest frame (which made a crowd's flicker a voice). Default 300. */
  floorFallMs?: number
  /** Over the first audio the floor falls at once, so a call that opens on speech finds its quiet gaps fast (a crowd may then start one turn in that second). Default 1000 ms. */
  learnMs?: number
  /** The level is the power averaged over about this long, so a crowd's flicker is not a voice; 0 is each frame alone. Default 100 on the voice band, 50 on the whole signal. */
  smoothingMs?: number
  /**
   * The band whose power is the level, in Hz; null for the whole signal (the old detector).
   * Default 300-3400: hum and hiss outside it are not heard (see voice-band-power.ts).
   */
  voiceBandHz?: [number, number] | null
  sampleRate?: number
}

const DEFAULT_VOICE_BAND_HZ: [number, number] = [300, 3400]

function meanSquare(frame: Float32Array): number {
  let sum = 0
  for (const sample of frame) sum += sample * sample
  return sum / frame.length
}

/**
 * Level-based voice detection: the power of the 300-3400 Hz voice band (or of the whole signal)
 * over the last ~100 ms (50 ms) in dBFS compared with an adaptive
 * noise floor, with a higher threshold to start than to stop so a voice does not flicker at its
 * edges. The floor follows quieter audio within ~300 ms and louder audio slowly, and only outside
 * a voice, so a steady hum, hiss or crowd is learnt as background within a few seconds, and a
 * voice is what stands out from it.
 */
export function createEnergyVoiceClassifier(options: EnergyVoiceClassifierOptions = {}): VoiceClassifier {
  const startAbove = options.startAboveFloorDb ?? 6
  const stopAbove = options.stopAboveFloorDb ?? 3
  const minimum = options.minimumDbfs ?? -55
  const bandHz = options.voiceBandHz === undefined ? DEFAULT_VOICE_BAND_HZ : options.voiceBandHz
  // The voice band's level flickers more than the whole signal's (fewer bins, one 16 ms window per hop): averaged longer.
  const smoothingMs = options.smoothingMs ?? (bandHz ? 100 : 50)
  /** The level is capped by the loudest power of the last holdMs, so after a burst it drops within that time. */
  const holdMs = smoothingMs
  const riseMs = options.floorRiseMs ?? 2_000
  const fallMs = options.floorFallMs ?? 300
  const learnSamples = ((options.learnMs ?? 1_000) * (options.sampleRate ?? 16_000)) / 1_000
  let samplesSeen = 0
  const sampleRate = options.sampleRate ?? 16_000
  /** The share of the way towards a target that `ms` of audio covers in this frame. */
  const step = (frameMs: number, ms: number) => (ms <= 0 ? 1 : Math.min(1, frameMs / ms))
  let smoothedPower: number | undefined
  /** The last frames' powers over holdMs: the smoothed power never exceeds their loudest, so after a voice it drops at once, even in silence. */
  const recent: { power: number; samples: number }[] = []
  let recentSamples = 0
  let floor: number | undefined
  let voice = false
  /** One step of the level and floor, on the power of the next `samples` samples. */
  const judge = (power: number, samples: number) => {
    const frameMs = (samples * 1_000) / sampleRate
    smoothedPower = smoothedPower === undefined ? power : smoothedPower + (power - smoothedPower) * step(frameMs, smoothingMs)
    recent.push({ power, samples })
    recentSamples += samples
    while (recent.length > 1 && recentSamples - recent[0]!.samples >= (holdMs * sampleRate) / 1_000)
      recentSamples -= recent.shift()!.samples
    let loudest = 0
    for (const entry of recent) loudest = Math.max(loudest, entry.power)
    const level = 10 * Math.log10(Math.min(smoothedPower, loudest) + 1e-12)
    floor ??= level
    samplesSeen += samples
    const threshold = floor + (voice ? stopAbove : startAbove)
    voice = level >= Math.max(threshold, minimum)
    if (level < floor) floor += (level - floor) * step(frameMs, samplesSeen <= learnSamples ? 0 : fallMs)
    else if (!voice) floor += (level - floor) * step(frameMs, riseMs)
  }
  const bandPower = bandHz && createVoiceBandPower(sampleRate, bandHz)
  const hops = new FixedBlocks<Float32Array>(new Float32Array(VOICE_BAND_HOP))
  const judgeHop = (hop: Float32Array) => {
    const power = bandPower ? bandPower(hop) : undefined
    if (power !== undefined) judge(power, VOICE_BAND_HOP)
  }
  return {
    // The loudest of the last holdMs holds the level up for that long after the voice stops.
    endLagMs: holdMs,
    isVoice(frame) {
      if (!bandPower) {
        if (frame.length > 0) judge(meanSquare(frame), frame.length)
        return voice
      }
      // The voice band is measured over whole hops; a frame's verdict is its latest hop's.
      hops.push(frame, judgeHop)
      return voice
    },
    dispose() {},
  }
}
