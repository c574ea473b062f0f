import { z } from 'zod'
import { envelopeOf, TimestampSchema, UuidSchema } from './common'
import { JobErrorSchema, JobStatusSchema } from './jobs'
import { PLACEHOLDER_NAME, VoiceAgentSchema } from './voice-agents'

/*
 * Conversations: live calls with a voice agent, as the cloud API's web SDK makes them
 * (`../shared/design/clients.md`). A conversation is a job of type CONVERSATION: created by
 * conversation-init, streamed over the `/stream/{jobId}` WebSocket, read here and in /v1/jobs.
 */

/** OpenAI-style function names, as the model servers that receive them require. */
const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

/** A function the caller's page offers the agent (`func_map` is the SDK's own and passed through). */
export const ConversationToolSchema = z
  .object({
    type: z.literal('function'),
    function: z
      .object({
        name: z.string().regex(TOOL_NAME_PATTERN, 'Must be 1 to 64 letters, digits, _ or -'),
        description: z.string().max(2_000).optional(),
        parameters: z.record(z.string(), z.unknown()).optional(),
        func_map: z.unknown().optional(),
      })
      .strict(),
  })
  .strict()
export type ConversationTool = z.infer<typeof ConversationToolSchema>

/** A value for one of the agent's `{{placeholders}}`; numbers and booleans are taken as their text. */
export const ParamValueSchema = z.union([z.string().max(2_000), z.number(), z.boolean()]).transform((value) => String(value))

/** A call's values for the agent's `{{placeholders}}` (conversation-init, an outbound call). */
export const CallParamsSchema = z
  .record(z.string().regex(PLACEHOLDER_NAME, 'Must be a placeholder name: a letter or _, then letters, digits or _'), ParamValueSchema)
  .refine((params) => Object.keys(params).length <= 100, { message: 'At most 100 params' })
  .optional()
  .meta({ description: "Values for the agent's {{placeholders}}; the agent's own params fill the rest." })

export const ConversationInitBodySchema = z
  .object({
    voiceAgentId: UuidSchema,
    params: CallParamsSchema,
    voiceEnablement: z.boolean().optional().meta({ description: 'Sent by the web SDK; calls are always spoken here.' }),
    tools: z
      .array(ConversationToolSchema)
      .max(64)
      .refine((tools) => new Set(tools.map((tool) => tool.function.name)).size === tools.length, {
        message: 'Each tool name may appear once',
      })
      .optional()
      .meta({ description: "Functions the caller's page runs when the agent calls them (the `tools` frame)." }),
  })
  .strict()
  .meta({ id: 'ConversationInitBody' })
export type ConversationInitBody = z.infer<typeof ConversationInitBodySchema>

export const ConversationInitEnvelopeSchema = envelopeOf(z.object({ jobId: UuidSchema }))

export const ConversationIdParamsSchema = z.object({ jobId: z.string().min(1).max(100) })

/** Why a call ended. */
export const END_REASONS = [
  /** The caller hung up (the SDK's `stop`, or its socket closed). */
  'caller-hangup',
  /** The agent said goodbye (the caller said goodbye, or the model ended the call). */
  'agent-hangup',
  /** `smartCallEnd`: everything the outcome needs was known and confirmed. */
  'smart-end',
  /** The caller stayed silent through every poke message. */
  'silence',
  /** The call reached the longest call VoiceDesk holds. */
  'max-duration',
  /** The service was stopped during the call. */
  'service-stopped',
  /** A fault ended the call (the conversation is FAILED; `error` says what). */
  'error',
] as const
export const EndReasonSchema = z.enum(END_REASONS)
export type EndReason = z.infer<typeof EndReasonSchema>

/** One turn of the transcript; times are seconds from the call's start. */
export const TranscriptTurnSchema = z
  .object({
    role: z.enum(['agent', 'caller']),
    content: z.string(),
    startTime: z.number(),
    endTime: z.number(),
    /** agent: a poke message said after the caller's silence. caller: typed rather than spoken, or keys pressed on a phone (dtmf). */
    kind: z.enum(['speech', 'poke', 'typed', 'dtmf']).optional(),
    /** The caller spoke over this agent turn and it was cut short (barge-in). */
    interrupted: z.boolean().optional(),
    /** A caller turn heard while speech recognition was off: its words are unknown. */
    unrecognised: z.boolean().optional(),
  })
  .meta({ id: 'TranscriptTurn' })
