import { z } from 'zod'
import { VOICE_IDS } from '../voices'
import {
  HttpUrlSchema,
  NUL_MESSAGE,
  OFFSET_SKIP_MAX,
  TimestampSchema,
  UuidSchema,
  envelopeOf,
  headerValueText,
  nonBlankText,
} from './common'
import { holdsNul } from '../text/control-characters'
import { AI_PARTS, AiPartSchema } from './ai-parts'
import { JobErrorCodeSchema } from './job-error-codes'
import { WEBHOOK_AUTH_LIMITS } from './voice-agents'

/** CONVERSATION: a live call with a voice agent (conversation-init, then the /stream socket). */
export const JOB_TYPES = ['TRANSCRIPTION', 'TRANSLATION', 'TTS', 'AI_CONTENT', 'CONVERSATION'] as const
export const JobTypeSchema = z.enum(JOB_TYPES)
export type JobType = z.infer<typeof JobTypeSchema>

/** IN_PROGRESS only for conversations: from the socket's start to the call's end. */
export const JOB_STATUSES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const
export const JobStatusSchema = z.enum(JOB_STATUSES)
export type JobStatus = z.infer<typeof JobStatusSchema>

/** Job types whose result is text an AI-content job can start from. */
export const TEXT_JOB_TYPES: readonly JobType[] = ['TRANSCRIPTION', 'TRANSLATION', 'TTS']

export const TTS_TEXT_MAX = 5_000

/**
 * A job's webhookAuth. Unlike an agent's, either part may be left out: the cloud API's clients
 * send each part optional (Pipedream). The header then carries what was given
 * (`<authKey>`, `<authSecret>`, or both joined by a space); `{}` sends none.
 */
export const JobWebhookAuthSchema = z
  .object({
    authKey: headerValueText(WEBHOOK_AUTH_LIMITS.authKey).optional(),
    authSecret: headerValueText(WEBHOOK_AUTH_LIMITS.authSecret).optional(),
  })
  .strict()
  .meta({
    description:
      'Sent to the webhook as `Authorization: <authKey> <authSecret>`; with one part only, the header is that part; `{}` sends no header.',
  })
export type JobWebhookAuth = z.infer<typeof JobWebhookAuthSchema>

export const TextToSpeechBodySchema = z
  .object({
    voiceId: z.enum(VOICE_IDS, { message: 'Must be one of the 14 voice ids listed by GET /v1/voices' }),
    text: nonBlankText(TTS_TEXT_MAX),
    webhookUrl: HttpUrlSchema.optional(),
    webhookAuth: JobWebhookAuthSchema.optional(),
    voiceAgentId: UuidSchema.optional().meta({
      description: "Speak as this agent's voice does: the voice dictionaries active for it when the job runs apply.",
    }),
  })
  .strict()
  .meta({ id: 'TextToSpeechBody' })
export type TextToSpeechBody = z.infer<typeof TextToSpeechBodySchema>

/** Transcription: what a job is asked for, in JSON or as the text parts of an upload. */
const transcriptionFields = {
  model: z.string().min(1).max(100).regex(/\S/, 'Must not be empty or only spaces').meta({
    description:
      "The cloud's model name (e.g. a general or a conversational model), kept and shown back; the audio goes to the speech recognition server VoiceDesk is set to use.",
  }),
  processingType: z
    .string()
    .regex(
      /^[Aa][Ss][Yy][Nn][Cc]$/,
      'VoiceDesk runs transcription jobs asynchronously: send "async" (POST /v1/realtime/stt transcribes a short file at once)',
    )
    .meta({ description: '`async` (any case): the job is queued, and its webhook tells when it ended.' }),
  language: z
    .string()
    .regex(/^[a-z]{2}$/, 'Must be a two-letter ISO 639-1 code such as ar or en')
    .optional()
    .meta({ description: 'The spoken language (ISO 639-1: ar, en, ...). Left out, the server detects it.' }),
  title: nonBlankText(200).optional(),
  webhookUrl: HttpUrlSchema.optional(),
}

