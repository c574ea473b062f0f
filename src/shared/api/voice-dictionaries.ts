import { z } from 'zod'
import { holdsNul } from '../text/control-characters'
import { humanName, NUL_MESSAGE, PageQuerySchema, TimestampSchema, UuidSchema } from './common'

/** The most entries one dictionary holds, and the longest word and pronunciation (docs/api.md, "Voice dictionaries"). */
export const DICTIONARY_WORDS_MAX = 1_000
export const DICTIONARY_WORD_MAX = 100
export const DICTIONARY_PRONUNCIATION_MAX = 300
/** The most dictionaries active for one agent at a time. */
export const ACTIVE_DICTIONARIES_MAX = 20

/** Some letter or digit: a word the voice can find in a text. */
const SAYS_SOMETHING = /[\p{L}\p{N}]/u

function entryText(max: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(SAYS_SOMETHING, 'Must hold a letter or a digit')
    .refine((value) => !holdsNul(value), { message: NUL_MESSAGE })
}

export const DictionaryWordSchema = z
  .object({
    word: entryText(DICTIONARY_WORD_MAX).meta({ description: 'A word or a few words, matched whole and in any case.' }),
    pronunciation: entryText(DICTIONARY_PRONUNCIATION_MAX).meta({ description: 'What the voice says instead, spelled as it sounds.' }),
  })
  .strict()
  .meta({ id: 'DictionaryWord' })

/** The words of one dictionary: each word once, whatever its case. */
const DictionaryWordsSchema = z
  .array(DictionaryWordSchema)
  .max(DICTIONARY_WORDS_MAX)
  .superRefine((words, context) => {
    const seen = new Map<string, number>()
    words.forEach((entry, index) => {
      const key = entry.word.normalize('NFC').replace(/\s+/g, ' ').toLowerCase()
      const first = seen.get(key)
      if (first === undefined) seen.set(key, index)
      else context.addIssue({ code: 'custom', path: [index, 'word'], message: `The same word as entry ${first}` })
    })
  })

export const CreateVoiceDictionaryBodySchema = z
  .object({ name: humanName(100), words: DictionaryWordsSchema })
  .strict()
  .meta({ id: 'CreateVoiceDictionaryBody' })
export type CreateVoiceDictionaryBody = z.infer<typeof CreateVoiceDictionaryBodySchema>

export const UpdateVoiceDictionaryBodySchema = z
  .object({ name: humanName(100).optional(), words: DictionaryWordsSchema.optional() })
  .strict()
  .meta({ id: 'UpdateVoiceDictionaryBody' })
export type UpdateVoiceDictionaryBody = z.infer<typeof UpdateVoiceDictionaryBodySchema>

export const ToggleDictionaryActivationBodySchema = z
  .object({ dictionaryId: UuidSchema, voiceAgentId: UuidSchema, isActive: z.boolean() })
  .strict()
  .meta({ id: 'ToggleDictionaryActivationBody' })
export type ToggleDictionaryActivationBody = z.infer<typeof ToggleDictionaryActivationBodySchema>

export const VoiceDictionaryIdParamsSchema = z.object({ id: z.string().min(1).meta({ description: 'The voice dictionary id.' }) })

const booleanQuery = z.enum(['true', 'false']).transform((value) => value === 'true')

export const ListVoiceDictionariesQuerySchema = PageQuerySchema.extend({
  used: booleanQuery.optional().meta({ description: 'Only dictionaries active for some agent (true), or for none (false).' }),
  voiceAgentId: z.string().optional().meta({ description: 'Only dictionaries active for this agent.' }),
})
export type ListVoiceDictionariesQuery = z.infer<typeof ListVoiceDictionariesQuerySchema>

export const VoiceDictionarySchema = z
  .object({
    id: UuidSchema,
    name: z.string(),
    words: z.array(z.object({ word: z.string(), pronunciation: z.string() })),
    wordsCount: z.number().int(),
    isUsed: z.boolean(),
    voiceAgentIds: z.array(UuidSchema).meta({ description: 'The agents it is active for, in the order they were activated.' }),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'VoiceDictionary' })
export type VoiceDictionary = z.infer<typeof VoiceDictionarySchema>

export const VoiceDictionarySummarySchema = VoiceDictionarySchema.omit({ words: true }).meta({ id: 'VoiceDictionarySummary' })
export type VoiceDictionarySummary = z.infer<typeof VoiceDictionarySummarySchema>

/** The reference's envelope for dictionary writes: the seed's, with a `messageKey`. */
function keyedEnvelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), message: z.string(), messageKey: z.string(), data })
}

export const VoiceDictionaryEnvelopeSchema = keyedEnvelopeOf(VoiceDictionarySchema)
export const VoiceDictionaryListEnvelopeSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    dictionaries: z.array(VoiceDictionarySummarySchema),
    total: z.number().int(),
    filtered: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  }),
})
export const VoiceDictionaryDeletedEnvelopeSchema = keyedEnvelopeOf(z.object({ id: UuidSchema, deleted: z.literal(true) }))
export const DictionaryActivationEnvelopeSchema = keyedEnvelopeOf(
  z.object({ dictionaryId: UuidSchema, voiceAgentId: UuidSchema, isActive: z.boolean() }),
)

/** A success answer with the reference's message and key. */
export function keyed<T>(message: string, messageKey: string, data: T) {
  return { success: true as const, message, messageKey, data }
}
