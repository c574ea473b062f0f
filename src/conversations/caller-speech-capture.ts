import { joinSamples } from '../engines/audio/pcm-encoding'
import { CALL_SAMPLE_RATE } from './call-audio'

/** Audio kept before a detected start of speech: the detector fires once speech has lasted a while, and recognition needs the word's start. */
const PRE_ROLL_MS = 400
const PRE_ROLL_SAMPLES = (PRE_ROLL_MS * CALL_SAMPLE_RATE) / 1000

/**
 * The caller's audio for speech recognition: the frames of the turn being captured, which start
 * with the audio kept before the detector's start of speech (pre-roll). Where the turn lies on
 * the call's timeline is the caller's clock's business, not this audio's.
 */
export class CallerSpeechCapture {
  private capturing: Float32Array[] | undefined
  private preRoll: Float32Array[] = []
  private preRollSamples = 0

  get active(): boolean {
    return this.capturing !== undefined
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
    this.preRoll = []
    this.preRollSamples = 0
  }

  /** The turn's audio, or undefined when none was being captured. */
  endTurn(): Float32Array | undefined {
    const captured = this.capturing
    this.capturing = undefined
    return captured && joinSamples(captured, (length) => new Float32Array(length))
  }
}
