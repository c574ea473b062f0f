import type { Pronunciation } from '../engines/tts/pronunciations'
import type { ConversationState, EndReason, ToolCallRecord, TranscriptTurn } from '../shared/api/conversations'
import type { JobErrorCode } from '../shared/api/job-error-codes'
import type { CallEvent } from '../shared/api/webhooks'
import type { ServerFrame } from '../shared/api/stream-frames'
import type { DialogueSession, DialogueTool } from '../engines/dialogue/dialogue-engine'
import type { SttEngine } from '../engines/stt/stt-engine'
import type { DiskFullCondition } from '../store/disk-full-condition'
import type { Store, StoreTransaction } from '../store/ports'
import type { JobRecord, VoiceAgentRecord } from '../store/records'
import type { CallAudio } from './call-audio'
import type { RecordingsAwaitingRoom } from './recordings-awaiting-room'

/*
 * What a call session is given and tells: its options, limits and transport, and what an
 * observer hears. The host (ConversationHost) and the operator UI's test call build on these.
 */

/** What the agent is doing, as a caller would notice it. */
export type CallActivity = 'listening' | 'thinking' | 'speaking'

/**
 * What a call tells an observer beyond the SDK's frames (the operator UI's test call shows it
 * live): times are seconds from the call's start, as in the transcript.
 */
export type CallObservation =
  /** Speaking while the agent's audio is made or plays (until the caller's side echoes its mark), thinking while a turn is being answered, listening otherwise. */
  | { type: 'activity'; activity: CallActivity }
  /** A finished turn, as written to the conversation. */
  | { type: 'turn'; turn: TranscriptTurn }
  | { type: 'barge-in'; at: number }
  /** The agent spoke after the caller's silence. */
  | { type: 'poke'; at: number; content: string }
  | { type: 'tool-call'; id: string; name: string; arguments: Record<string, unknown>; at: number }
  | { type: 'tool-result'; call: ToolCallRecord }
  /** The outcome as far as the dialogue knows it (`final` false, engines that can tell), then as extracted at the end (`final` true). */
  | { type: 'outcome'; result: unknown; complete: boolean | null; final: boolean }
  /** The end was written. */
  | {
      type: 'ended'
      status: 'COMPLETED' | 'FAILED'
      endReason: EndReason
      duration: number
      error?: { code: JobErrorCode; message: string }
    }

/** Where the call's frames go: the SDK's WebSocket, or the operator UI's stream. */
export interface CallTransport {
  /** Sends a frame; `onWritten`, when the transport can tell, once it was written to the socket (compressed, queued, flushed). */
  send(frame: ServerFrame, onWritten?: () => void): void
  /** Ends the connection cleanly (WebSocket close 1000). */
  close(): void
  /** Told what the frames do not carry; the SDK's socket has none (and the call is the same without). */
  observe?(observation: CallObservation): void
  /**
   * The client does not play the audio as it comes (a test run's simulated caller): the agent's
   * audio is sent as soon as it is made, not kept a little ahead of playback, so a turn's mark
   * comes back at once. Its recording holds the agent audio that was due to have played.
   */
  unpaced?: boolean
}

/** Writes one of the agent's webhook events through `tx`; answers whether a delivery was stored. */
export type CallEventWriter = (
  tx: StoreTransaction,
  call: { job: JobRecord; agent: VoiceAgentRecord },
  event: CallEvent,
  data: Record<string, unknown>,
) => Promise<boolean>

export interface CallLimits {
  /** How long the call's lease lasts; it is renewed three times as often. */
  leaseMs: number
  /** The longest call VoiceDesk holds (then it ends with `max-duration`). */
  maxDurationMs: number
  /** How long a tool call waits for the page's `tools_response`. */
  toolTimeoutMs: number
  /** How long the outcome may take once the call ended (a model can be slow). */
  outcomeTimeoutMs: number
  /** A call whose socket sends no `start` begins anyway after this long. */
  startGraceMs: number
}

export interface CallSessionOptions {
  job: JobRecord
  agent: VoiceAgentRecord
  /** The entries of the voice dictionaries active for the agent when the call started (docs/api.md, "Voice dictionaries"). */
  pronunciations?: readonly Pronunciation[]
  /** The lease owner the call runs under. */
  owner: string
  state: ConversationState
  store: Pick<Store, 'transaction'>
  /** Where the recording is stored when the call ends (kept until there is room when the disk is full). */
  recordings: Pick<RecordingsAwaitingRoom, 'store'>
  /** The data disk's state: an end that meets a full disk is written once there is room. */
  diskFull: Pick<DiskFullCondition, 'report' | 'whenSpaceIsBack'>
  /** Aborted when the service stops: an end waiting for room gives up (its lease runs out; the next start ends it). */
  stopping: AbortSignal
  audio: CallAudio
  dialogue: DialogueSession
  tools: readonly DialogueTool[]
  stt: SttEngine | undefined
  transport: CallTransport
  writeEvent: CallEventWriter
  limits: CallLimits
  /** Credits for a call of `seconds`. */
  costOf: (seconds: number) => number
  /** Milliseconds, monotonic enough for a call (Date.now in the service). */
  now: () => number
  timestamp: () => string
  /** A delivery was stored: wake the sender. */
  webhookQueued: () => void
  /** The call's record changed (live views). */
  changed: (job: JobRecord) => void
  /** A fault of VoiceDesk, for the log. */
  onError: (error: unknown, context: string) => void
}