export type TranscriptTurn = z.infer<typeof TranscriptTurnSchema>

export const ToolCallRecordSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The arguments as sent in the `tools` frame (keys in declared order). */
    arguments: z.record(z.string(), z.unknown()),
    /** The page's answer (`tools_response`), when one came. */
    response: z.unknown().optional(),
    /** Why there is no answer: the time limit, the call's end. */
    error: z.string().optional(),
    at: z.number(),
  })
  .meta({ id: 'ToolCallRecord' })
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>

/**
 * What the conversation job stores in `jobResponse` (and `GET /v1/jobs` shows): written as the
 * call goes on (every finished turn), so a call cut off by a crash keeps what was said.
 */
export const ConversationStateSchema = z.object({
  startedAt: TimestampSchema.nullable(),
  endedAt: TimestampSchema.nullable(),
  endReason: EndReasonSchema.nullable(),
  transcript: z.array(TranscriptTurnSchema),
  toolCalls: z.array(ToolCallRecordSchema),
  /** Valid against the agent's `outcomeResponseShape`; null until the call ended, or when the agent has none. */
  outcomeResult: z.unknown().meta({ description: 'null until the call ended, or when the agent has no shape' }),
  /** False when `outcomeResult` lacks required fields (a partial: `outcomeProblems` says what). */
  outcomeComplete: z.boolean().nullable(),
  outcomeProblems: z.array(z.string()).optional(),
  bargeIns: z.number().int(),
  pokes: z.number().int(),
  /**
   * The agent's answers that followed a caller's turn, and the seconds from the end of each such
   * caller turn to the start of the answer, summed (analytics' latency). Absent on calls made
   * before it was kept.
   */
  answerDelays: z.object({ answers: z.number().int(), seconds: z.number() }).optional(),
  callerGender: z.enum(['male', 'female']).nullable(),
  speechRecognition: z.object({ enabled: z.boolean(), engine: z.string().nullable(), model: z.string().nullable() }),
  dialogueEngine: z.string(),
  params: z.record(z.string(), z.string()),
  /** The functions the caller's page offered at conversation-init. */
  tools: z.array(
    z.object({ name: z.string(), description: z.string().optional(), parameters: z.record(z.string(), z.unknown()).optional() }),
  ),
  /**
   * The agent version the call ran against (docs/api.md, "Agent versions"): the newest when its
   * socket connected (until then, the newest at conversation-init). Absent on calls made before
   * agents had versions.
   */
  agentVersion: z.number().int().nullable().optional(),
  /** Only while the call's recording is not stored because the disk was full when it ended (see RecordingStateSchema). */
  recording: z.enum(['waiting: disk full', 'lost: disk full']).optional(),
  /** How the caller reached the agent: `SIP` for a phone call over the SIP line; absent on web calls (the SDK's socket, a test call). */
  channel: z.literal('SIP').optional(),
  /** A phone call's direction: `inbound` (a caller dialled the agent's number). */
  direction: z.enum(['inbound', 'outbound']).optional(),
  /** A phone call's numbers: who called (the SIP From's user part, as sent) and the number dialled (E.164, as registered). */
  fromNumber: z.string().optional(),
  toNumber: z.string().optional(),
})
export type ConversationState = z.infer<typeof ConversationStateSchema>

/**
 * Where a call's recording is: `stored` (`recordingUrl` plays it), `waiting: disk full` (the
 * disk was full when the call ended: it is kept in memory and stored once there is room),
 * `lost: disk full` (more was waiting than the service keeps, or the service stopped before
 * there was room). Null when the call has none (it never started, or its service died).
 */
export const RecordingStateSchema = z.enum(['stored', 'waiting: disk full', 'lost: disk full'])
export type RecordingState = z.infer<typeof RecordingStateSchema>

