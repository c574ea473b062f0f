import { FixedBlocks } from '../audio/fixed-blocks'
import { float32FromInt16, int16FromPcm16, joinSamples } from '../audio/pcm-encoding'
import type { VoiceClassifier } from '../audio/voice-classifier'

export const WINDOW_SAMPLE_RATE = 16_000
/** The classifier's frame: 20 ms at 16 kHz. Windows are cut on frame boundaries. */
const FRAME_SAMPLES = 320
/** How much of a long pause stays with the speech beside it: half a second on each side. */
const PAUSE_MARGIN_FRAMES = 25

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
  /** A pause this long gets windows of its own (half a second of it stays with the speech on each side). Default 5 s. */
  pauseSeconds?: number
  /** Judges 20 ms frames at 16 kHz (WebRTC VAD). */
  classifier: VoiceClassifier
}

/**
 * Cuts 16 kHz mono PCM (16-bit little-endian, in chunks of any size) into windows a
 * transcription server can take one at a time: each at most `maxSeconds`, cut in the middle of
 * the longest pause of its last `searchSeconds` (so a word is not cut in two when a pause is
 * near), else at the longest length. A pause of `pauseSeconds` or more also ends a window half
 * a second after the speech before it, and the next half a second before the speech after it:
 * the silence between goes in windows of its own, which callers need not send (servers asked
 * to transcribe silence tend to invent words, and it costs their time). Holds at most one window of audio: a two-hour recording
 * streams through in bounded memory.
 */
export async function* speechWindows(pcm: AsyncIterable<Buffer>, options: SpeechWindowOptions): AsyncGenerator<SpeechWindow> {
  const maxFrames = Math.max(1, Math.round(((options.maxSeconds ?? 60) * WINDOW_SAMPLE_RATE) / FRAME_SAMPLES))
  const searchFrames = Math.min(maxFrames - 1, Math.round(((options.searchSeconds ?? 10) * WINDOW_SAMPLE_RATE) / FRAME_SAMPLES))
  const pauseFrames = Math.max(2 * PAUSE_MARGIN_FRAMES + 1, Math.round(((options.pauseSeconds ?? 5) * WINDOW_SAMPLE_RATE) / FRAME_SAMPLES))
  const maxSamples = maxFrames * FRAME_SAMPLES
  let pieces: Int16Array[] = []
  let buffered = 0
  /** One verdict per whole frame buffered, from the window's start. */
  let voiceFrames: boolean[] = []
  /** Where windows must end at long pauses (frames from the window's start), in order. */
  let pauseCuts: number[] = []
  /** The last voiced frame (-1: none), and where the stretch being judged began (the last cut). */
  let lastVoiced = -1
  let stretchStart = 0
  let startSample = 0
  let oddByte: Buffer | undefined
  // Frames are judged as the audio arrives, aligned to the recording's start (every cut falls on a frame's edge).
  const frames = new FixedBlocks<Int16Array>(new Int16Array(FRAME_SAMPLES))
  const { classifier } = options
  const isVoice = classifier.isVoiceInt16?.bind(classifier) ?? ((samples: Int16Array) => classifier.isVoice(float32FromInt16(samples)))

  /** Marks the cuts of long pauses: half a second after speech stops, and half a second before it starts again. */
  const judge = (voiced: boolean) => {
    const index = voiceFrames.length
    voiceFrames.push(voiced)
    const voiceInStretch = lastVoiced >= stretchStart
    if (voiced) {
      if (!voiceInStretch && index - stretchStart >= pauseFrames) pauseCuts.push((stretchStart = index - PAUSE_MARGIN_FRAMES))
      lastVoiced = index
    } else if (voiceInStretch && index - lastVoiced === pauseFrames) {
      pauseCuts.push((stretchStart = lastVoiced + 1 + PAUSE_MARGIN_FRAMES))
    }
  }
  const judgeFrame = (frame: Int16Array) => judge(isVoice(frame))
  const classify = (samples: Int16Array) => frames.push(samples, judgeFrame)
  const take = (frames: number): SpeechWindow => {
    const all = joinSamples(pieces, (length) => new Int16Array(length))
    const cut = Math.min(frames * FRAME_SAMPLES, buffered)
    const window = { startSample, samples: all.slice(0, cut), voiced: voiceFrames.slice(0, frames).some(Boolean) }
    pieces = cut < buffered ? [all.slice(cut)] : []
    buffered -= cut
    voiceFrames = voiceFrames.slice(frames)
    pauseCuts = pauseCuts.map((at) => at - frames).filter((at) => at > 0)
    lastVoiced -= frames
    stretchStart = Math.max(0, stretchStart - frames)
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
    const samples = int16FromPcm16(bytes)
    pieces.push(samples)
    buffered += samples.length
    classify(samples)
    for (;;) {
      const pauseCut = pauseCuts[0]
      if (pauseCut !== undefined && pauseCut <= maxFrames) yield take(pauseCut)
      else if (buffered >= maxSamples) yield take(cutFrame(voiceFrames, maxFrames, searchFrames))
      else break
    }
  }
  while (pauseCuts[0] !== undefined && pauseCuts[0] * FRAME_SAMPLES < buffered) yield take(pauseCuts[0])
  if (buffered > 0) {
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
