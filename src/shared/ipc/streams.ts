import { z } from 'zod'
import { UuidSchema } from '../api/common'
import { EndReasonSchema, ToolCallRecordSchema, TranscriptTurnSchema } from '../api/conversations'
import { JobErrorSchema } from '../api/jobs'
import { PLACEHOLDER_NAME } from '../api/voice-agents'
import { IPC_STREAM_CHANNEL, IPC_STREAM_NAMES, type IpcStreamName, type SameNames } from './operation-names'
import { IpcErrorSchema, type IpcError } from './ipc-error'

export { IPC_STREAM_CHANNEL, IPC_STREAM_NAMES, type IpcStreamName }

/*
 * The operator contract's third kind of entry, beside operations (request, response) and the
 * broadcast events: a duplex stream of typed frames, for what one answer cannot carry (a test
 * call). Opened with an input validated like an operation's; then each side sends frames of its
 * own schema until either end closes. Carried by a MessagePort in Electron and by a WebSocket
 * (`BROWSER_STREAMS.path`) in browser mode, authenticated like the operations.
 *
 * Audio crosses as base64 PCM16 LE, 16 kHz mono, in JSON frames: one frame format for both
 * carriers, a third of a call's bandwidth more than binary, far inside what either carries.
 */

const stream = <I extends z.ZodType, C extends z.ZodType, S extends z.ZodType>(input: I, client: C, server: S) => ({
  input,
  client,
  server,
})

/** Audio of a test call: base64 PCM16 LE, 16 kHz mono (a 100 ms frame is 4,268 characters). */
const Pcm16Schema = z.string().max(96 * 1024)
export const TEST_CALL_SAMPLE_RATE = 16_000

/** A function the panel offers the agent for this call, with the answer the operator set for it. */
export const TestCallToolSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be 1 to 64 letters, digits, _ or -'),
    description: z.string().max(2_000).optional(),
    /** JSON Schema of the arguments (`type: object`). */
    parameters: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()

export const TestCallInputSchema = z
  .object({
    agentId: z.string().min(1).max(200),
    /** Values for the agent's `{{placeholders}}` for this call; the agent's own params fill the rest. */
    params: z
      .record(z.string().regex(PLACEHOLDER_NAME), z.string().max(2_000))
      .refine((params) => Object.keys(params).length <= 100, { message: 'At most 100 params' })
      .default({}),
    tools: z
      .array(TestCallToolSchema)
      .max(64)
      .refine((tools) => new Set(tools.map((tool) => tool.name)).size === tools.length, { message: 'Each tool name may appear once' })
      .default([]),
  })
  .strict()

/** What the panel sends during a call. */
export const TestCallClientFrameSchema = z.discriminatedUnion('type', [
  /** Microphone audio. */
  z.object({ type: z.literal('audio'), pcm16: Pcm16Schema }).strict(),
  /** A typed caller turn: the same dialogue as recognised speech. */
  z.object({ type: z.literal('text'), content: z.string().trim().min(1).max(4_000) }).strict(),
  /** Playback reached a `mark` the service sent (what the caller has heard so far). */
  z.object({ type: z.literal('played'), mark: z.string().max(200) }).strict(),
  /** The answer to a `tool-call` (the stub the operator set for that tool). */
  z.object({ type: z.literal('tool-response'), id: z.string().max(200), response: z.unknown() }).strict(),
  /** The operator ends the call (closing the stream does too). */
  z.object({ type: z.literal('hang-up') }).strict(),
])
export type TestCallClientFrame = z.infer<typeof TestCallClientFrameSchema>

export const AgentActivitySchema = z.enum(['listening', 'thinking', 'speaking'])
export type AgentActivity = z.infer<typeof AgentActivitySchema>

