import { joinSamples } from '../engines/audio/pcm-encoding'
import type { ConversationState } from '../shared/api/conversations'
import type { VoiceAgentRecord } from '../store/records'
import { CALL_SAMPLE_RATE, type CallAudio, type TurnDetector } from './call-audio'
import type { CallRecording } from './call-recording'
import { type CallerClock, samplesToMs } from './caller-clock'
import { CallerSpeechCapture } from './caller-speech-capture'

/** Caller audio kept for the gender estimate: a few seconds of speech are plenty. */
const GENDER_SAMPLE_LIMIT = 6 * CALL_SAMPLE_RATE

/** A caller's turn: its audio (with the pre-roll, for recognition), and where the voice starts and ends, in seconds from the call's start. */
export interface CallerTurn {
  audio: Float32Array
  startTime: number
  endTime: number
  /** Cut at the agent's longest caller turn while the caller went on speaking. */
  cut?: true
}

/** How the agent takes turns. */
export interface TurnTaking {
  /** Silence after the caller's voice that ends their turn. */
  endOfTurnSilenceMs: number
  /** The longest a caller's turn runs before the agent answers what it heard (a caller who never pauses, a television behind them). */
  maxCallerTurnMs: number
}

export const DEFAULT_TURN_TAKING: TurnTaking = { endOfTurnSilenceMs: 600, maxCallerTurnMs: 15_000 }

export interface CallerTurnsOptions {
  audio: Pick<CallAudio, 'turnDetector' | 'estimateGender'>
  agent: Pick<VoiceAgentRecord, 'silenceThreshold' | 'pokeMessages' | 'tools'>
  /** The conversation's counters: pokes said, the caller's gender. */
  state: Pick<ConversationState, 'pokes' | 'callerGender'>
  turnTaking: TurnTaking
  recording: CallRecording
  clock: CallerClock
  startedAt: number
  now: () => number
  /** Whether the caller's silence counts now: the call has begun and the agent neither speaks nor answers. */
  awaitingCaller: () => boolean
  /** The caller started speaking `heardForMs` ago by their clock (the detector needs some voice to be sure): the agent may be interrupted. */
  speechStarted: (heardForMs: number) => void
  /** A finished turn of the caller's, with its audio. */
  turn: (turn: CallerTurn) => void
  /** The caller stayed silent for the agent's threshold: say this poke. */
  poke: (message: string) => void
  /** Silent again after the last poke: the call ends. */
  silentToTheEnd: () => void
  /** The caller's gender as heard from their voice (genderDetection), when it changed. */
  gender: (gender: 'male' | 'female') => void
  onError: (error: unknown, context: string) => void
}

/**
 * The caller's side of a call: frames in, counted on the caller's clock and recorded; turns
 * found by the voice activity detector, timed where the voice starts and ends in the caller's
 * audio, and cut at the agent's longest turn; silence counted towards the agent's pokes; the
 * caller's gender learnt from their voice.
 */
export class CallerTurns {
  private detector: TurnDetector | undefined
  private readonly capture = new CallerSpeechCapture()
  /** The caller's sample at which the detector heard its first frame (it starts asynchronously). */
  private detectorOrigin: number | undefined
  /** The caller's sample where the voice of the turn being captured started (or where its cut left off). */
  private turnStart: number | undefined
  private silentMs = 0
  /** The caller's speech so far, for the gender estimate (up to GENDER_SAMPLE_LIMIT). */
  private voiceHeard: Float32Array = new Float32Array(0)
  private closed = false

  constructor(private readonly options: CallerTurnsOptions) {
    void options.audio.turnDetector({ trailingSilenceMs: options.turnTaking.endOfTurnSilenceMs }).then(
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
    const { clock } = this.options
    clock.advance(samples.length, this.options.now() - this.options.startedAt)
    this.options.recording.addCaller(samples)
    if (this.detector) {
      this.detectorOrigin ??= clock.sampleCount - samples.length
      const origin = this.detectorOrigin
      for (const event of this.detector.push(samples)) {
        const sample = origin + Math.round((event.atMs * CALL_SAMPLE_RATE) / 1000)
        if (event.type === 'speech-start') this.startedSpeaking(sample)
        else this.stoppedSpeaking(sample)
      }
    }
    if (!this.capture.keep(samples)) return this.countSilence(samplesToMs(samples.length))
    if (this.turnStart !== undefined && samplesToMs(clock.sampleCount - this.turnStart) >= this.options.turnTaking.maxCallerTurnMs)
      this.cutTurn()
  }

  /** The caller did something (a typed turn): their silence starts again. */
  heardFrom(): void {
    this.silentMs = 0
  }

  close(): void {
    this.closed = true
    this.detector?.dispose()
  }

  private startedSpeaking(voiceStart: number): void {
    this.silentMs = 0
    this.capture.startTurn()
    this.turnStart = voiceStart
    this.options.speechStarted(samplesToMs(this.options.clock.sampleCount - voiceStart))
  }

  private stoppedSpeaking(voiceEnd: number): void {
    const audio = this.capture.endTurn()
    const start = this.turnStart
    this.turnStart = undefined
    // A turn cut at the longest turn whose voice ended right at the cut left only silence.
    if (!audio || start === undefined || voiceEnd <= start) return
    this.finishTurn({ audio, startTime: this.seconds(start), endTime: this.seconds(voiceEnd) })
  }

  /** The caller spoke for the agent's longest turn without a pause: what was heard is answered, what follows is the next turn (no barge-in: no voice started). */
  private cutTurn(): void {
    const audio = this.capture.endTurn()
    const start = this.turnStart
    const cutAt = this.options.clock.sampleCount
    if (!audio || start === undefined) return
    this.finishTurn({ audio, startTime: this.seconds(start), endTime: this.seconds(cutAt), cut: true })
    this.capture.startTurn()
    this.turnStart = cutAt
  }

  private finishTurn(turn: CallerTurn): void {
    this.learnGender(turn.audio)
    this.options.turn(turn)
  }

  private seconds(sample: number): number {
    return this.options.clock.msAt(sample) / 1000
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
