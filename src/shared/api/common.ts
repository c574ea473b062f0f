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
// The pattern repeats the protocol rule where the OpenAPI document can state it (`format: uri`
// alone allows ftp: and urn:); JSON Schema patterns have no flags, hence the spelled-out case.
// `abort`: a URL that is no URL at all is said once ("Invalid URL"), not again by the pattern.
export const HttpUrlSchema = z
  .url({ protocol: /^https?$/, abort: true })
  .max(2048)
  .regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\//, 'Must be an http or https URL')
  // zod states the pattern but not that the whole must parse as a URL: `format` says it.
  .meta({ format: 'uri' })

/** Text that must say something: not empty and not only white space. */
export function nonBlankText(max: number) {
  // A pattern rather than a refine, so the OpenAPI document states the rule too (\S is what trim() keeps).
  return z.string().max(max).regex(/\S/, 'Must not be empty or only spaces')
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

/**
 * Offset paging, as the cloud API's own clients send it (Pipedream: `?take=100&skip=0`, then
 * `skip=100`, ...): `skip` counts items to pass over, not pages. Only for the operations those
 * clients call with it; VoiceDesk's own lists keep the seed's 1-based page.
 */
export const OFFSET_SKIP_MAX = 1_000_000_000
export function offsetPageQuery(defaultTake: number) {
  return z.object({
    take: z.coerce.number().int().min(1).max(100).default(defaultTake),
    skip: z.coerce.number().int().min(0).max(OFFSET_SKIP_MAX).default(0),
  })
}

/**
 * Characters an HTTP header value can carry (RFC 9110 field-vchar, SP, HTAB and obs-text), as
 * the webhook sender's HTTP client enforces. CR and LF would split the header, NUL cuts it.
 */
export const HEADER_VALUE_PATTERN = /^[\t\x20-\x7e\x80-\xff]*$/
export const HEADER_VALUE_MESSAGE =
  'Is sent in an HTTP header, so it may not hold CR, LF, NUL or other control characters, nor characters beyond U+00FF'

/** Text sent as (part of) a header value: 1 to `max` characters a header can carry. */
export function headerValueText(max: number) {
  return z.string().min(1).max(max).regex(HEADER_VALUE_PATTERN, HEADER_VALUE_MESSAGE)
}
