import type { JobErrorCode } from '../../../../shared/api/job-error-codes'
import type { EndReason, ToolCallRecord, TranscriptTurn } from '../../../../shared/api/conversations'
import type { IpcError } from '../../../../shared/ipc/operations'
import type { AgentActivity, TestCallServerFrame } from '../../../../shared/ipc/streams'

/*
 * What the Test call panel shows of a live call, folded from the service's frames by a pure
 * reducer (tested without a browser). The panel's side effects (playing audio, answering marks
 * and tool calls) live beside it, in the panel.
 */

/** One line of the transcript: a finished turn, or a moment the caller spoke over the agent. */
export type TranscriptEntry = { kind: 'turn'; turn: TranscriptTurn } | { kind: 'barge-in'; at: number }

/** A tool call as the panel saw it: the arguments, the answer it gave, and the service's record once finished. */
export interface ToolCallView {
  id: string
  name: string
  arguments: Record<string, unknown>
  at: number
  /** The stub the panel answered with (undefined until answered). */
  answered?: unknown
  /** The service's record when the call finished (answered, or timed out). */
  record?: ToolCallRecord
}

export interface CallEnd {
  status: 'COMPLETED' | 'FAILED'
  endReason: EndReason
  duration: number
  error?: { code: JobErrorCode; message: string }
}

export interface LiveCallState {
  /** connecting until `started`; ended after `ended`; failed when refused or the carrier broke. */
  phase: 'connecting' | 'live' | 'ended' | 'failed'
  jobId: string | null
  agentName: string | null
  dialogueEngine: string | null
  speechRecognition: { enabled: boolean; engine: string | null; model: string | null } | null
  outcomeShape: unknown
  activity: AgentActivity | null
  /** The sentence the agent is saying now (ahead of its written turn). */
  saying: string | null
  transcript: TranscriptEntry[]
  outcome: { result: unknown; complete: boolean | null; final: boolean } | null
  toolCalls: ToolCallView[]
  notices: { code: string; message: string }[]
  end: CallEnd | null
  failure: IpcError | null
}

export const CONNECTING: LiveCallState = {
  phase: 'connecting',
  jobId: null,
  agentName: null,
  dialogueEngine: null,
  speechRecognition: null,
  outcomeShape: null,
  activity: null,
  saying: null,
  transcript: [],
  outcome: null,
  toolCalls: [],
  notices: [],
  end: null,
  failure: null,
}

/** The state after one frame from the service (audio, marks and clears change nothing shown). */
export function applyServerFrame(state: LiveCallState, frame: TestCallServerFrame): LiveCallState {
  switch (frame.type) {
    case 'started':
      return {
        ...state,
        phase: 'live',
        jobId: frame.jobId,
        agentName: frame.agentName,
        dialogueEngine: frame.dialogueEngine,
        speechRecognition: frame.speechRecognition,
        outcomeShape: frame.outcomeShape ?? null,
      }
    case 'activity':
      // The sentence said is over once the agent listens or thinks again.
      return { ...state, activity: frame.activity, saying: frame.activity === 'speaking' ? state.saying : null }
    case 'agent-text':
    case 'poke':
      return { ...state, saying: frame.content }
    case 'turn':
      return { ...state, transcript: inTimeOrder(state.transcript, { kind: 'turn', turn: frame.turn }) }
    case 'barge-in':
      return { ...state, saying: null, transcript: inTimeOrder(state.transcript, { kind: 'barge-in', at: frame.at }) }
    case 'tool-call':
      return { ...state, toolCalls: [...state.toolCalls, { id: frame.id, name: frame.name, arguments: frame.arguments, at: frame.at }] }
    case 'tool-result': {
      const known = state.toolCalls.some((call) => call.id === frame.call.id)
      const toolCalls = known
        ? state.toolCalls.map((call) => (call.id === frame.call.id ? { ...call, record: frame.call } : call))
        : [
            ...state.toolCalls,
            { id: frame.call.id, name: frame.call.name, arguments: frame.call.arguments, at: frame.call.at, record: frame.call },
          ]
      return { ...state, toolCalls }
    }
    case 'outcome':
      // A final outcome is never replaced by a partial one that arrives late.
      if (state.outcome?.final && !frame.final) return state
      return { ...state, outcome: { result: frame.result, complete: frame.complete, final: frame.final } }
    case 'info':
      return { ...state, notices: [...state.notices, { code: frame.code, message: frame.message }] }
    case 'ended':
      return {
        ...state,
        phase: 'ended',
        jobId: frame.jobId,
        activity: null,
        saying: null,
        end: { status: frame.status, endReason: frame.endReason, duration: frame.duration, ...(frame.error ? { error: frame.error } : {}) },
      }
    case 'refused':
      return { ...state, phase: 'failed', activity: null, saying: null, failure: frame.error }
    case 'audio':
    case 'mark':
    case 'clear':
      return state
  }
}

