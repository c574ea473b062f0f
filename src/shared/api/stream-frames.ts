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
  tools_response: z.array(z.object({ id: z.string().max(200), function: z.object({ name: z.string().max(200).optional(), response: z.unknown() }) })).max(64),
})
export const StopFrameSchema = z.object({ event: z.literal('stop') })
/**
 * VoiceDesk's own addition: a caller turn typed instead of spoken (demos in a noisy room, tests,
 * clients without a microphone). It goes through the same dialogue as recognised speech.
 */
export const TextFrameSchema = z.object({ event: z.literal('text'), content: z.string().min(1).max(4_000) })

export const ClientFrameSchema = z.discriminatedUnion('event', [StartFrameSchema, MediaFrameSchema, MarkFrameSchema, ToolsResponseFrameSchema, StopFrameSchema, TextFrameSchema])
export type ClientFrame = z.infer<typeof ClientFrameSchema>

/** A tool call as the `tools` frame carries it: `arguments` is JSON with keys in the declared order (the SDK passes them positionally). */
export interface ToolCallFrameEntry {
  id: string
  type: 'function'
  function: { name: string; arguments: string }
}

/** What the service sends. `info` carries `code` and `message` for people, and more fields by kind. */
export type ServerFrame =
  | { event: 'media'; media: { payload: string } }
  | { event: 'clear' }
  | { event: 'mark'; mark: { name: string } }
  | { event: 'transcription'; content: string }
  | { event: 'answer'; content: string }
  | { event: 'tools'; content: ToolCallFrameEntry[] }
  | { event: 'info'; code: string; message: string; [key: string]: unknown }
