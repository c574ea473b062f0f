import { z } from 'zod'

/** Methods a journal entry may have (a WebSocket session is a GET). */
export const JOURNAL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const

const instant = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString())

/** The filters of `GET /_voicedesk/requests` and `GET /_voicedesk/requests.har`. */
const journalFilters = {
  method: z
    .string()
    .transform((value) => value.toUpperCase())
    .pipe(z.enum(JOURNAL_METHODS))
    .optional(),
  /** Entries whose path starts with this (`/v1/jobs`). */
  path: z.string().startsWith('/', 'Must start with /').max(500).optional(),
  /** `2xx`, `4xx`: the status class. */
  status: z
    .string()
    .regex(/^[1-5]xx$/i, 'Must be a status class: 1xx, 2xx, 3xx, 4xx or 5xx')
    .transform((value) => Number(value[0]))
    .optional(),
  /** Started at or after this time (ISO 8601). */
  from: instant.optional(),
  /** Started before this time (ISO 8601). */
  to: instant.optional(),
}

/** Paged newest first by a cursor: `before` is the `next` of the page before (new entries arriving meanwhile never shift a page). */
export const ListJournalQuerySchema = z.object({
  ...journalFilters,
  take: z.coerce.number().int().min(1).max(200).default(50),
  before: z.coerce.number().int().min(1).optional(),
})
export type ListJournalQuery = z.infer<typeof ListJournalQuerySchema>

export const HarQuerySchema = z.object({
  ...journalFilters,
  /** The newest entries matching, at most (default 1,000). */
  take: z.coerce.number().int().min(1).max(10_000).default(1000),
  before: z.coerce.number().int().min(1).optional(),
})

export const JournalEntryParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) })
