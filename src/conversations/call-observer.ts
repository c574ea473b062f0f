import type { DialogueSession } from '../engines/dialogue/dialogue-engine'
import type { VoiceAgentRecord } from '../store/records'
import type { CallActivity, CallObservation, CallTransport } from './call-session-options'

export interface CallObserverOptions {
  transport: Pick<CallTransport, 'observe'>
  dialogue: Pick<DialogueSession, 'outcomeSoFar'>
  agent: Pick<VoiceAgentRecord, 'outcomeResponseShape'>
  /** What the agent is doing now, or undefined while there is nothing to tell (not begun, or ending). */
  activity: () => CallActivity | undefined
  onError: (error: unknown, context: string) => void
}

/**
 * What a call tells an observer beyond the SDK's frames (the operator UI's test call): each
 * observation as it happens, the agent's activity when it changed, and the outcome so far when
 * it changed. A transport without `observe` (the SDK's socket) costs nothing here.
 */
export class CallObserver {
  /** What it was last told. */
  private lastActivity: CallActivity | undefined
  private lastOutcome: string | undefined

  constructor(private readonly options: CallObserverOptions) {}

  /** Whether anyone listens (the SDK's socket does not). */
  get enabled(): boolean {
    return this.options.transport.observe !== undefined
  }

  observe(observation: CallObservation): void {
    const { transport } = this.options
    if (!transport.observe) return
    try {
      transport.observe(observation)
    } catch (error) {
      this.options.onError(error, 'an observer of the call failed')
    }
  }

  /** Tells the agent's activity, when it changed. */
  checkActivity(): void {
    if (!this.enabled) return
    const activity = this.options.activity()
    if (activity === undefined || activity === this.lastActivity) return
    this.lastActivity = activity
    this.observe({ type: 'activity', activity })
  }

  /** Tells the outcome so far when it changed (engines that know it without a model call: see DialogueSession.outcomeSoFar). */
  checkOutcome(): void {
    const { dialogue, agent } = this.options
    if (!this.enabled || !dialogue.outcomeSoFar || !agent.outcomeResponseShape || this.options.activity() === undefined) return
    const outcome = dialogue.outcomeSoFar()
    const text = JSON.stringify(outcome)
    if (text === this.lastOutcome) return
    const first = this.lastOutcome === undefined
    this.lastOutcome = text
    // The first look is the empty outcome the panel starts from: only changes are news.
    if (!first) this.observe({ type: 'outcome', result: outcome.result, complete: outcome.complete, final: false })
  }
}
