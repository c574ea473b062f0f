import { z } from 'zod'
import { TranscriptionResponseSchema } from './jobs'
import { envelopeOf } from './common'
import { VOICES } from '../voices'

/*
 * Realtime speech: text in, audio out at once, with no job to poll (POST /v1/realtime/tts,
 * /v1/realtime/tts-stream and the WebSocket /v1/realtime/ws). The field names are this API's
 * (`voiceId`, as on TTS jobs) and the cloud's realtime reference's (`speaker`, `dialect`,
 * `mulaw`, `languageId`), plus `voice` and `voice_id`; docs/api.md says where each comes from.
 */

/** The longest text one request may speak: the TTS job's limit (about 5 minutes of speech). */
export const REALTIME_TTS_TEXT_MAX = 5_000

/** What the audio is: a WAV file (16-bit mono at the engine's 22,050 Hz), or raw 16-bit little-endian PCM at 16 kHz. */
export const REALTIME_AUDIO_FORMATS = ['wav', 'pcm'] as const
export type RealtimeAudioFormat = (typeof REALTIME_AUDIO_FORMATS)[number]
export const REALTIME_PCM_SAMPLE_RATE = 16_000

/** The fields that may name the voice, in the order they are read. */
export const VOICE_FIELDS = ['voiceId', 'voice', 'voice_id', 'speaker'] as const

const voiceRef = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .meta({ description: `A voice id or name from GET /v1/voices (${VOICES.map((voice) => voice.name).join(', ')}), in any case.` })

export const RealtimeTtsBodySchema = z
  .object({
    text: z
      .string()
      .max(
        REALTIME_TTS_TEXT_MAX,
        `At most ${REALTIME_TTS_TEXT_MAX.toLocaleString('en')} characters: split a longer text into several requests`,
      )
      .regex(/\S/, 'Must not be empty or only spaces'),
    voiceId: voiceRef.optional(),
    voice: voiceRef.optional().meta({ description: 'Same as voiceId.' }),
    voice_id: voiceRef.optional().meta({ description: 'Same as voiceId.' }),
    speaker: voiceRef.optional().meta({ description: "Same as voiceId (the cloud's realtime name for it)." }),
    voiceAgentId: z.uuid().optional().meta({
      description: "Speak as this agent's voice does: the voice dictionaries active for it apply (see Voice dictionaries).",
    }),
    format: z.enum(REALTIME_AUDIO_FORMATS).optional().meta({
      description:
        'wav (16-bit mono, 22,050 Hz) or pcm (raw 16-bit little-endian mono, 16 kHz). Absent: the Accept header decides (audio/pcm), else wav over HTTP and pcm over the WebSocket.',
    }),
    mulaw: z
      .boolean()
      .optional()
      .meta({ description: 'Accepted for cloud clients: false only (μ-law audio is not made here; ask format pcm).' }),
    dialect: z
      .string()
      .max(20)
      .optional()
      .meta({ description: 'Accepted for cloud clients and not used: the voice decides the language and accent.' }),
    languageId: z
      .string()
      .max(20)
      .optional()
      .meta({ description: 'Accepted for cloud clients and not used: the voice decides the language.' }),
  })
  .strict()
  .superRefine((body, context) => {
    const given = VOICE_FIELDS.filter((field) => body[field] !== undefined)
    if (given.length === 0)
      context.addIssue({ code: 'custom', path: ['voiceId'], message: 'Required: the voice, as voiceId (or voice, voice_id, speaker)' })
    const [first, second] = given
    if (second !== undefined && new Set(given.map((field) => body[field]?.toLowerCase())).size > 1) {
      context.addIssue({ code: 'custom', path: [second], message: `Names another voice than ${first}: give the voice once` })
    }
    if (body.mulaw === true)
      context.addIssue({
        code: 'custom',
        path: ['mulaw'],
        message: 'μ-law audio is not served: leave mulaw out or false, and ask format "pcm" for 16 kHz PCM',
      })
  })
  .meta({ id: 'RealtimeTtsBody' })
export type RealtimeTtsBody = z.infer<typeof RealtimeTtsBodySchema>

