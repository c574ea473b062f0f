import { z } from 'zod'

/*
 * The frames of a live call over `/stream/{jobId}`, exactly as the cloud API's web SDK 0.3.1
 * sends and reads them (`../shared/design/clients.md`): JSON text frames, each with `event`.
 * Client frames are read leniently (the SDK adds `streamSid`; unknown events are ignored), so a
 * newer SDK that adds fields keeps working.
 */

export const StartFrameSchema = z.object({ event: z.literal('start') })
/** Microphone audio: base64 Float32 LE, 16 kHz mono, 128 samples a frame. */
export const MediaFrameSchema = z.object({ event: z.literal('media'), media: z.object({ payload: z.string().max(64 * 1024) }) })
/** Playback reached a mark the service sent. */
export const MarkFrameSchema = z.object({ event: z.literal('mark'), mark: z.object({ name: z.string().max(200) }) })
export const ToolsResponseFrameSchema = z.object({
  event: z.literal('tools_response'),
  tools_response: z
    .array(z.object({ id: z.string().max(200), function: z.object({ name: z.string().max(200).optional(), response: z.unknown() }) }))
    .max(64),
})
export const StopFrameSchema = z.object({ event: z.literal('stop') })
/**
 * VoiceDesk's own addition: a caller turn typed instead of spoken (demos in a noisy room, tests,
 * clients without a microphone). It goes through the same dialogue as recognised speech.
 */
export const TextFrameSchema = z.object({ event: z.literal('text'), content: z.string().min(1).max(4_000) })

export const ClientFrameSchema = z.discriminatedUnion('event', [
  StartFrameSchema,
  MediaFrameSchema,
  MarkFrameSchema,
  ToolsResponseFrameSchema,
  StopFrameSchema,
  TextFrameSchema,
])
export type ClientFrame = z.infer<typeof ClientFrameSchema>

/** A tool call as the `tools` frame carries it: `arguments` is JSON with keys in the declared order (the SDK passes them positionally). */
export const ToolCallFrameEntrySchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({
    name: z.string(),
    arguments: z.string().meta({ description: 'The arguments as JSON text, keys in the declared order.' }),
  }),
})
export type ToolCallFrameEntry = z.infer<typeof ToolCallFrameEntrySchema>

/*
 * What the service sends. Typed by these schemas (they also write the AsyncAPI document,
 * GET /v1/asyncapi.json); the service builds its frames, it never parses them.
 */
/** The agent's voice: base64 PCM16 LE, 16 kHz mono. */
export const ServerMediaFrameSchema = z.object({ event: z.literal('media'), media: z.object({ payload: z.string() }) })
/** Stop playing and drop what is queued (the caller spoke over the agent). */
export const ServerClearFrameSchema = z.object({ event: z.literal('clear') })
/** Answer with a client `mark` once the audio before it has been played. */
export const ServerMarkFrameSchema = z.object({ event: z.literal('mark'), mark: z.object({ name: z.string() }) })
/** What the caller said, as recognised. */
export const ServerTranscriptionFrameSchema = z.object({ event: z.literal('transcription'), content: z.string() })
/** What the agent says. */
export const ServerAnswerFrameSchema = z.object({ event: z.literal('answer'), content: z.string() })
/** The agent calls the client's tools: answer with `tools_response`. */
export const ServerToolsFrameSchema = z.object({ event: z.literal('tools'), content: z.array(ToolCallFrameEntrySchema) })
/** For people: `code` and `message`, and more fields by kind (a refusal is an `info` frame, then a clean close). */
export const ServerInfoFrameSchema = z.looseObject({ event: z.literal('info'), code: z.string(), message: z.string() })

export const ServerFrameSchema = z.discriminatedUnion('event', [
  ServerMediaFrameSchema,
  ServerClearFrameSchema,
  ServerMarkFrameSchema,
  ServerTranscriptionFrameSchema,
  ServerAnswerFrameSchema,
  ServerToolsFrameSchema,
  ServerInfoFrameSchema,
])
export type ServerFrame = z.infer<typeof ServerFrameSchema>
