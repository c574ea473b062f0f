import { z } from 'zod'
import { HttpUrlSchema, UuidSchema, envelopeOf, humanName, nonBlankText } from './common'
import { JobSchema, JobWebhookAuthSchema } from './jobs'

/** The languages a translation goes to (and may be said to come from). */
export const TRANSLATION_LANGUAGES = ['ar', 'en'] as const
export const TranslationLanguageSchema = z.enum(TRANSLATION_LANGUAGES, { message: 'Must be ar (Arabic) or en (English)' })
export type TranslationLanguage = z.infer<typeof TranslationLanguageSchema>

export const TRANSLATION_TEXT_MAX = 20_000
export const TRANSLATION_TITLE_MAX = 200

/**
 * `POST /v1/jobs/translate`. The cloud's public reference does not show how a translation is
 * made, so this route and its body are VoiceDesk's own (docs/api.md, "Translation jobs").
 * Exactly one source: `jobId` (a COMPLETED transcription or translation) or `text`.
 */
export const TranslateBodySchema = z
  .object({
    jobId: UuidSchema.optional().meta({
      description:
        'A COMPLETED TRANSCRIPTION or TRANSLATION job of this project to translate (its segments keep their times). Give this or text.',
    }),
    text: nonBlankText(TRANSLATION_TEXT_MAX)
      .optional()
      .meta({ description: 'A text to translate, 1 to 20,000 characters. Give this or jobId.' }),
    toLng: TranslationLanguageSchema,
    fromLng: TranslationLanguageSchema.optional().meta({
      description:
        "The source's language; left out, the source job's language, else a guess from the text (Arabic letters, English function words). Must differ from toLng.",
    }),
    title: humanName(TRANSLATION_TITLE_MAX)
      .optional()
      .meta({ description: "Left out: 'Translation (<toLng>): ' and the source's title or the text's start." }),
    webhookUrl: HttpUrlSchema.optional(),
    webhookAuth: JobWebhookAuthSchema.optional(),
  })
  .strict()
  .superRefine((body, context) => {
    if (body.jobId !== undefined && body.text !== undefined) {
      context.addIssue({ code: 'custom', path: ['text'], message: 'Give either jobId or text, not both: a translation has one source' })
    } else if (body.jobId === undefined && body.text === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['jobId'],
        message: 'Required: the source, as jobId (a COMPLETED transcription or translation) or text',
      })
    }
    if (body.fromLng !== undefined && body.fromLng === body.toLng) {
      context.addIssue({
        code: 'custom',
        path: ['fromLng'],
        message: `The source is already in ${body.toLng}: fromLng must differ from toLng`,
      })
    }
  })
  // The one-source rule in the document's words: exactly one of jobId and text (`not` leaves generated types plain).
  .meta({
    id: 'TranslateBody',
    not: { anyOf: [{ required: ['jobId', 'text'] }, { not: { anyOf: [{ required: ['jobId'] }, { required: ['text'] }] } }] },
  })
export type TranslateBody = z.infer<typeof TranslateBodySchema>

/** A stretch of media and what was said in it (seconds from the media's start), as transcription makes it. */
export const TimedSegmentSchema = z.object({ start: z.number(), end: z.number(), text: z.string() })
export type TimedSegment = z.infer<typeof TimedSegmentSchema>

/**
 * A COMPLETED translation's `jobResponse`. `fromLng` is the source's language when known
 * (null: the model was left to tell); `segments` only when the source had them (each keeps its
 * source's start and end); `sourceText` only for a text source, which is kept there.
 */
export const TranslationResponseSchema = z.object({
  text: z.string(),
  fromLng: z.string().nullable(),
  toLng: TranslationLanguageSchema,
  segments: z.array(TimedSegmentSchema).optional(),
  sourceText: z.string().optional(),
})
export type TranslationResponse = z.infer<typeof TranslationResponseSchema>

export const TranslationJobEnvelopeSchema = envelopeOf(JobSchema)
