import { z } from 'zod'
import { holdsNul } from '../text/control-characters'

export const SUCCESS_MESSAGE = 'Success'

/** The success envelope of the seed: `{ success: true, message: "Success", data }`. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.literal(true),
    message: z.string(),
    data,
  })
}

export function ok<T>(data: T): { success: true; message: string; data: T } {
  return { success: true, message: SUCCESS_MESSAGE, data }
}

export const UuidSchema = z.uuid()

/** ISO 8601 UTC with milliseconds, as `new Date().toISOString()` writes it. */
export const TimestampSchema = z.iso.datetime({ offset: false, precision: 3 })

/** http or https only: webhooks and previews must be something this service can call or serve. */
export const HttpUrlSchema = z.url({ protocol: /^https?$/ }).max(2048)

/** Text that must say something: not empty and not only white space. */
export function nonBlankText(max: number) {
  return z
    .string()
    .max(max)
    .refine((value) => value.trim().length > 0, { message: 'Must not be empty or only spaces' })
}

export const NUL_MESSAGE = 'Must not contain the NUL character (U+0000)'

/** A name, title or label a person gives: trimmed, 1 to `max` characters, no NUL. */
export function humanName(max: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !holdsNul(value), { message: NUL_MESSAGE })
}

/** Page number and size, shared by every list: `skip` is the 1-based page (the seed's convention). */
export const PageQuerySchema = z.object({
  take: z.coerce.number().int().min(1).max(100).default(10),
  skip: z.coerce.number().int().min(1).default(1),
  search: z.string().max(200).optional(),
})