/** One entry of a conversation's `logs`: what happened in the call, in order (docs/api.md, "The conversation read"). */
export const CallLogSchema = z
  .object({
    id: z.string().meta({ description: '`log_<n>`, n from 1 in the order of the call.' }),
    timestamp: TimestampSchema,
    payload: z
      .object({
        event: z.enum(['call.started', 'turn', 'tool.executed', 'call.ended']),
        /** Seconds from the call's start. */
        at: z.number(),
      })
      .catchall(z.unknown())
      .meta({
        description:
          "The event (`call.started`, `turn`, `tool.executed`, `call.ended`), `at` (seconds from the call's start) and what it holds.",
      }),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'CallLog' })
export type CallLog = z.infer<typeof CallLogSchema>

/** `GET /v1/voice-agents/conversation/{jobId}`. */
export const ConversationSchema = ConversationStateSchema.extend({
  id: UuidSchema,
  jobId: UuidSchema,
  status: JobStatusSchema,
  error: JobErrorSchema.optional(),
  voiceAgentId: z.string().nullable(),
  agentName: z.string().nullable(),
  /** Seconds from the call's start to its end (or to now, while it runs); null before it started. */
  duration: z.number().nullable(),
  /** The call's audio (both sides, 16 kHz mono WAV) once it ended and was stored. */
  recordingUrl: z.string().nullable(),
  /** Whether the recording is stored, waits for room on a full disk, or was lost to one; null when the call has none. */
  recording: RecordingStateSchema.nullable(),
  totalCost: z.number(),
  // The cloud reference's names for what the fields above say (its conversation read shows them).
  title: z.string(),
  model: z.string().meta({ description: 'The dialogue model the call was made with.' }),
  processingType: z.string(),
  apiKeyId: UuidSchema,
  mediaUrl: z.string().nullable().meta({ description: 'Same as recordingUrl.' }),
  callParams: z.record(z.string(), z.string()).meta({
    description:
      'Same as params; a phone call adds `userNumber` (the caller, or the phone an agent called) and `machineNumber` (the number of the agent).',
  }),
  callDuration: z.number().meta({ description: 'Same as duration, 0 before the call started.' }),
  channelType: z
    .enum(['Web', 'Telephone'])
    .meta({ description: '`Web` for the web SDK (and the test call), `Telephone` for a call over the SIP line.' }),
  /** Always present here: `WEB` unless the call came over the SIP line. */
  channel: z.enum(['WEB', 'SIP']).meta({ description: '`SIP` for a phone call over the SIP line, `WEB` otherwise.' }),
  // The reference's call details, computed from what the call kept (docs/api.md, "The conversation read").
  agentDetails: z
    .object({
      version: z
        .number()
        .int()
        .nullable()
        .meta({ description: 'The agent version the call ran against; null for calls made before versions.' }),
      agent: VoiceAgentSchema,
    })
    .nullable()
    .meta({
      description: 'The agent as it was for the call (its version), or as it is now for older calls; null once the agent is deleted.',
    }),
  callAnalysis: z.object({
    endReason: EndReasonSchema.nullable(),
    outcomeResult: z.unknown(),
    outcomeComplete: z.boolean().nullable(),
    outcomeProblems: z.array(z.string()),
    callerGender: z.enum(['male', 'female']).nullable(),
  }),
  logs: z.array(CallLogSchema),
  performanceMetrics: z.object({
    durationSeconds: z.number().nullable(),
    agentTurns: z.number().int(),
    callerTurns: z.number().int(),
    answers: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Agent answers that followed a caller's turn; null on calls made before it was kept." }),
    averageAnswerDelaySeconds: z
      .number()
      .nullable()
      .meta({ description: "Mean seconds from the end of a caller's turn to the start of the agent's answer; null without answers." }),
    bargeIns: z.number().int(),
    pokes: z.number().int(),
    toolCalls: z.number().int(),
  }),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
}).meta({ id: 'Conversation' })
export type Conversation = z.infer<typeof ConversationSchema>
export const ConversationEnvelopeSchema = envelopeOf(ConversationSchema)

/** The envelope of every agent webhook (the contract's "Agent webhooks"). */
export interface CallEventEnvelope {
  eventType: string
  callId: string
  timestamp: string
  projectId: string
  agentId: string
  agentName: string
  data: Record<string, unknown>
}
