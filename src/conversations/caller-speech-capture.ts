import { joinSamples } from '../engines/audio/pcm-encoding'
import { CALL_SAMPLE_RATE } from './call-audio'
import type { CallRecording } from './call-recording'

/** Audio kept before a detected start of speech: the detector fires once speech has lasted a while. */
const PRE_ROLL_MS = 400
const PRE_ROLL_SAMPLES = (PRE_ROLL_MS * CALL_SAMPLE_RATE) / 1000

/** A caller's turn as captured: its audio, and its start and end in seconds from the call's start. */
export interface CapturedTurn {
  audio: Float32Array
  startTime: number
  endTime: number
}

/**
 * The caller's side of a call's timeline: where each frame lands (and is recorded), the audio
 * kept before a start of speech (pre-roll), and the turn being captured between the detector's
 * start and end of speech.
 */
export class CallerSpeechCapture {
  private capturing: Float32Array[] | undefined
  private captureStartedAt = 0
  private preRoll: Float32Array[] = []
  private preRollSamples = 0
  /** Milliseconds from the call's start to the end of the caller's last frame. */
  private cursorMs = 0

  constructor(
    private readonly recording: CallRecording,
    private readonly startedAt: number,
  ) {}

  /** Places a frame on the timeline, and in the recording, as it arrives at `now`. */
  place(samples: Float32Array, now: number): void {
    // Frames come in real time; a pause (none sent) leaves a gap on the timeline, as it did for the caller.
    const wallMs = now - this.startedAt - (samples.length * 1000) / CALL_SAMPLE_RATE
    if (wallMs > this.cursorMs + 250) this.cursorMs = wallMs
    this.recording.add(samples, this.cursorMs)
    this.cursorMs += (samples.length * 1000) / CALL_SAMPLE_RATE
  }

  /** Keeps a frame: in the turn being captured (answers true), or in the pre-roll (false). */
  keep(samples: Float32Array): boolean {
    if (this.capturing) {
      this.capturing.push(samples)
      return true
    }
    this.preRoll.push(samples)
    this.preRollSamples += samples.length
    for (let oldest = this.preRoll[0]; oldest && this.preRollSamples - oldest.length >= PRE_ROLL_SAMPLES; oldest = this.preRoll[0]) {
      this.preRoll.shift()
      this.preRollSamples -= oldest.length
    }
    return false
  }

  /** The caller started speaking: the turn starts with the pre-roll. */
  startTurn(): void {
    this.capturing = [...this.preRoll]
    this.captureStartedAt = Math.max(0, this.cursorMs - this.preRollSamples / (CALL_SAMPLE_RATE / 1000))
    this.preRoll = []
    this.preRollSamples = 0
  }

  /** The caller stopped speaking: the turn captured, or undefined when none was being captured. */
  endTurn(): CapturedTurn | undefined {
    const captured = this.capturing
    this.capturing = undefined
    if (!captured) return undefined
    return { audio: joinSamples(captured, (length) => new Float32Array(length)), startTime: this.captureStartedAt / 1000, endTime: this.cursorMs / 1000 }
  }
}
