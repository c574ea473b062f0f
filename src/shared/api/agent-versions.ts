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

/** `{n}`: a whole number from 1, in decimal digits only (no sign, exponent, hex or spaces). */
export const AgentVersionParamsSchema = z.object({
  voiceAgentId: z.string(),
  version: z
    .string()
    .regex(/^[1-9][0-9]{0,9}$/, 'A version is a whole number from 1')
    .transform(Number)
    .pipe(z.number().int().max(AGENT_VERSION_MAX, `A version is at most ${AGENT_VERSION_MAX}`)),
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
