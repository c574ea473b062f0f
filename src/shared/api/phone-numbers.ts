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

const accountSidSchema = z.string().trim().min(1).max(200)
const authTokenSchema = z.string().min(1).max(2_000).meta({ description: 'Encrypted at rest, never returned.' })

/** The seed's body, in its own neutral words: what the service stores (IPC and seed files use it as is). */
export const AddPhoneNumberBodySchema = z
  .object({
    type: z.enum(PHONE_NUMBER_TYPES),
    phoneNumber: PhoneNumberInputSchema,
    label: humanName(100),
    providerAccountSid: accountSidSchema,
    providerAuthToken: authTokenSchema,
  })
  .strict()

/**
 * The provider's own spellings, accepted on /v1 because the cloud's public docs show them:
 * the type `TWILIO`, and `twilioAccountSid` / `twilioAuthToken` for the seed's
 * `providerAccountSid` / `providerAuthToken`. They are only other spellings: what is stored and
 * answered is the seed's (`type: TELEPHONY`). Each pair takes exactly one of its spellings.
 */
export const PHONE_NUMBER_TYPE_ALIASES = ['TWILIO'] as const
const ALIASED_FIELDS = [
  ['providerAccountSid', 'twilioAccountSid'],
  ['providerAuthToken', 'twilioAuthToken'],
] as const

type AliasedInput = {
  providerAccountSid?: string
  twilioAccountSid?: string
  providerAuthToken?: string
  twilioAuthToken?: string
}

function requireOneSpelling(body: AliasedInput, context: z.RefinementCtx): void {
  for (const [seed, alias] of ALIASED_FIELDS) {
    if (body[seed] === undefined && body[alias] === undefined) {
      context.addIssue({ code: 'custom', path: [seed], message: `Required (or its other spelling ${alias})` })
    } else if (body[seed] !== undefined && body[alias] !== undefined) {
      context.addIssue({ code: 'custom', path: [alias], message: `Give ${seed} or ${alias}, not both` })
    }
  }
}

/**
 * requireOneSpelling in the OpenAPI document's words: a body is refused when it gives both
 * spellings of a pair, or neither. (`not` is ignored by type generators, so types stay plain.)
 */
const ONE_SPELLING_EACH = {
  not: {
    anyOf: ALIASED_FIELDS.flatMap(([seed, alias]) => [
      { required: [seed, alias] },
      { not: { anyOf: [{ required: [seed] }, { required: [alias] }] } },
    ]),
  },
}

function seedFields(body: AliasedInput) {
  return {
    providerAccountSid: (body.providerAccountSid ?? body.twilioAccountSid) as string,
    providerAuthToken: (body.providerAuthToken ?? body.twilioAuthToken) as string,
  }
}

const aliasedCredentials = {
  providerAccountSid: accountSidSchema.optional().meta({ description: 'Account identifier at the provider (or `twilioAccountSid`).' }),
  providerAuthToken: authTokenSchema.optional().meta({ description: 'Encrypted at rest, never returned (or `twilioAuthToken`).' }),
  twilioAccountSid: accountSidSchema.optional().meta({ description: 'Another spelling of providerAccountSid.' }),
  twilioAuthToken: authTokenSchema.optional().meta({ description: 'Another spelling of providerAuthToken.' }),
}

/** `POST /v1/voice-agents/phone-number`: the seed's body, with the provider's spellings accepted. */
export const AddPhoneNumberRequestSchema = z
  .object({
    type: z.enum([...PHONE_NUMBER_TYPES, ...PHONE_NUMBER_TYPE_ALIASES]).meta({ description: 'TELEPHONY (TWILIO is another spelling).' }),
    phoneNumber: PhoneNumberInputSchema,
    label: humanName(100),
    ...aliasedCredentials,
  })
  .strict()
  .superRefine(requireOneSpelling)
  .meta(ONE_SPELLING_EACH)
  .transform((body): AddPhoneNumberBody => ({ type: 'TELEPHONY', phoneNumber: body.phoneNumber, label: body.label, ...seedFields(body) }))
  .meta({ id: 'AddPhoneNumberBody' })

/** `POST /v1/voice-agents/twilio/phone-number`: the same registration in the provider's words, with its number SID. */
export const AddProviderNumberBodySchema = z
  .object({
    type: z.enum([...PHONE_NUMBER_TYPES, ...PHONE_NUMBER_TYPE_ALIASES]).optional(),
    phoneNumber: PhoneNumberInputSchema,
    label: humanName(100),
    twilioNumberSid: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "The number's id at the provider: answered back as `numberSid`, not stored." }),
    ...aliasedCredentials,
  })
  .strict()
  .superRefine(requireOneSpelling)
  .meta(ONE_SPELLING_EACH)
  .transform((body) => ({
    numberSid: body.twilioNumberSid ?? null,
    number: { type: 'TELEPHONY' as const, phoneNumber: body.phoneNumber, label: body.label, ...seedFields(body) },
  }))
  .meta({ id: 'AddProviderNumberBody' })

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

/** The provider route's answer: the phone number, plus the reference's `numberSid` and `isActive`. */
export const ProviderNumberEnvelopeSchema = envelopeOf(
  PhoneNumberSchema.extend({
    numberSid: z.string().nullable().meta({ description: 'The `twilioNumberSid` sent (null without one); not stored.' }),
    isActive: z.literal(true).meta({ description: 'A registered number is always active here.' }),
  }),
)
/**
 * `GET /v1/voice-agents/phone-number/list`: the page of numbers as a bare array, as the cloud
 * reference shows it (the seed does not define this list); the count of numbers that match the
 * query is the `X-Total-Count` header.
 */
export const PhoneNumberListEnvelopeSchema = envelopeOf(
  z.array(PhoneNumberSchema).meta({ description: 'The page; `X-Total-Count` holds how many numbers match the query.' }),
)