/** How `returnSrtFormat` lays out its subtitles (every field optional: the defaults are the cloud reference's). */
export const SrtOptionsSchema = z
  .object({
    maxLinesPerSubtitle: z.number().int().min(1).max(5).optional().meta({ description: 'Lines per cue, 1 to 5 (default 2).' }),
    singleSpeakerPerSubtitle: z
      .boolean()
      .optional()
      .meta({ description: 'Accepted (default true); segments carry no speaker here, so it never splits a cue.' }),
    maxCharsPerLine: z.number().int().min(10).max(200).optional().meta({ description: 'Characters per line, 10 to 200 (default 42).' }),
    maxMergeableGap: z
      .number()
      .min(0)
      .max(10)
      .optional()
      .meta({ description: 'Seconds: segments with a shorter pause between them may share a cue (default 0.3).' }),
    minDuration: z.number().min(0).max(30).optional().meta({ description: 'Shortest cue, in seconds (default 0.7).' }),
    maxDuration: z.number().min(0.5).max(60).optional().meta({ description: 'Longest cue, in seconds (default 7).' }),
    minGap: z.number().min(0).max(2).optional().meta({ description: 'Seconds kept between cues (default 0.04).' }),
  })
  .strict()
  .refine((options) => (options.minDuration ?? 0.7) <= (options.maxDuration ?? 7), {
    message: 'minDuration must not be longer than maxDuration',
    path: ['minDuration'],
  })
export type SrtOptions = z.infer<typeof SrtOptionsSchema>

const srtFields = {
  returnSrtFormat: z
    .boolean()
    .optional()
    .meta({ description: 'true: the finished job also holds its subtitles as SubRip text, in `jobResponse.srt`.' }),
  srtOptions: SrtOptionsSchema.optional().meta({
    description:
      'The subtitle layout. Checked whenever sent, used only with returnSrtFormat true (the reference shows it beside false too).',
  }),
}

/** A multipart text part holding JSON (`{"authKey": ...}`), parsed, then checked by `schema`. */
function jsonText<T extends z.ZodType>(schema: T, example: string) {
  return z
    .string()
    .max(2_000)
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown
      } catch {
        context.addIssue({ code: 'custom', message: `Must be JSON: ${example}` })
        return z.NEVER
      }
    })
    .pipe(schema)
}

export const TranscribeBodySchema = z
  .object({
    mediaUrl: HttpUrlSchema.meta({
      description: "The audio or video to transcribe: an http(s) URL (fetched when the job runs) or this service's own `/media/...` URL.",
    }),
    ...transcriptionFields,
    webhookAuth: JobWebhookAuthSchema.optional(),
    ...srtFields,
  })
  .strict()
  .meta({ id: 'TranscribeBody' })
export type TranscribeBody = z.infer<typeof TranscribeBodySchema>

/**
 * The text parts of a `multipart/form-data` upload (beside its `file` part): the same fields,
 * as text; `webhookAuth` as JSON text (`{"authKey": "...", "authSecret": "..."}`).
 */
export const TranscribeUploadFieldsSchema = z
  .object({
    ...transcriptionFields,
    webhookAuth: jsonText(JobWebhookAuthSchema, '{"authKey": "...", "authSecret": "..."}').optional(),
    returnSrtFormat: z
      .stringbool({ truthy: ['true'], falsy: ['false'] })
      .optional()
      .meta({ description: 'true or false.' }),
    srtOptions: jsonText(SrtOptionsSchema, '{"maxCharsPerLine": 42, ...}').optional(),
  })
  .strict()
export type TranscribeUploadFields = z.infer<typeof TranscribeUploadFieldsSchema>

/** The model an operator UI transcription is made with when none is chosen (kept and shown back, as on /v1). */
export const OPERATOR_TRANSCRIPTION_MODEL = 'General-V2.0'

/**
 * The operator UI's transcription fields (jobs.transcriptionUploadLink, jobs.createTranscription):
 * /v1's, with `model` and `processingType` optional (the UI has no choice to make there).
 */
export const TranscriptionLinkFieldsSchema = z
  .object({
    title: transcriptionFields.title,
    language: transcriptionFields.language,
    model: transcriptionFields.model.default(OPERATOR_TRANSCRIPTION_MODEL),
    processingType: transcriptionFields.processingType.default('async'),
  })
  .strict()
