import { z } from 'zod'
import { TimestampSchema } from './common'

/** A SIP user's name: what its softphone registers as (a number such as +15551234567, or a name such as alice). */
export const SIP_USER_NAME = /^\+?[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
export const SIP_USER_NAME_RULE = '1 to 64 letters, digits, dots, dashes or underscores (a leading + for a number)'

export const SipUserNameSchema = z.string().regex(SIP_USER_NAME, `Must be ${SIP_USER_NAME_RULE}`)

/** A SIP user as the operator sees it: never its password or hash. */
export const SipUserSchema = z.object({
  name: z.string(),
  createdAt: TimestampSchema,
  registered: z.boolean(),
  /** Where its softphone registered (its Contact), while registered. */
  contact: z.string().optional(),
  registeredUntil: TimestampSchema.optional(),
})

/** A user's name and its new password, shown once (added, or reset). */
export const SipUserPasswordSchema = z.object({ name: z.string(), password: z.string() })