/*
 * The WebSocket /v1/realtime/ws, as the cloud's realtime reference shapes it: JSON text frames
 * `{ type, payload }`; the audio comes as binary frames between `ack` and `end`.
 */

/** A request to speak: served one at a time, in the order they came. */
export const RealtimeWsTtsFrameSchema = z.object({ type: z.literal('tts'), payload: RealtimeTtsBodySchema }).strict()
export const RealtimeWsClientFrameSchema = z.discriminatedUnion('type', [RealtimeWsTtsFrameSchema])

/** The request was accepted: binary audio frames follow, in this format. */
export const RealtimeWsAckFrameSchema = z.object({
  type: z.literal('ack'),
  payload: z.object({ message: z.string(), format: z.enum(REALTIME_AUDIO_FORMATS), sampleRate: z.number().int(), voiceId: z.string() }),
})
/** The audio of the request is complete. */
export const RealtimeWsEndFrameSchema = z.object({
  type: z.literal('end'),
  payload: z.object({
    message: z.string(),
    /** Seconds of speech sent. */
    durationSeconds: z.number(),
    /** Audio bytes sent (binary frames). */
    bytes: z.number().int(),
    /** The TTS job that records the usage and cost of this request. */
    jobId: z.string(),
  }),
})
/** A request (or frame) refused, or a synthesis that failed: the socket stays open for the next request, except after UNAUTHORIZED. */
export const RealtimeWsErrorFrameSchema = z.object({
  type: z.literal('error'),
  payload: z.object({ code: z.string(), message: z.string(), details: z.array(z.object({ path: z.string(), message: z.string() })) }),
})
export const RealtimeWsServerFrameSchema = z.discriminatedUnion('type', [
  RealtimeWsAckFrameSchema,
  RealtimeWsEndFrameSchema,
  RealtimeWsErrorFrameSchema,
])
export type RealtimeWsServerFrame = z.infer<typeof RealtimeWsServerFrameSchema>

/** `POST /v1/realtime/stt`: a short file, answered at once (longer ones are transcription jobs). */
export const REALTIME_STT_MAX_BYTES = 25 * 1024 * 1024
export const REALTIME_STT_MAX_SECONDS = 600

/** The text parts beside the `file` part of `POST /v1/realtime/stt`. */
export const RealtimeSttFieldsSchema = z
  .object({
    language: z
      .string()
      .regex(/^[a-z]{2}$/, 'Must be a two-letter ISO 639-1 code such as ar or en')
      .optional()
      .meta({ description: 'The spoken language (ISO 639-1). Left out, the server detects it.' }),
    model: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "The cloud's model name; kept for compatibility, the configured speech server's model is used." }),
  })
  .strict()

/** `POST /v1/realtime/stt` with JSON (the cloud's form): the audio as base64, at most this many bytes of body. */
export const REALTIME_STT_JSON_MAX_BYTES = 12 * 1024 * 1024

/** Standard or URL-safe base64, padded or not, with no spaces. */
const BASE64_PATTERN = /^[A-Za-z0-9+/_-]*={0,2}$/

export const RealtimeSttJsonBodySchema = z
  .object({
    audioBase64: z
      .string()
      .min(1)
      .regex(BASE64_PATTERN, 'Must be base64 (A-Z, a-z, 0-9, + and /, or - and _, then = padding), with no spaces or data: prefix')
      .meta({ description: 'The audio file (WAV, MP3, OGG, WebM, MP4…), base64-encoded.' }),
    language: RealtimeSttFieldsSchema.shape.language,
    model: RealtimeSttFieldsSchema.shape.model,
    isEosEnabled: z.boolean().optional().meta({ description: 'Accepted for cloud clients and not used: the whole audio is transcribed.' }),
    eosThreshold: z.number().min(0).max(1).optional().meta({ description: 'Accepted for cloud clients and not used.' }),
  })
  .strict()
export type RealtimeSttJsonBody = z.infer<typeof RealtimeSttJsonBodySchema>

export const RealtimeSttEnvelopeSchema = envelopeOf(TranscriptionResponseSchema).extend({
  text: z.string().meta({ description: "The transcript's text again, where the cloud's realtime STT answers it (`data.text`)." }),
})