/** What the service sends during a call. Every stream's server frames include `refused`. */
export const TestCallServerFrameSchema = z.discriminatedUnion('type', [
  /** The call is live: its conversation job and what it runs on. */
  z
    .object({
      type: z.literal('started'),
      jobId: UuidSchema,
      agentName: z.string(),
      dialogueEngine: z.string(),
      speechRecognition: z.object({ enabled: z.boolean(), engine: z.string().nullable(), model: z.string().nullable() }),
      /** The agent's outcomeResponseShape (null when it has none): the fields the panel shows filling in. */
      outcomeShape: z.unknown(),
    })
    .strict(),
  /** What the agent is doing now. */
  z.object({ type: z.literal('activity'), activity: AgentActivitySchema }).strict(),
  /** The agent's voice: play in order, as it comes. */
  z.object({ type: z.literal('audio'), pcm16: Pcm16Schema }).strict(),
  /** Answer with `played` once the audio before it has been played. */
  z.object({ type: z.literal('mark'), name: z.string() }).strict(),
  /** Stop playing now and drop what is queued (the caller spoke over the agent). */
  z.object({ type: z.literal('clear') }).strict(),
  /** A sentence the agent is saying (ahead of its written turn). */
  z.object({ type: z.literal('agent-text'), content: z.string() }).strict(),
  /** A finished turn, as written to the conversation (times in seconds from the call's start). */
  z.object({ type: z.literal('turn'), turn: TranscriptTurnSchema }).strict(),
  /** The caller spoke over the agent (the agent's turn will be marked interrupted). */
  z.object({ type: z.literal('barge-in'), at: z.number() }).strict(),
  /** A poke: the agent spoke after the caller's silence. */
  z.object({ type: z.literal('poke'), at: z.number(), content: z.string() }).strict(),
  /** The agent calls a tool: answer with `tool-response`. */
  z
    .object({
      type: z.literal('tool-call'),
      id: z.string(),
      name: z.string(),
      arguments: z.record(z.string(), z.unknown()),
      at: z.number(),
    })
    .strict(),
  /** A tool call finished (answered, or timed out). */
  z.object({ type: z.literal('tool-result'), call: ToolCallRecordSchema }).strict(),
  /**
   * The outcome as far as it is known. While the call runs the offline engine reports each field
   * it has filled (`final` false); the outcome extracted at the end comes with `final` true.
   */
  z.object({ type: z.literal('outcome'), result: z.unknown(), complete: z.boolean().nullable(), final: z.boolean() }).strict(),
  /** For people: a notice (recognition off, a turn not recognised, …). */
  z.object({ type: z.literal('info'), code: z.string(), message: z.string() }).strict(),
  /** The call ended and was written; the stream closes after this frame. */
  z
    .object({
      type: z.literal('ended'),
      jobId: UuidSchema,
      status: z.enum(['COMPLETED', 'FAILED']),
      endReason: EndReasonSchema,
      duration: z.number(),
      error: JobErrorSchema.optional(),
    })
    .strict(),
  /** The stream could not open (bad input, no such agent) or was refused: then it closes. */
  z.object({ type: z.literal('refused'), error: IpcErrorSchema }).strict(),
])
export type TestCallServerFrame = z.infer<typeof TestCallServerFrameSchema>

export const IPC_STREAMS = {
  /** A test call with an agent from the operator UI: microphone audio and typed turns in, voice and live state out. */
  'calls.test': stream(TestCallInputSchema, TestCallClientFrameSchema, TestCallServerFrameSchema),
} as const

export type IpcStreams = typeof IPC_STREAMS
const namesMatch: SameNames<keyof IpcStreams, IpcStreamName> = true
void namesMatch

export type IpcStreamInput<N extends IpcStreamName> = z.input<IpcStreams[N]['input']>
export type IpcStreamParsedInput<N extends IpcStreamName> = z.output<IpcStreams[N]['input']>
export type IpcStreamClientFrame<N extends IpcStreamName> = z.input<IpcStreams[N]['client']>
export type IpcStreamServerFrame<N extends IpcStreamName> = z.output<IpcStreams[N]['server']>

/** Why a stream closed, as its opener sees it. */
export type IpcStreamClose =
  /** Closed by either end after it ran (a call that ended, the panel's close). */
  | { kind: 'closed' }
  /** It never ran, or the carrier broke (the service went away): `error` says why. */
  | { kind: 'failed'; error: IpcError }

/** An open stream, as the renderer holds it. Frames are validated by the service, whichever carrier brought them. */
export interface IpcStreamHandle<N extends IpcStreamName> {
  send(frame: IpcStreamClientFrame<N>): void
  /** Closes from this end; the service ends what the stream ran (a call ends as the caller's hang-up). */
  close(): void
  onFrame(listener: (frame: IpcStreamServerFrame<N>) => void): () => void
  /** Called once, when the stream closed from either end. */
  onClose(listener: (close: IpcStreamClose) => void): () => void
}

/** Opens streams; part of the bridge (`window.voicedesk.openStream`). */
export type OpenIpcStream = <N extends IpcStreamName>(name: N, input: IpcStreamInput<N>) => IpcStreamHandle<N>

/** The WebSocket carrier of browser mode: `?token=<ui token>`; the first text message is the input, then frames (JSON), each way. */
export const BROWSER_STREAMS = {
  path: (name: IpcStreamName) => `/ipc/streams/${name}`,
} as const
