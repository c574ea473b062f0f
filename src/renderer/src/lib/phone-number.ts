import { PhoneNumberInputSchema } from '../../../shared/api/phone-numbers'

export type PhoneNumberCheck = { state: 'empty' } | { state: 'valid'; e164: string } | { state: 'invalid'; message: string }

/** The same E.164 rule the service applies (spaces, dashes, dots and brackets are dropped). */
export function checkPhoneNumber(raw: string): PhoneNumberCheck {
  if (raw.trim() === '') return { state: 'empty' }
  const result = PhoneNumberInputSchema.safeParse(raw)
  if (result.success) return { state: 'valid', e164: result.data }
  return { state: 'invalid', message: result.error.issues[0]?.message ?? 'Invalid number' }
}
