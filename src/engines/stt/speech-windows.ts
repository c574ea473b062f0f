import { float32FromInt16, int16FromPcm16, joinSamples } from '../audio/pcm-encoding'
import type { VoiceClassifier } from '../audio/voice-classifier'

export const WINDOW_SAMPLE_RATE = 16_000
/** The classifier's frame: 20 ms at 16 kHz. Windows are cut on frame boundaries. */
const FRAME_SAMPLES = 320

export interface SpeechWindow {
  /** Where the window starts in the whole recording, in samples at 16 kHz. */
  startSample: number
  samples: Int16Array
  /** False when the classifier heard no voice in any of its frames (silence, music without voice). */
  voiced: boolean
}

export interface SpeechWindowOptions {
  /** A window's longest length. Default 60 s: a transcription server answers each in well under its time limit. */
  maxSeconds?: number
  /** How far back from the longest length a pause is looked for. Default 10 s. */
  searchSeconds?: number
  /** Judges 20 ms frames at 16 kHz (WebRTC VAD). */
  classifier: VoiceClassifier
}

/**
 * Cuts 16 kHz mono PCM (16-bit little-endian, in chunks of any size) into windows a
 * transcription server can take one at a time: each at most `maxSeconds`, cut in the middle of
 * the longest pause of its last `searchSeconds` (so a word is not cut in two when a pause is
 * near), else at the longest length. Holds at most one window of audio: a two-hour recording
 * streams through in bounded memory.
 */
export async function* speechWindows(pcm: AsyncIterable<Buffer>, options: SpeechWindowOptions): AsyncGenerator<SpeechWindow> {
  const maxFrames = Math.max(1, Math.round(((options.maxSeconds ?? 60) * WINDOW_SAMPLE_RATE) / FRAME_SAMPLES))
  const searchFrames = Math.min(maxFrames - 1, Math.round(((options.searchSeconds ?? 10) * WINDOW_SAMPLE_RATE) / FRAME_SAMPLES))
  const maxSamples = maxFrames * FRAME_SAMPLES
  let pieces: Int16Array[] = []
  let buffered = 0
  /** One verdict per whole frame buffered, from the window's start. */
  let voiceFrames: boolean[] = []
  let startSample = 0
  let oddByte: Buffer | undefined

  const joined = () => {
    const all = joinSamples(pieces, (length) => new Int16Array(length))
    pieces = [all]
    return all
  }
  const classifyNewFrames = () => {
    const whole = Math.floor(buffered / FRAME_SAMPLES)
    if (whole === voiceFrames.length) return
    const all = joined()
    for (let frame = voiceFrames.length; frame < whole; frame += 1) {
      voiceFrames.push(options.classifier.isVoice(float32FromInt16(all.subarray(frame * FRAME_SAMPLES, (frame + 1) * FRAME_SAMPLES))))
    }
  }
  const take = (frames: number): SpeechWindow => {
    const all = joined()
    const cut = Math.min(frames * FRAME_SAMPLES, buffered)
    const window = { startSample, samples: all.slice(0, cut), voiced: voiceFrames.slice(0, frames).some(Boolean) }
    pieces = cut < buffered ? [all.slice(cut)] : []
    buffered -= cut
    voiceFrames = voiceFrames.slice(frames)
    startSample += cut
    return window
  }

  for await (const chunk of pcm) {
    let bytes = oddByte ? Buffer.concat([oddByte, chunk]) : chunk
    oddByte = undefined
    if (bytes.length % 2 === 1) {
      oddByte = bytes.subarray(bytes.length - 1)
      bytes = bytes.subarray(0, bytes.length - 1)
    }
    if (bytes.length === 0) continue
    pieces.push(int16FromPcm16(bytes))
    buffered += bytes.length / 2
    while (buffered >= maxSamples) {
      classifyNewFrames()
      yield take(cutFrame(voiceFrames, maxFrames, searchFrames))
    }
  }
  if (buffered > 0) {
    classifyNewFrames()
    // A last partial frame is judged with its window's other frames only.
    yield take(Math.ceil(buffered / FRAME_SAMPLES))
  }
}

/** Where to end a full window: in the longest run of unvoiced frames of its last `searchFrames` (its middle, or the limit when it reaches it), else at `maxFrames`. */
function cutFrame(voiceFrames: readonly boolean[], maxFrames: number, searchFrames: number): number {
  let best = { length: 0, middle: maxFrames }
  let runStart = -1
  for (let frame = maxFrames - searchFrames; frame <= maxFrames; frame += 1) {
    const quiet = frame < maxFrames && voiceFrames[frame] === false
    if (quiet && runStart < 0) runStart = frame
    if (!quiet && runStart >= 0) {
      const length = frame - runStart
      // The later of two equal pauses: longer windows, fewer requests. A pause that reaches the
      // limit is cut at the limit: it is quiet there already.
      if (length >= best.length) best = { length, middle: frame === maxFrames ? maxFrames : runStart + Math.ceil(length / 2) }
      runStart = -1
    }
  }
  return best.length > 0 ? best.middle : maxFrames
}
