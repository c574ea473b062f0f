import { z } from 'zod'
import { PageQuerySchema, TimestampSchema, envelopeOf } from './common'
import { VoiceAgentSchema } from './voice-agents'

/*
 * Agent versions (docs/api.md, "Agent versions"): every change to an agent is a numbered
 * version, 1, 2, 3… per agent, with when and from what it was made.
 */

/**
 * What made a version: `create`, `update` (PATCH /v1), `ui` (the app's save), `clone:<sourceId>`
 * (a template's or an agent's id), `restore:<n>`, `import` (a state archive made before
 * versions existed), `migration` (the agent existed before versions did).
 */
export type AgentVersionSource = 'create' | 'update' | 'ui' | 'import' | 'migration' | `clone:${string}` | `restore:${number}`

/** The largest version number (PostgreSQL's integer). */
export const AGENT_VERSION_MAX = 2_147_483_647

/**
 * AGENT_VERSION_MAX's bound as a pattern, digit by digit (up to 9 digits, or 10 digits below
 * 2147483648), so that the OpenAPI document states it: a check after the pattern would not show.
 */
const VERSION_PATTERN =
  /^(?:[1-9]\d{0,8}|1\d{9}|20\d{8}|21[0-3]\d{7}|214[0-6]\d{6}|2147[0-3]\d{5}|21474[0-7]\d{4}|214748[0-2]\d{3}|2147483[0-5]\d{2}|21474836[0-3]\d|214748364[0-7])$/

/** `{n}`: a whole number from 1 to AGENT_VERSION_MAX, in decimal digits only (no sign, exponent, hex or spaces). */
export const AgentVersionParamsSchema = z.object({
  voiceAgentId: z.string(),
  version: z.string().regex(VERSION_PATTERN, `A version is a whole number from 1 to ${AGENT_VERSION_MAX}`).transform(Number),
})

export const ListAgentVersionsQuerySchema = PageQuerySchema.omit({ search: true })
export type ListAgentVersionsQuery = z.infer<typeof ListAgentVersionsQuerySchema>

const versionFields = {
  version: z.number().int().min(1),
  source: z.string().meta({ description: 'create, update, ui, clone:<sourceId>, restore:<n>, import or migration' }),
  createdAt: TimestampSchema.meta({ description: 'When this version was made.' }),
}

export const AgentVersionSummarySchema = z.object(versionFields).meta({ id: 'VoiceAgentVersionSummary' })
export type AgentVersionSummary = z.infer<typeof AgentVersionSummarySchema>

export const AgentVersionSchema = z.object({ ...versionFields, agent: VoiceAgentSchema }).meta({ id: 'VoiceAgentVersion' })
export type AgentVersion = z.infer<typeof AgentVersionSchema>

export const AgentVersionListEnvelopeSchema = envelopeOf(
  z.object({ versions: z.array(AgentVersionSummarySchema), total: z.number().int(), filtered: z.number().int() }),
)
export const AgentVersionEnvelopeSchema = envelopeOf(AgentVersionSchema)