const timeOf = (entry: TranscriptEntry) => (entry.kind === 'turn' ? entry.turn.startTime : entry.at)

/**
 * The transcript with one more entry, by time: a turn is written when it ends, so a barge-in
 * during an agent's turn arrives before that turn and is shown after it.
 */
function inTimeOrder(transcript: readonly TranscriptEntry[], entry: TranscriptEntry): TranscriptEntry[] {
  // After the last entry that is not later than this one.
  const index = transcript.findLastIndex((earlier) => timeOf(earlier) <= timeOf(entry)) + 1
  return [...transcript.slice(0, index), entry, ...transcript.slice(index)]
}

/** The panel answered a tool call with this stub. */
export function markToolAnswered(state: LiveCallState, id: string, answer: unknown): LiveCallState {
  return { ...state, toolCalls: state.toolCalls.map((call) => (call.id === id ? { ...call, answered: answer } : call)) }
}

/** The stream closed: a call that had not ended is failed (the carrier broke, or it never ran). */
export function applyStreamClosed(state: LiveCallState, failure: IpcError | null): LiveCallState {
  if (state.phase === 'ended' || state.phase === 'failed') return state
  return {
    ...state,
    phase: 'failed',
    activity: null,
    saying: null,
    failure: failure ?? { code: 'INTERNAL', message: 'The call closed before it ended.', details: [] },
  }
}

/** One field of the outcome, as the panel lists it: from the agent's shape, with the value known so far. */
export interface OutcomeField {
  name: string
  required: boolean
  description: string | null
  /** Whether the outcome so far has a value for it (null counts as none). */
  filled: boolean
  value: unknown
}

/** The top-level fields of an object shape, with what the outcome holds for each; null when the shape is not an object with properties. */
export function outcomeFields(shape: unknown, result: unknown): OutcomeField[] | null {
  if (typeof shape !== 'object' || shape === null) return null
  const { properties, required } = shape as { properties?: unknown; required?: unknown }
  if (typeof properties !== 'object' || properties === null) return null
  const requiredNames = new Set(Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [])
  const values = typeof result === 'object' && result !== null && !Array.isArray(result) ? (result as Record<string, unknown>) : {}
  return Object.entries(properties as Record<string, unknown>).map(([name, property]) => {
    const description =
      typeof property === 'object' && property !== null && typeof (property as { description?: unknown }).description === 'string'
        ? (property as { description: string }).description
        : null
    const value = Object.hasOwn(values, name) ? values[name] : undefined
    return { name, required: requiredNames.has(name), description, filled: value !== undefined && value !== null, value }
  })
}

/** Seconds from the call's start as m:ss.s (the transcript's times). */
export function formatCallTime(seconds: number): string {
  const whole = Math.max(0, seconds)
  const minutes = Math.floor(whole / 60)
  return `${minutes}:${(whole - minutes * 60).toFixed(1).padStart(4, '0')}`
}