export type TranscriptionLinkFields = z.infer<typeof TranscriptionLinkFieldsSchema>

/** A COMPLETED transcription's (and a translation's) segments: times in seconds from the start of the media. */
export const TranscriptSegmentSchema = z.object({ start: z.number(), end: z.number(), text: z.string() }).meta({ id: 'TranscriptSegment' })

export const TranscriptionResponseSchema = z
  .object({
    text: z.string(),
    language: z.string().nullable(),
    durationSeconds: z.number(),
    segments: z.array(TranscriptSegmentSchema),
    srt: z.string().optional().meta({ description: 'The subtitles as SubRip text, when the job was asked for them (returnSrtFormat).' }),
    srtOptions: SrtOptionsSchema.optional().meta({
      description: 'The layout the subtitles were made with (every option, defaults filled in).',
    }),
  })
  .meta({ id: 'TranscriptionResponse' })
export type TranscriptionResponse = z.infer<typeof TranscriptionResponseSchema>

export const SubtitlesQuerySchema = z.object({
  jobId: z.string().min(1),
  format: z.enum(['srt', 'vtt']).default('srt').meta({ description: 'SubRip (`srt`, the default) or WebVTT (`vtt`).' }),
})

export const AiContentBodySchema = z
  .object({
    aiParts: z
      .array(AiPartSchema)
      .min(1)
      .max(AI_PARTS.length)
      .refine((parts) => new Set(parts).size === parts.length, { message: 'Each part may be asked for once' })
      .meta({ uniqueItems: true }),
  })
  .strict()
  .meta({ id: 'AiContentBody' })
export type AiContentBody = z.infer<typeof AiContentBodySchema>

export const JobIdQuerySchema = z.object({ jobId: z.string().min(1) })

/** The most custom parts one request asks for, and the longest name and instruction. */
export const CUSTOM_PARTS_MAX = 12
export const CUSTOM_PART_NAME_MAX = 100
export const CUSTOM_PROMPT_MAX = 2_000

export const CustomAiPartSchema = z
  .object({
    aiPart: z
      .string()
      .trim()
      .min(1)
      .max(CUSTOM_PART_NAME_MAX)
      .refine((value) => !holdsNul(value), { message: NUL_MESSAGE })
      .meta({
        description: 'The name of the part, as the result names it.',
      }),
    language: z.enum(['ar', 'en']).optional().meta({ description: "The part's language; the source's when left out." }),
    prompt: nonBlankText(CUSTOM_PROMPT_MAX).meta({ description: 'What to write, in your words.' }),
  })
  .strict()
  .meta({ id: 'CustomAiPart' })
export type CustomAiPart = z.infer<typeof CustomAiPartSchema>

export const CustomAiContentBodySchema = z
  .object({
    aiParts: z
      .array(CustomAiPartSchema)
      .min(1)
      .max(CUSTOM_PARTS_MAX)
      .superRefine((parts, context) => {
        const seen = new Set<string>()
        parts.forEach((part, index) => {
          const key = part.aiPart.toLowerCase()
          if (seen.has(key)) context.addIssue({ code: 'custom', path: [index, 'aiPart'], message: 'Each part name may be used once' })
          seen.add(key)
        })
      }),
    webhookUrl: HttpUrlSchema.nullable().optional(),
    webhookAuth: JobWebhookAuthSchema.optional(),
  })
  .strict()
  .meta({ id: 'CustomAiContentBody' })
export type CustomAiContentBody = z.infer<typeof CustomAiContentBodySchema>

/** An estimate is asked with either body: the built-in parts' or the custom parts'. */
export const AiContentEstimateBodySchema = z
  .object({
    aiParts: z.union([AiContentBodySchema.shape.aiParts, CustomAiContentBodySchema.shape.aiParts]),
  })
  .strict()
  .meta({ id: 'AiContentEstimateBody' })
export type AiContentEstimateBody = z.infer<typeof AiContentEstimateBodySchema>

