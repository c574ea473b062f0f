import { z } from 'zod'
import { AI_PARTS } from './ai-parts'
import { humanName, HttpUrlSchema, TimestampSchema, UuidSchema } from './common'
import { JOB_STATUSES, JOB_TYPES, JobWebhookAuthSchema } from './jobs'
import { PHONE_NUMBER_TYPE_ALIASES, PHONE_NUMBER_TYPES } from './phone-numbers'
import { SPEAKER_VOICES, VOICES } from '../voices'
import { ACTIVE_DICTIONARIES_MAX } from './voice-dictionaries'
import { editableFields, LangSchema, ParamsSchema, VoiceRecordSchema, WebhookAuthSchema } from './voice-agents'

/*
 * The cloud's /v2 surface, in its shapes: an agent grouped into `conversation`, `voice`, `llm`
 * and `callSettings`, and jobs created with `{ jobId }` answers. VoiceDesk serves it from the
 * same use cases as /v1: a /v2 body is read into /v1's fields (their rules apply, named by the
 * /v2 path), and a /v1 agent or job is shown in /v2's shape. Fields the reference shows that
 * VoiceDesk has no use for are accepted and not used (docs/api.md lists them); fields it cannot
 * honour (web tools, knowledge bases, flow agents) are refused when given anything.
 */

/** The /v2 envelope: /v1's, plus the reference's `messageKey`. */
export function v2EnvelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), message: z.string(), messageKey: z.string(), data })
}

const acceptedNotUsed = (schema: z.ZodType, what = 'Accepted for cloud clients and not used') =>
  schema.optional().meta({ description: what })

const V2ConversationSchema = z
  .object({
    greetingMessage: editableFields.greetingMessage.optional(),
    greetingMessageType: acceptedNotUsed(z.string().max(40).nullable()),
    preamble: z.unknown().optional().meta({ description: 'Any JSON value; a non-string is kept as its JSON text.' }),
    pokeMessages: editableFields.pokeMessages.optional(),
    params: ParamsSchema.optional(),
    alignment: acceptedNotUsed(
      z.object({ greetingMessage: z.enum(['ltr', 'rtl']).optional(), preamble: z.enum(['ltr', 'rtl']).optional() }).strict(),
      'Accepted and not used: the direction follows the language (rtl for ar).',
    ),
  })
  .strict()

/** A pattern taking each of `names` in any case (JSON Schema patterns have no flags), with spaces around. */
function anyCasePattern(names: readonly string[]): string {
  const spelled = names.map((name) =>
    [...name]
      .map((char) =>
        char.toLowerCase() === char.toUpperCase()
          ? char.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
          : `[${char.toUpperCase()}${char.toLowerCase()}]`,
      )
      .join(''),
  )
  return `^\\s*(?:${spelled.join('|')})\\s*$`
}

/** What /v2's `voice.voiceId` may name: a catalogue id or name, or a public speaker name, in any case. */
const V2_VOICE_REFS = [...VOICES.flatMap((voice) => [voice.id, voice.name]), ...SPEAKER_VOICES.keys()]

const V2VoiceInputSchema = z
  .object({
    voiceId: z
      .string()
      .max(100)
      .regex(new RegExp(anyCasePattern(V2_VOICE_REFS)), 'Must be one of the 14 voice ids listed by GET /v1/voices')
      .optional()
      .meta({ description: 'A voice id or name from GET /v1/voices, or a public speaker name (Amjad, Layan, ...).' }),
    lang: z.enum(['ar', 'en']).optional(),
    ttsParams: acceptedNotUsed(z.record(z.string(), z.unknown())),
  })
  .strict()

const V2LlmInputSchema = z
  .object({
    provider: z.string().max(100).optional(),
    model: z.string().max(200).optional(),
    temperature: z.number().min(0).max(2).optional(),
    baseUrl: z.string().max(2048).nullable().optional(),
    apiKey: z.string().max(2000).nullable().optional(),
  })
  .strict()
  .meta({ description: "Accepted and not used (never stored): the project's dialogue engine answers calls (voicedesk ai-engine)." })

const UNUSED_CALL_SETTINGS = {
  noiseCancellation: z.string().max(100),
  cancelNoisePer: z.string().max(100),
  responseDelay: z.number(),
  minInterruptionDuration: z.number(),
  vadActivationThreshold: z.number(),
  userInactivityTimeout: z.number(),
  maxCallDuration: z.number(),
  backgroundNoise: z.boolean(),
  enableAutoGainControl: z.boolean(),
  sendDenoisedToStt: z.boolean(),
  waitForUserToSpeakFirst: z.number(),
  thinkingVoice: z.boolean(),
  speakerIdentification: z.boolean(),
  agenticRag: z.boolean(),
  languageDialectSwitcher: z.boolean(),
}

const V2CallSettingsInputSchema = z
  .object({
    interrupt: z.boolean().optional(),
    silenceThreshold: z
      .number()
      .int()
      .min(1_000)
      .max(3_600_000)
      .optional()
      .meta({ description: 'Milliseconds of caller silence before the agent pokes, 1,000 to 3,600,000, kept to the second.' }),
    genderDetection: z.boolean().optional(),
    smartCallEnd: z.boolean().optional(),
    ...Object.fromEntries(Object.entries(UNUSED_CALL_SETTINGS).map(([name, schema]) => [name, acceptedNotUsed(schema)])),
  })
  .strict()

