import { z } from 'zod'
import { offsetPageQuery, UuidSchema, envelopeOf } from './common'
import { LangSchema } from './voice-agents'

export const VoiceSchema = z
  .object({
    id: UuidSchema,
    name: z.string(),
    lang: LangSchema,
    gender: z.enum(['female', 'male']),
    accent: z.string(),
    description: z.string(),
  })
  .meta({ id: 'Voice' })

export const VoiceListEnvelopeSchema = envelopeOf(z.array(VoiceSchema))

/** `GET /v1/tts/voices`: the cloud API's voice list, whose clients show `name (tags joined by " - ")`. */
export const TtsVoiceSchema = VoiceSchema.extend({
  tags: z
    .array(z.string())
    .meta({ description: 'For people choosing a voice: language, gender, accent (e.g. ["English", "Female", "American"]).' }),
}).meta({ id: 'TtsVoice' })
export type TtsVoice = z.infer<typeof TtsVoiceSchema>

/** The whole catalogue fits in one page of the default size. */
export const TtsVoicesQuerySchema = offsetPageQuery(100)
export type TtsVoicesQuery = z.infer<typeof TtsVoicesQuerySchema>
export const TtsVoiceListEnvelopeSchema = envelopeOf(z.array(TtsVoiceSchema))
