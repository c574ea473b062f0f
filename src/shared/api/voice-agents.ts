import { z } from 'zod'
import { VOICE_IDS } from '../voices'
import { HttpUrlSchema, PageQuerySchema, TimestampSchema, UuidSchema, envelopeOf, headerValueText, humanName } from './common'
import { OutcomeResponseShapeSchema, OutcomeShapeNode } from './outcome-shape'

/** Limits the contract leaves to us; docs/api.md lists them. */
export const AGENT_LIMITS = {
  agentName: 100,
  description: 1_000,
  greetingMessage: 2_000,
  preambleBytes: 100_000,
  pokeMessages: 20,
  pokeMessage: 500,
  outcome: 20_000,
  params: 100,
  paramValue: 10_000,
  silenceThresholdMin: 1,
  silenceThresholdMax: 3_600,
  endOfTurnSilenceMsMin: 200,
  endOfTurnSilenceMsMax: 5_000,
  maxCallerTurnSecondsMin: 5,
  maxCallerTurnSecondsMax: 120,
} as const

/** Turn-taking defaults: an agent that names neither waits 600 ms of silence, and answers a caller who never pauses after 15 s. */
export const TURN_TAKING_DEFAULTS = { endOfTurnSilenceMs: 600, maxCallerTurnSeconds: 15 } as const

export const LANGS = ['ar', 'en'] as const
export const LangSchema = z.enum(LANGS)
export type Lang = z.infer<typeof LangSchema>

export const PLACEHOLDER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

export const WEBHOOK_AUTH_LIMITS = { authKey: 200, authSecret: 2_000 } as const

/** An agent's webhookAuth: both parts (the contract). */
export const WebhookAuthSchema = z
  .object({
    authKey: headerValueText(WEBHOOK_AUTH_LIMITS.authKey),
    authSecret: headerValueText(WEBHOOK_AUTH_LIMITS.authSecret),
  })
  .strict()
  .meta({ description: 'Sent to the webhook as `Authorization: <authKey> <authSecret>`.' })

export const ToolsSchema = z
  .object({
    genderDetection: z.boolean().optional(),
    smartCallEnd: z.boolean().optional(),
  })
  .strict()
export type Tools = z.infer<typeof ToolsSchema>

export const ParamsSchema = z
  .record(
    z.string().regex(PLACEHOLDER_NAME, 'Placeholder names start with a letter or _ and hold only letters, digits and _'),
    z.string().max(AGENT_LIMITS.paramValue),
  )
  .refine((params) => Object.keys(params).length <= AGENT_LIMITS.params, {
    message: `At most ${AGENT_LIMITS.params} params`,
  })
  .meta({ maxProperties: AGENT_LIMITS.params })

/** The seed accepts any JSON as a preamble; anything but a string is kept as its JSON text. */
export const PreambleInputSchema = z
  .unknown()
  .refine((value) => value !== undefined, { message: 'Required' })
  .refine(
    (value) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value)).length <= AGENT_LIMITS.preambleBytes,
    {
      message: `Preamble is larger than ${AGENT_LIMITS.preambleBytes / 1000} kB`,
    },
  )
  .meta({ description: 'Any JSON value; a non-string is stored as its JSON text.' })

export function preambleText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** The rules of each editable field: /v2's grouped body holds several of them, checked alike. */
export const editableFields = {
  agentName: humanName(AGENT_LIMITS.agentName),
  greetingMessage: z.string().max(AGENT_LIMITS.greetingMessage),
  preamble: PreambleInputSchema,
  lang: LangSchema,
  pokeMessages: z.array(z.string().trim().min(1).max(AGENT_LIMITS.pokeMessage)).max(AGENT_LIMITS.pokeMessages),
  realTime: z.boolean(),
  silenceThreshold: z.number().int().min(AGENT_LIMITS.silenceThresholdMin).max(AGENT_LIMITS.silenceThresholdMax),
  interrupt: z.boolean(),
  endOfTurnSilenceMs: z
    .number()
    .int()
    .min(AGENT_LIMITS.endOfTurnSilenceMsMin)
    .max(AGENT_LIMITS.endOfTurnSilenceMsMax)
    .meta({
      description: `Milliseconds of silence after the caller's voice that end their turn, ${AGENT_LIMITS.endOfTurnSilenceMsMin} to ${AGENT_LIMITS.endOfTurnSilenceMsMax}.`,
    }),
  maxCallerTurnSeconds: z
    .number()
    .int()
    .min(AGENT_LIMITS.maxCallerTurnSecondsMin)
    .max(AGENT_LIMITS.maxCallerTurnSecondsMax)
    .meta({
      description: `The longest caller turn in seconds, ${AGENT_LIMITS.maxCallerTurnSecondsMin} to ${AGENT_LIMITS.maxCallerTurnSecondsMax}: then the agent answers what it heard.`,
    }),
  outcome: z.string().max(AGENT_LIMITS.outcome),
  outcomeResponseShape: OutcomeResponseShapeSchema.nullable(),
  webhookUrl: HttpUrlSchema.nullable(),
  webhookAuth: WebhookAuthSchema.nullable(),
  voiceId: z.enum(VOICE_IDS, { message: 'Must be one of the 14 voice ids listed by GET /v1/voices' }),
  tools: ToolsSchema,
  params: ParamsSchema,
}