const nothingHere = (what: string) =>
  z
    .array(z.unknown())
    .max(0, `${what} are not kept by VoiceDesk: send an empty list`)
    .optional()
    .meta({ description: `${what}: VoiceDesk keeps none, so only an empty list is taken.` })

const V2WebhookAuthInputSchema = z
  .object({ authKey: WebhookAuthSchema.shape.authKey.optional(), authSecret: WebhookAuthSchema.shape.authSecret.optional() })
  .strict()
  // Read as /v1's webhookAuth once `{}` is read as none: both parts, or neither.
  // (`not`, which type generators pass over: the generated type stays the plain object.)
  .meta({
    not: {
      anyOf: [
        { required: ['authKey'], not: { required: ['authSecret'] } },
        { required: ['authSecret'], not: { required: ['authKey'] } },
      ],
    },
  })
  .nullable()
  .meta({ description: '`{ authKey, authSecret }`; `{}` or null for none.' })

const v2AgentFields = {
  type: z.literal('Single Prompt').optional().meta({ description: 'Single Prompt (flow agents are not supported).' }),
  name: humanName(100).optional(),
  conversation: V2ConversationSchema.optional(),
  voice: V2VoiceInputSchema.optional(),
  llm: V2LlmInputSchema.optional(),
  callSettings: V2CallSettingsInputSchema.optional(),
  tools: nothingHere('Web tools'),
  knowledgeBaseItemsIds: nothingHere('Knowledge base items'),
  voiceDictionaryIds: z
    .array(UuidSchema)
    .max(ACTIVE_DICTIONARIES_MAX)
    .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, { message: 'Each dictionary may be named once' })
    .meta({
      uniqueItems: true,
      description:
        "The project's voice dictionaries active for the agent, in this order (as /v1's toggle-activation makes them): those not named stop being active; `[]` none. Left out, unchanged.",
    })
    .optional(),
  phoneNumber: z
    .object({ type: z.enum([...PHONE_NUMBER_TYPES, ...PHONE_NUMBER_TYPE_ALIASES, 'SIP']), id: UuidSchema })
    .strict()
    .nullable()
    .optional()
    .meta({ description: 'A registered number of the project to assign to the agent (moved if another agent had it).' }),
  webhookUrl: HttpUrlSchema.nullable().optional(),
  webhookAuth: V2WebhookAuthInputSchema.optional(),
  workflow: z
    .record(z.string(), z.unknown())
    .nullable()
    .optional()
    .refine((workflow) => workflow === undefined || workflow === null || Object.keys(workflow).length === 0, {
      message: 'Flow agents are not supported: send {} or null',
    })
    .meta({ description: 'Flow agents are not supported: `{}` or null.', maxProperties: 0 }),
  outcome: editableFields.outcome.optional(),
  // Checked as /v1's outcome shape once `{}` is read as none: the document says so (the component is the shape's input).
  outcomeResponseShape: z
    .record(z.string(), z.unknown())
    // (`not`, which type generators pass over: a non-empty object that is no outcome shape is refused.)
    .meta({ not: { minProperties: 1, not: { $ref: '#/components/schemas/OutcomeShapeInput' } } })
    .nullable()
    .optional()
    .meta({ description: '{} or null for none.' }),
}

export const V2CreateVoiceAgentBodySchema = z
  .object({ ...v2AgentFields, name: humanName(100) })
  .strict()
  .meta({ id: 'V2CreateVoiceAgentBody' })
export type V2CreateVoiceAgentBody = z.infer<typeof V2CreateVoiceAgentBodySchema>

export const V2UpdateVoiceAgentBodySchema = z.object(v2AgentFields).strict().meta({ id: 'V2UpdateVoiceAgentBody' })
export type V2UpdateVoiceAgentBody = z.infer<typeof V2UpdateVoiceAgentBodySchema>

const direction = z.enum(['ltr', 'rtl'])