export const AiContentEstimateSchema = z
  .object({
    jobId: z.string().meta({ description: 'The source job.' }),
    parts: z.number().int().meta({ description: 'How many parts the job would write.' }),
    pricePerPart: z.number(),
    estimatedCost: z.number().meta({ description: 'The credits the job will charge: its totalCost.' }),
    currency: z.literal('credits'),
  })
  .meta({ id: 'AiContentEstimate' })
export type AiContentEstimate = z.infer<typeof AiContentEstimateSchema>
export const AiContentEstimateEnvelopeSchema = envelopeOf(AiContentEstimateSchema)

/** What was written for one custom part, and how (docs/api.md, "POST /v1/jobs/ai-content/custom"). */
export const CustomPartResultSchema = z
  .object({
    aiPart: z.string(),
    language: z.enum(['ar', 'en']),
    prompt: z.string(),
    content: z.string(),
    engine: z.string().meta({ description: '`offline`, or the chat model that wrote it.' }),
    basedOn: z.enum(AI_PARTS).nullable().meta({ description: 'Offline: the built-in part it was written as; null when a model wrote it.' }),
    honoured: z.array(z.string()).meta({ description: 'What of the instruction was done.' }),
    notHonoured: z.array(z.string()).meta({ description: 'What of the instruction was not, and why.' }),
  })
  .meta({ id: 'CustomPartResult' })
export type CustomPartResult = z.infer<typeof CustomPartResultSchema>

export const SORT_FIELDS = ['createdAt', 'updatedAt', 'title', 'status', 'type', 'cost'] as const

export const LIST_JOBS_DEFAULT_TAKE = 10

/**
 * `take` and `skip` may come in the query too (Pipedream sends them there, with no body).
 * A query `skip` is an offset (0, 100, 200, ...); a body `skip` is the contract's 1-based page.
 * Each given in the body wins over the query's.
 */
export const ListJobsQuerySchema = z.object({
  projectId: z.string().min(1),
  take: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'Page size, 1 to 100 (default 10). A `take` in the body wins.' }),
  skip: z.coerce
    .number()
    .int()
    .min(0)
    .max(OFFSET_SKIP_MAX)
    .optional()
    .meta({ description: 'An offset: how many jobs to pass over (0, 100, 200, ...). A `skip` in the body (a 1-based page) wins.' }),
})
export type ListJobsQuery = z.infer<typeof ListJobsQuerySchema>

export const ListJobsBodySchema = z
  .object({
    sort: z
      .object({
        field: z.enum(SORT_FIELDS).default('createdAt'),
        // asc or desc in any case, as a pattern the OpenAPI document can state (a JSON Schema regex has no i flag).
        direction: z
          .string()
          .regex(/^(?:[Aa][Ss][Cc]|[Dd][Ee][Ss][Cc])$/, 'Must be asc or desc (in any case)')
          .transform((value) => value.toLowerCase() as 'asc' | 'desc')
          .default('desc'),
      })
      .strict()
      .optional(),
    // No defaults here: the query's take/skip apply when the body leaves them out (see ListJobsQuerySchema).
    take: z.number().int().min(1).max(100).optional().meta({ description: 'Page size, default 10.' }),
    skip: z.number().int().min(1).optional().meta({ description: 'The 1-based page, default 1: the offset is (skip - 1) × take.' }),
    search: z.string().max(200).optional(),
    status: JobStatusSchema.optional(),
    type: JobTypeSchema.optional(),
  })
  .strict()
  .meta({ id: 'ListJobsBody' })
  // The whole body is optional: no body lists the first page, newest first.
  .nullish()
export type ListJobsBody = z.infer<typeof ListJobsBodySchema>

export const JobErrorSchema = z.object({ code: JobErrorCodeSchema, message: z.string() })

export const AiContentResponseSchema = z
  .object(
    Object.fromEntries(AI_PARTS.map((part) => [part, z.string().optional()])) as Record<
      (typeof AI_PARTS)[number],
      z.ZodOptional<z.ZodString>
    >,
  )
  .extend({ transcriptionJobId: z.string(), customParts: z.array(CustomPartResultSchema).optional() })

