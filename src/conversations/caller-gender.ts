import { joinSamples } from '../engines/audio/pcm-encoding'
import { CALL_SAMPLE_RATE } from './call-audio'
import type { CallSessionOptions } from './call-session-options'

/** Caller audio kept for the gender estimate: a few seconds of speech are plenty. */
const GENDER_SAMPLE_LIMIT = 6 * CALL_SAMPLE_RATE

/**
 * The caller's gender, estimated from their first seconds of speech when the agent asks for it
 * (`tools.genderDetection`): kept in the call's state and told to the dialogue (Arabic addresses
 * a man and a woman differently).
 */
export class CallerGenderEstimate {
  private voiceHeard: Float32Array = new Float32Array(0)

  constructor(private readonly options: Pick<CallSessionOptions, 'agent' | 'audio' | 'state' | 'dialogue'>) {}

  /** One finished caller turn's audio (16 kHz mono). */
  hear(audio: Float32Array): void {
    if (!this.options.agent.tools.genderDetection || this.voiceHeard.length >= GENDER_SAMPLE_LIMIT) return
    this.voiceHeard = joinSamples([this.voiceHeard, audio], (length) => new Float32Array(length))
    const gender = this.options.audio.estimateGender(this.voiceHeard, CALL_SAMPLE_RATE)
    if (gender && gender !== this.options.state.callerGender) {
      this.options.state.callerGender = gender
      this.options.dialogue.setCallerTraits({ gender })
    }
  }
}
