import { z } from 'zod'
import { UuidSchema, envelopeOf } from './common'
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
