import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { TimestampSchema, UuidSchema } from '../../shared/api/common'
import { OutcomeResponseShapeSchema } from '../../shared/api/outcome-shape'
import { LangSchema, ParamsSchema, PLACEHOLDER_NAME, TURN_TAKING_DEFAULTS, type VoiceAgentTemplate } from '../../shared/api/voice-agents'
import { findVoice, VOICE_IDS } from '../../shared/voices'
import { present } from '../../shared/present'

/** One template as shipped in resources/templates/*.json. */
export const TemplateFileSchema = z
  .object({
    id: UuidSchema,
    agentName: z.string().min(1).max(100),
    description: z.string().min(1).max(1_000),
    icon: z.string().min(1),
    lang: LangSchema,
    voiceId: z.enum(VOICE_IDS),
    greetingMessage: z.string().min(1),
    preamble: z.string().min(1),
    pokeMessages: z.array(z.string().min(1)).min(1),
    realTime: z.boolean(),
    silenceThreshold: z.number().int().min(1).max(3_600),
    interrupt: z.boolean(),
    outcome: z.string().min(1),
    outcomeResponseShape: OutcomeResponseShapeSchema,
    params: ParamsSchema,
    createdAt: TimestampSchema,
  })
  .strict()
export type TemplateFile = z.infer<typeof TemplateFileSchema>

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g

/** Names of the `{{placeholders}}` used in a text. */
export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].flatMap(([, name]) => (name !== undefined && PLACEHOLDER_NAME.test(name) ? [name] : []))
}

export interface TemplateCatalogue {
  /** Templates in gallery order (English first, then Arabic; by name). */
  list(): readonly VoiceAgentTemplate[]
  find(id: string): TemplateFile | undefined
}

/** The settings of a template that an agent made from it takes over as they are. */
export function templateAgentSettings(template: TemplateFile) {
  const { agentName, description, greetingMessage, preamble, lang, pokeMessages, realTime, silenceThreshold, interrupt, outcome } = template
  // Templates name no turn-taking of their own: an agent made from one takes the defaults.
  return {
    agentName,
    description,
    greetingMessage,
    preamble,
    lang,
    pokeMessages,
    realTime,
    silenceThreshold,
    interrupt,
    ...TURN_TAKING_DEFAULTS,
    outcome,
  }
}

function toTemplateDto(template: TemplateFile): VoiceAgentTemplate {
  return {
    id: template.id,
    ...templateAgentSettings(template),
    projectId: null,
    apiKeyId: null,
    voiceRecordId: template.voiceId,
    voice: present(findVoice(template.voiceId), `the voice ${template.voiceId}`).name,
    isTemplate: true,
    icon: template.icon,
    createdAt: template.createdAt,
    updatedAt: template.createdAt,
  }
}

/**
 * Loads and checks every template file once, at start. A broken template is a build
 * defect, so it stops the start with the file name rather than serving half a gallery.
 */
export function loadTemplateCatalogue(directory: string): TemplateCatalogue {
  const templates = readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .map((name) => {
      const parsed = TemplateFileSchema.safeParse(JSON.parse(readFileSync(join(directory, name), 'utf8')))
      if (!parsed.success) throw new Error(`Template ${name} is invalid: ${z.prettifyError(parsed.error)}`)
      const used = new Set([...placeholdersIn(parsed.data.greetingMessage), ...placeholdersIn(parsed.data.preamble)])
      const missing = [...used].filter((placeholder) => !(placeholder in parsed.data.params))
      if (missing.length > 0) throw new Error(`Template ${name} uses placeholders without params: ${missing.join(', ')}`)
      return parsed.data
    })
    .sort((a, b) => (a.lang === b.lang ? a.agentName.localeCompare(b.agentName) : a.lang === 'en' ? -1 : 1))
  const byId = new Map(templates.map((template) => [template.id, template]))
  if (byId.size !== templates.length) throw new Error('Two templates share an id')
  const dtos = templates.map(toTemplateDto)
  return {
    list: () => dtos,
    find: (id) => byId.get(id),
  }
}
