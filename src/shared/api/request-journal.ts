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
export type HarQuery = z.infer<typeof HarQuerySchema>

export const JournalEntryParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) })

/** A header as journaled: `[name, value]`, the value redacted where it carries a secret. */
export const JournalHeaderSchema = z.tuple([z.string(), z.string()])

/** A body as the journal keeps it: its first 64 KiB of text (redacted), or only its type and size. */
export const JournalBodySchema = z.object({
  contentType: z.string().nullable(),
  /** Bytes; null when unknown (a stream without a Content-Length). */
  size: z.number().int().nullable(),
  /** Null for a binary or streamed body (audio), or an empty one. */
  text: z.string().nullable(),
  /** True when `text` is only the start of the body. */
  truncated: z.boolean(),
})
export type JournalBody = z.infer<typeof JournalBodySchema>

/** A WebSocket session's close and its frames, counted (their contents are never kept). */
export const JournalSocketSchema = z.object({
  closedAt: z.string().nullable(),
  closeCode: z.number().int().nullable(),
  framesIn: z.number().int(),
  framesOut: z.number().int(),
})

/** An entry in a list: what happened, without headers and bodies (the detail has those). */
export const JournalSummarySchema = z.object({
  id: z.number().int(),
  kind: z.enum(['http', 'websocket']),
  startedAt: z.string(),
  method: z.string(),
  path: z.string(),
  query: z.string(),
  status: z.number().int(),
  latencyMs: z.number(),
  keyHint: z.string().nullable(),
  /** The job or conversation the request touched. */
  resourceId: z.string().nullable(),
})
export type JournalSummary = z.infer<typeof JournalSummarySchema>

/** A page of the list, newest first; `next` is the cursor (`before`) of the page after, null on the last. */
export const JournalPageSchema = z.object({
  requests: z.array(JournalSummarySchema),
  next: z.number().int().nullable(),
  /** Entries the journal dropped since start because its disk fell behind. */
  dropped: z.number().int(),
})
export type JournalPage = z.infer<typeof JournalPageSchema>

/** A `curl` command that sends the request again to this service, the key read from $VOICEDESK_KEY; null for a WebSocket session. */
export const JournalCurlSchema = z.object({ command: z.string().nullable(), notes: z.array(z.string()) })

/** One entry with everything, and its `curl`. */
export const JournalEntryDetailSchema = JournalSummarySchema.extend({
  requestHeaders: z.array(JournalHeaderSchema),
  requestBody: JournalBodySchema.nullable(),
  responseHeaders: z.array(JournalHeaderSchema),
  responseBody: JournalBodySchema.nullable(),
  socket: JournalSocketSchema.nullable(),
  curl: JournalCurlSchema,
})
export type JournalEntryDetail = z.infer<typeof JournalEntryDetailSchema>
