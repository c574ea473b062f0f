import { joinSamples } from '../engines/audio/pcm-encoding'
import type { ConversationState } from '../shared/api/conversations'
import type { VoiceAgentRecord } from '../store/records'
import { CALL_SAMPLE_RATE, type CallAudio, type TurnDetector } from './call-audio'
import type { CallRecording } from './call-recording'
import { CallerSpeechCapture, type CapturedTurn } from './caller-speech-capture'

/** Caller audio kept for the gender estimate: a few seconds of speech are plenty. */
const GENDER_SAMPLE_LIMIT = 6 * CALL_SAMPLE_RATE

export interface CallerTurnsOptions {
  audio: Pick<CallAudio, 'turnDetector' | 'estimateGender'>
  agent: Pick<VoiceAgentRecord, 'silenceThreshold' | 'pokeMessages' | 'tools'>
  /** The conversation's counters: pokes said, the caller's gender. */
  state: Pick<ConversationState, 'pokes' | 'callerGender'>
  recording: CallRecording
  startedAt: number
  now: () => number
  /** Whether the caller's silence counts now: the call has begun and the agent neither speaks nor answers. */
  awaitingCaller: () => boolean
  /** The caller started speaking (the agent may be interrupted). */
  speechStarted: () => void
  /** A finished turn of the caller's, with its audio. */
  turn: (turn: CapturedTurn) => void
  /** The caller stayed silent for the agent's threshold: say this poke. */
  poke: (message: string) => void
  /** Silent again after the last poke: the call ends. */
  silentToTheEnd: () => void
  /** The caller's gender as heard from their voice (genderDetection), when it changed. */
  gender: (gender: 'male' | 'female') => void
  onError: (error: unknown, context: string) => void
}

/**
 * The caller's side of a call: frames in, placed on the call's timeline and recorded; turns
 * found by the voice activity detector; silence counted towards the agent's pokes; the
 * caller's gender learnt from their voice.
 */
export class CallerTurns {
  private detector: TurnDetector | undefined
  private readonly capture: CallerSpeechCapture
  private silentMs = 0
  /** The caller's speech so far, for the gender estimate (up to GENDER_SAMPLE_LIMIT). */
  private voiceHeard: Float32Array = new Float32Array(0)
  private closed = false

  constructor(private readonly options: CallerTurnsOptions) {
    this.capture = new CallerSpeechCapture(options.recording, options.startedAt)
    void options.audio.turnDetector().then(
      (detector) => {
        if (this.closed) detector.dispose()
        else this.detector = detector
      },
      (error: unknown) => options.onError(error, 'the turn detector could not start'),
    )
  }

  /** Caller audio (16 kHz mono, [-1, 1]) as it arrives. */
  hear(samples: Float32Array): void {
    if (this.closed) return
    this.capture.place(samples, this.options.now())
    for (const event of this.detector?.push(samples) ?? []) {
      if (event.type === 'speech-start') this.startedSpeaking()
      else this.stoppedSpeaking()
    }
    if (this.capture.keep(samples)) return
    this.countSilence((samples.length * 1000) / CALL_SAMPLE_RATE)
  }

  /** The caller did something (a typed turn): their silence starts again. */
  heardFrom(): void {
    this.silentMs = 0
  }

  close(): void {
    this.closed = true
    this.detector?.dispose()
  }

  private startedSpeaking(): void {
    this.silentMs = 0
    this.capture.startTurn()
    this.options.speechStarted()
  }

  private stoppedSpeaking(): void {
    const turn = this.capture.endTurn()
    if (!turn) return
    this.learnGender(turn.audio)
    this.options.turn(turn)
  }

  /** Silence accrues only over frames the caller sends while nobody speaks and nothing is being answered. */
  private countSilence(ms: number): void {
    if (!this.options.awaitingCaller()) {
      this.silentMs = 0
      return
    }
    this.silentMs += ms
    if (this.silentMs < this.options.agent.silenceThreshold * 1000) return
    this.silentMs = 0
    const pokes = this.options.agent.pokeMessages
    const state = this.options.state
    const message = pokes[state.pokes]
    if (message !== undefined) {
      state.pokes += 1
      this.options.poke(message)
    } else if (pokes.length > 0) {
      this.options.silentToTheEnd()
    }
  }

  private learnGender(audio: Float32Array): void {
    if (!this.options.agent.tools.genderDetection || this.voiceHeard.length >= GENDER_SAMPLE_LIMIT) return
    this.voiceHeard = joinSamples([this.voiceHeard, audio], (length) => new Float32Array(length))
    const gender = this.options.audio.estimateGender(this.voiceHeard, CALL_SAMPLE_RATE)
    if (gender && gender !== this.options.state.callerGender) {
      this.options.state.callerGender = gender
      this.options.gender(gender)
    }
  }
}
