import { YIN } from 'pitchfinder'

/**
 * Median F0 below this is taken as a male voice, at or above as a female one. Adult male
 * speaking pitch centres near 100-130 Hz and female near 190-220 Hz; 165 Hz sits between them.
 */
export const GENDER_F0_THRESHOLD_HZ = 165

/** Fewer voiced analysis windows than this (they start 32 ms apart: about 0.3 s of voice) give no answer. */
const MIN_VOICED_WINDOWS = 10
/** Human speaking pitch; YIN's answers outside it are octave slips or noise. */
const MIN_F0_HZ = 60
const MAX_F0_HZ = 400
/** Windows quieter than this are pauses, not voice. */
const MIN_WINDOW_DBFS = -40

/**
 * The median fundamental frequency (YIN) of the voiced windows of `samples` (mono, [-1, 1]),
 * with how many windows were voiced; undefined when none were.
 */
export function medianPitch(samples: Float32Array, sampleRate: number): { medianHz: number; voicedWindows: number } | undefined {
  // About 64 ms: YIN looks for periods up to half its window, so down to ~31 Hz.
  const windowSize = 2 ** Math.round(Math.log2(sampleRate * 0.064))
  const hop = windowSize / 2
  const detect = YIN({ sampleRate, threshold: 0.1 })
  const pitches: number[] = []
  for (let offset = 0; offset + windowSize <= samples.length; offset += hop) {
    const window = samples.subarray(offset, offset + windowSize)
    let sum = 0
    for (const sample of window) sum += sample * sample
    if (10 * Math.log10(sum / windowSize + 1e-12) < MIN_WINDOW_DBFS) continue
    const pitch = detect(window)
    if (pitch !== null && pitch >= MIN_F0_HZ && pitch <= MAX_F0_HZ) pitches.push(pitch)
  }
  if (pitches.length === 0) return undefined
  pitches.sort((a, b) => a - b)
  const middle = pitches.length >> 1
  const medianHz = pitches.length % 2 ? pitches[middle]! : (pitches[middle - 1]! + pitches[middle]!) / 2
  return { medianHz, voicedWindows: pitches.length }
}

/**
 * The caller's likely gender from the median pitch of their voiced speech, by
 * GENDER_F0_THRESHOLD_HZ; undefined when there is too little voiced speech to say (under
 * about 0.3 s of voice). A guess from pitch alone: low female and high male voices exist.
 */
export function estimateGender(samples: Float32Array, sampleRate: number): 'male' | 'female' | undefined {
  const pitch = medianPitch(samples, sampleRate)
  if (!pitch || pitch.voicedWindows < MIN_VOICED_WINDOWS) return undefined
  return pitch.medianHz < GENDER_F0_THRESHOLD_HZ ? 'male' : 'female'
}