export const V2VoiceAgentSchema = z
  .object({
    id: UuidSchema,
    type: z.literal('Single Prompt'),
    name: z.string(),
    conversation: z.object({
      greetingMessage: z.string(),
      greetingMessageType: z.null(),
      preamble: z.string(),
      pokeMessages: z.array(z.string()),
      params: z.record(z.string(), z.string()),
      alignment: z.object({ greetingMessage: direction, preamble: direction }),
    }),
    voice: z.object({
      voiceId: UuidSchema,
      voiceRecordId: UuidSchema,
      voiceRecord: VoiceRecordSchema,
      lang: LangSchema,
      ttsParams: z.object({}),
    }),
    llm: z.object({
      provider: z.string().meta({ description: "The project's dialogue engine: offline or openai-compatible." }),
      model: z.string(),
      temperature: z.null(),
      baseUrl: z.null(),
      apiKey: z.null(),
    }),
    callSettings: z.object({
      interrupt: z.boolean(),
      silenceThreshold: z.number().int().meta({ description: 'Milliseconds.' }),
      genderDetection: z.boolean(),
      smartCallEnd: z.boolean(),
      realTime: z.boolean(),
      endOfTurnSilenceMs: z.number().int(),
      maxCallerTurnSeconds: z.number().int(),
    }),
    tools: z.array(z.never()),
    knowledgeBaseItemsIds: z.array(z.never()),
    voiceDictionaryIds: z.array(UuidSchema).meta({ description: 'The voice dictionaries active for the agent, in the order activated.' }),
    phoneNumber: z.object({ type: z.enum(PHONE_NUMBER_TYPES), id: UuidSchema }).nullable(),
    webhookUrl: z.string().nullable(),
    webhookAuth: z.union([z.object({ authKey: z.string(), authSecret: z.string() }), z.object({})]),
    workflow: z.null(),
    outcome: z.string(),
    outcomeResponseShape: z.record(z.string(), z.unknown()),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'V2VoiceAgent' })
export type V2VoiceAgent = z.infer<typeof V2VoiceAgentSchema>

export const V2VoiceAgentEnvelopeSchema = v2EnvelopeOf(V2VoiceAgentSchema)
export const V2VoiceAgentListEnvelopeSchema = v2EnvelopeOf(
  z.object({ total: z.number().int(), filtered: z.number().int(), voiceAgents: z.array(V2VoiceAgentSchema) }),
)

/** `GET /v2/jobs`. */
export const V2ListJobsQuerySchema = z.object({
  projectId: z.string().max(200).optional().meta({ description: "The key's project (another project: 403)." }),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(10),
  sortBy: z
    .enum(['totalCost', 'createdAt', 'updatedAt'])
    .default('createdAt')
    .meta({ description: 'totalCost, createdAt or updatedAt (usageTime is not a sort here).' }),
  orderBy: z
    .string()
    .regex(/^(asc|desc)$/i, 'asc or desc')
    .transform((value) => value.toLowerCase() as 'asc' | 'desc')
    .default('desc'),
  status: z.enum(JOB_STATUSES).optional(),
  type: z.enum(JOB_TYPES).optional(),
  search: z.string().max(200).optional(),
})
export type V2ListJobsQuery = z.infer<typeof V2ListJobsQuerySchema>

export const V2JobListItemSchema = z.object({
  id: UuidSchema,
  type: z.enum(JOB_TYPES),
  title: z.string(),
  mediaUrl: z.string().nullable(),
  mediaType: z
    .enum(['URL', 'UPLOAD', 'GENERATED'])
    .nullable()
    .meta({ description: 'Where the media came from: a URL, an upload, or made by the job (TTS); null without media.' }),
  totalCost: z.number(),
  status: z.enum(JOB_STATUSES),
  createdAt: TimestampSchema,
})
export const V2JobListEnvelopeSchema = v2EnvelopeOf(
  z.object({ jobs: z.array(V2JobListItemSchema), page: z.number().int(), totalCount: z.number().int(), totalPages: z.number().int() }),
)

const v2JobSourceFields = {
  apiKey: UuidSchema.meta({ description: "The calling key's id (GET /v1/projects/by-api-key's key; another key's id: 403)." }),
  mediaUrl: HttpUrlSchema,
  title: humanName(200),
  language: z.enum(['ar', 'en']),
  webhookUrl: HttpUrlSchema.optional(),
  webhookAuth: JobWebhookAuthSchema.optional(),
}

/** `POST /v2/jobs`: a transcription job. */
export const V2CreateJobBodySchema = z
  .object({
    type: z.literal('TRANSCRIPTION'),
    ...v2JobSourceFields,
    processingType: z
      .literal('async', { error: 'VoiceDesk transcribes asynchronously: send async (POST /v1/realtime/stt answers at once)' })
      .default('async'),
    model: z.string().min(1).max(100).optional(),
  })
  .strict()
  .meta({ id: 'V2CreateJobBody' })
export type V2CreateJobBody = z.infer<typeof V2CreateJobBodySchema>

/** `POST /v2/jobs/generate-transcription-ai-content`: a transcription, then AI content from it. */
export const V2TranscriptionAiContentBodySchema = z
  .object({
    ...v2JobSourceFields,
    aiParts: z.array(z.enum(AI_PARTS)).length(1, 'One part per request'),
    aiContentTitle: z.string().min(1).max(500).nullable().optional(),
    aiContentLanguage: z.enum(['ar', 'en']).nullable().optional(),
    aiContentDate: z.string().max(40).nullable().optional().meta({ description: 'Accepted and not used.' }),
    aiContentText: z.string().max(5_000).nullable().optional().meta({ description: 'Accepted and not used.' }),
  })
  .strict()
  .meta({ id: 'V2TranscriptionAiContentBody' })
export type V2TranscriptionAiContentBody = z.infer<typeof V2TranscriptionAiContentBodySchema>

export const V2JobIdEnvelopeSchema = v2EnvelopeOf(z.object({ jobId: UuidSchema }))