/** The general job, as `GET /v1/jobs` shows it. */
export const JobSchema = z
  .object({
    id: UuidSchema,
    title: z.string(),
    model: z.string(),
    type: JobTypeSchema,
    processingType: z.string(),
    webhookUrl: z.string().nullable(),
    totalCost: z.number(),
    usageTime: z.string().nullable(),
    fromLng: z.string().nullable(),
    toLng: z.string().nullable(),
    fromScript: z.string().nullable(),
    toScript: z.string().nullable(),
    mediaUrl: z.string().nullable(),
    jobResponse: z.record(z.string(), z.unknown()).nullable(),
    status: JobStatusSchema,
    error: JobErrorSchema.optional(),
    relevantJobId: z.string().nullable(),
    agentDetails: z.string().nullable(),
    apiKeyId: UuidSchema,
    billingId: z.string().nullable(),
    userId: UuidSchema,
    systemModelKey: z.string(),
    voiceAgentId: z.string().nullable(),
    progress: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .meta({ description: 'While a long job (a transcription, a translation) runs: how much of it is done, 0 to 1.' }),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'Job' })
export type Job = z.infer<typeof JobSchema>

export const TtsJobSchema = z
  .object({
    id: UuidSchema,
    title: z.string(),
    type: z.literal('TTS'),
    mediaUrl: z.string(),
    webhookUrl: z.string().nullable(),
    model: z.string(),
    status: JobStatusSchema,
    error: JobErrorSchema.optional(),
    totalCost: z.number(),
    apiKeyId: UuidSchema,
    userId: UuidSchema,
    ttsVoiceId: UuidSchema,
    jobResponse: z.object({ text: z.string(), ttsMediaFile: z.string() }),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'TtsJob' })
export type TtsJob = z.infer<typeof TtsJobSchema>

export const AiContentJobSchema = z
  .object({
    id: UuidSchema,
    title: z.string(),
    model: z.string(),
    type: z.literal('AI_CONTENT'),
    processingType: z.string(),
    webhookUrl: z.string().nullable(),
    totalCost: z.number(),
    usageTime: z.string().nullable(),
    mediaUrl: z.string().nullable(),
    jobResponse: AiContentResponseSchema.nullable(),
    status: JobStatusSchema,
    error: JobErrorSchema.optional(),
    relevantJobId: z.string(),
    apiKeyId: UuidSchema,
    billingId: z.string().nullable(),
    userId: UuidSchema,
    systemModelKey: z.string(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'AiContentJob' })
export type AiContentJob = z.infer<typeof AiContentJobSchema>

export const JobListItemSchema = z
  .object({
    id: UuidSchema,
    title: z.string(),
    type: JobTypeSchema,
    url: z.string().nullable(),
    status: JobStatusSchema,
    cost: z.number(),
    systemModelKey: z.string(),
    relevantJobId: z.string().nullable(),
    attributes: z.object({
      apiKey: z.string(),
      mediaUrl: z.string().nullable(),
      model: z.string(),
      agentName: z.string().nullable(),
      duration: z.number().nullable(),
      voice: z.string().nullable(),
      aiContentParts: z.array(z.string()),
      sourceJob: z.string().nullable(),
    }),
    apiKey: z.string(),
    createdBy: z.string(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'JobListItem' })
export type JobListItem = z.infer<typeof JobListItemSchema>

export const TtsJobEnvelopeSchema = envelopeOf(TtsJobSchema)
/** A job just queued by `POST /v1/jobs/transcribe` (and translate), in the general job's shape. */
export const JobEnvelopeSchema = envelopeOf(JobSchema)
/** `POST /v1/jobs/transcribe`: the whole job (VoiceDesk's answer) and `jobId` (the cloud reference's). */
export const TranscribeEnvelopeSchema = envelopeOf(
  JobSchema.extend({ jobId: UuidSchema.meta({ description: "The job's id again, where the cloud reference answers `{ jobId }`." }) }),
)
export const AiContentJobEnvelopeSchema = envelopeOf(AiContentJobSchema)
export const JobListEnvelopeSchema = envelopeOf(
  z.object({ jobs: z.array(JobListItemSchema), total: z.number().int(), filtered: z.number().int() }),
)
/** `GET /v1/jobs` alone answers without `success` (the seed's exception). */
export const JobReadSchema = z.object({ message: z.string(), previewUrl: z.string(), data: JobSchema })
