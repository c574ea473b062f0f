import { z } from 'zod'
import { humanName, PageQuerySchema, TimestampSchema, UuidSchema, envelopeOf } from './common'

export const PHONE_NUMBER_TYPES = ['TELEPHONY'] as const

/**
 * `+`, a country code and digits (E.164: at most 15 digits). Spaces, dashes, dots and
 * brackets are accepted for convenience and removed: numbers are stored and compared
 * in E.164 form. Whether the digits form a *possible* number for the country is checked
 * by the service (it needs the numbering plan data).
 */
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/
/** E.164 with the separators VoiceDesk removes anywhere between (one pattern, so the OpenAPI document states it exactly). */
const E164_WITH_SEPARATORS = /^[\s().-]*\+[\s().-]*[1-9](?:[\s().-]*\d){1,14}[\s().-]*$/
export const PhoneNumberInputSchema = z
  .string()
  .min(1)
  .max(32)
  .regex(E164_WITH_SEPARATORS, 'Must be an E.164 number: +, the country code, then digits')
  .transform((raw) => raw.replace(/[\s\-.()]/g, ''))

export const AddPhoneNumberBodySchema = z
  .object({
    type: z.enum(PHONE_NUMBER_TYPES),
    phoneNumber: PhoneNumberInputSchema,
    label: humanName(100),
    providerAccountSid: z.string().trim().min(1).max(200),
    providerAuthToken: z.string().min(1).max(2_000).meta({ description: 'Encrypted at rest, never returned.' }),
  })
  .strict()
  .meta({ id: 'AddPhoneNumberBody' })
export type AddPhoneNumberBody = z.infer<typeof AddPhoneNumberBodySchema>

export const AssignNumberBodySchema = z
  .object({
    voiceAgentId: UuidSchema,
    phoneNumber: PhoneNumberInputSchema,
  })
  .strict()
  .meta({ id: 'AssignNumberBody' })
export type AssignNumberBody = z.infer<typeof AssignNumberBodySchema>

export const UnassignNumberBodySchema = z.object({ phoneNumber: PhoneNumberInputSchema }).strict().meta({ id: 'UnassignNumberBody' })
export type UnassignNumberBody = z.infer<typeof UnassignNumberBodySchema>

export const PhoneNumberIdQuerySchema = z.object({
  pid: z.string().min(1).meta({ description: 'The phone number id.' }),
})

export const ListPhoneNumbersQuerySchema = PageQuerySchema.extend({
  voiceAgentId: z.string().optional().meta({ description: 'Only numbers assigned to this agent.' }),
})
export type ListPhoneNumbersQuery = z.infer<typeof ListPhoneNumbersQuerySchema>

export const PhoneNumberSchema = z
  .object({
    id: UuidSchema,
    number: z.string().regex(E164_PATTERN),
    label: z.string(),
    type: z.enum(PHONE_NUMBER_TYPES),
    userId: UuidSchema,
    sipInboundConfigs: z.object({ originationUri: z.string() }),
    sipOutboundConfigs: z.object({
      address: z.string(),
      transportType: z.string(),
      customHeaders: z.record(z.string(), z.string()),
    }),
    voiceAgentId: UuidSchema.nullable(),
    voiceAgent: z.object({ id: UuidSchema, name: z.string() }).nullable(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  })
  .meta({ id: 'PhoneNumber' })
export type PhoneNumber = z.infer<typeof PhoneNumberSchema>

export const PhoneNumberEnvelopeSchema = envelopeOf(PhoneNumberSchema)
export const PhoneNumberListEnvelopeSchema = envelopeOf(
  z.object({ phoneNumbers: z.array(PhoneNumberSchema), total: z.number().int(), filtered: z.number().int() }),
)