/** PATCH /v1/voice-agents/{id}: every field optional; unknown fields (description too) are refused. */
export const UpdateVoiceAgentBodySchema = z
  .object({
    agentName: editableFields.agentName.optional(),
    greetingMessage: editableFields.greetingMessage.optional(),
    preamble: editableFields.preamble.optional(),
    lang: editableFields.lang.optional(),
    pokeMessages: editableFields.pokeMessages.optional(),
    realTime: editableFields.realTime.optional(),
    silenceThreshold: editableFields.silenceThreshold.optional(),
    interrupt: editableFields.interrupt.optional(),
    endOfTurnSilenceMs: editableFields.endOfTurnSilenceMs.optional(),
    maxCallerTurnSeconds: editableFields.maxCallerTurnSeconds.optional(),
    outcome: editableFields.outcome.optional(),
    outcomeResponseShape: editableFields.outcomeResponseShape.optional(),
    webhookUrl: editableFields.webhookUrl.optional(),
    webhookAuth: editableFields.webhookAuth.optional(),
    voiceId: editableFields.voiceId.optional(),
    tools: editableFields.tools.optional(),
    params: editableFields.params.optional(),
  })
  .strict()
  .meta({ id: 'UpdateVoiceAgentBody' })
export type UpdateVoiceAgentBody = z.infer<typeof UpdateVoiceAgentBodySchema>

/** POST /v1/voice-agents: only agentName is required; the rest falls back to documented defaults. */
export const CreateVoiceAgentBodySchema = UpdateVoiceAgentBodySchema.extend({
  agentName: editableFields.agentName,
  description: z.string().max(AGENT_LIMITS.description).optional(),
})
  .strict()
  .meta({ id: 'CreateVoiceAgentBody' })
export type CreateVoiceAgentBody = z.infer<typeof CreateVoiceAgentBodySchema>

export const CloneVoiceAgentQuerySchema = z.object({
  voiceAgentId: z.string().min(1).meta({ description: 'The template or agent to copy.' }),
})
export const CloneVoiceAgentBodySchema = z
  .object({ agentName: editableFields.agentName.optional() })
  .strict()
  .meta({ id: 'CloneVoiceAgentBody' })
  // The body may be left out altogether: the copy is then named after its source.
  .nullish()
export type CloneVoiceAgentBody = z.infer<typeof CloneVoiceAgentBodySchema>

export const VoiceAgentIdParamsSchema = z.object({ voiceAgentId: z.string() })

export const ListVoiceAgentsQuerySchema = PageQuerySchema.extend({
  lang: LangSchema.optional(),
})
export type ListVoiceAgentsQuery = z.infer<typeof ListVoiceAgentsQuerySchema>

export const VoiceRecordSchema = z.object({
  id: UuidSchema,
  name: z.string(),
  lang: LangSchema,
  gender: z.enum(['female', 'male']),
})

/** The conversational settings an agent and a template both show. */
const agentSettingsFields = {
  agentName: z.string(),
  greetingMessage: z.string(),
  description: z.string(),
  preamble: z.string(),
  lang: LangSchema,
  pokeMessages: z.array(z.string()),
  realTime: z.boolean(),
  silenceThreshold: z.number().int(),
  interrupt: z.boolean(),
  endOfTurnSilenceMs: z.number().int(),
  maxCallerTurnSeconds: z.number().int(),
  outcome: z.string(),
}

export const VoiceAgentSchema = z
  .object({
    id: UuidSchema,
    ...agentSettingsFields,
    outcomeResponseShape: OutcomeShapeNode.nullable(),
    projectId: UuidSchema,
    apiKeyId: UuidSchema,
    voiceRecordId: UuidSchema,
    voiceRecord: VoiceRecordSchema,
    webhookUrl: z.string().nullable(),
    webhookAuth: z
      .object({ authKey: z.string(), authSecret: z.string().meta({ description: 'Masked: the secret is never returned.' }) })
      .nullable(),
    params: z.record(z.string(), z.string()),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'VoiceAgent' })
export type VoiceAgent = z.infer<typeof VoiceAgentSchema>

export const VoiceAgentTemplateSchema = z
  .object({
    id: UuidSchema,
    ...agentSettingsFields,
    projectId: z.null().meta({ description: 'Templates are global: they belong to no project.' }),
    apiKeyId: z.null(),
    voiceRecordId: UuidSchema,
    voice: z.string().meta({ description: 'Name of the template voice.' }),
    isTemplate: z.literal(true),
    icon: z.string().meta({ description: 'An icon name (lucide set), e.g. headset.' }),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'VoiceAgentTemplate' })
export type VoiceAgentTemplate = z.infer<typeof VoiceAgentTemplateSchema>

export const VoiceAgentEnvelopeSchema = envelopeOf(VoiceAgentSchema)
export type VoiceAgentEnvelope = z.infer<typeof VoiceAgentEnvelopeSchema>
export const VoiceAgentTemplatesEnvelopeSchema = envelopeOf(z.array(VoiceAgentTemplateSchema))
export const VoiceAgentListEnvelopeSchema = envelopeOf(
  z.object({
    voiceAgents: z.array(VoiceAgentSchema).meta({ description: "The page of agents, under the cloud reference's key." }),
    agents: z.array(VoiceAgentSchema).meta({ description: 'The same page under its first VoiceDesk key, kept for existing clients.' }),
    total: z.number().int(),
    filtered: z.number().int(),
  }),
)
export const DeletedEnvelopeSchema = envelopeOf(z.object({ id: UuidSchema, deleted: z.literal(true) }))
