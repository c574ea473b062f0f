import { TranscriptionResponseSchema, type Job } from '../../../shared/api/jobs'
import { TranslationResponseSchema, type TranslationLanguage } from '../../../shared/api/translation-jobs'

/** A timed line of a transcript: what was said from `start` to `end` (seconds of the media); a translation's line has its source beside it. */
export interface TranscriptLine {
  start: number
  end: number
  text: string
  /** The source segment's text, when a translation's source has as many segments. */
  source?: string
}

/** A finished transcription or translation as the detail shows it. */
export interface TranscriptView {
  kind: 'transcription' | 'translation'
  /** The whole text (what "copy" copies). */
  text: string
  /** Timed lines; empty for a translation of a plain text. */
  lines: TranscriptLine[]
  /** A transcription: the language heard (detected, else asked for); a translation: its source's. */
  fromLng: string | null
  /** A translation's target. */
  toLng: string | null
  /** Seconds of media, when known. */
  durationSeconds: number | null
  /** A translation's whole source text: its text source, or its source job's text. */
  sourceText: string | null
}

/** A job's stored text result, or null: its `jobResponse.text`. */
function textOf(job: Job | null): string | null {
  const text = job?.jobResponse?.text
  return typeof text === 'string' ? text : null
}

/** The segments a job holds (a transcription's, a translation's of one), or null. */
function segmentsOf(job: Job | null): { start: number; end: number; text: string }[] | null {
  if (!job?.jobResponse) return null
  const parsed = (job.type === 'TRANSCRIPTION' ? TranscriptionResponseSchema : TranslationResponseSchema).safeParse(job.jobResponse)
  return parsed.success ? (parsed.data.segments ?? null) : null
}

/** The job's media length: its stored usage, else how far its segments reach. */
function durationOf(job: Job, segments: readonly { end: number }[]): number | null {
  const response = job.jobResponse
  if (job.type === 'TRANSCRIPTION' && typeof response?.durationSeconds === 'number') return response.durationSeconds
  const usage = job.usageTime === null ? NaN : Number(job.usageTime)
  if (Number.isFinite(usage) && usage > 0) return usage
  return segments.at(-1)?.end ?? null
}

/**
 * What a COMPLETED transcription or translation shows, read from its `jobResponse` (null for
 * another type, or a result this version cannot read). A translation's lines carry their source's
 * text when `source` (the job it was made from) has as many segments: the translation keeps one
 * segment per source segment, in order, so they pair by position.
 */
export function transcriptViewOf(job: Job, source: Job | null): TranscriptView | null {
  if (job.status !== 'COMPLETED' || !job.jobResponse) return null
  if (job.type === 'TRANSCRIPTION') {
    const parsed = TranscriptionResponseSchema.safeParse(job.jobResponse)
    if (!parsed.success) return null
    const { text, language, segments } = parsed.data
    return {
      kind: 'transcription',
      text,
      lines: segments.map(({ start, end, text: said }) => ({ start, end, text: said })),
      fromLng: language ?? job.fromLng,
      toLng: null,
      durationSeconds: durationOf(job, segments),
      sourceText: null,
    }
  }
  if (job.type === 'TRANSLATION') {
    const parsed = TranslationResponseSchema.safeParse(job.jobResponse)
    if (!parsed.success) return null
    const { text, fromLng, toLng, segments = [], sourceText } = parsed.data
    const sourceSegments = source && source.id === job.relevantJobId ? segmentsOf(source) : null
    const paired = sourceSegments !== null && sourceSegments.length === segments.length
    return {
      kind: 'translation',
      text,
      lines: segments.map(({ start, end, text: said }, index) => {
        const heard = paired ? sourceSegments[index]?.text : undefined
        return { start, end, text: said, ...(heard === undefined ? {} : { source: heard }) }
      }),
      fromLng: fromLng ?? job.fromLng,
      toLng,
      durationSeconds: segments.length > 0 ? durationOf(job, segments) : null,
      sourceText: sourceText ?? (source && source.id === job.relevantJobId ? textOf(source) : null),
    }
  }
  return null
}

/** The line playing at `position` (seconds): the last one started by then, or -1. Binary search: a two-hour transcript has thousands. */
export function lineIndexAt(lines: readonly { start: number }[], position: number): number {
  let low = 0
  let high = lines.length - 1
  let found = -1
  while (low <= high) {
    const middle = (low + high) >> 1
    const line = lines[middle]
    if (line !== undefined && line.start <= position + 0.05) {
      found = middle
      low = middle + 1
    } else high = middle - 1
  }
  return found
}

/**
 * A file name for a job's subtitles: its title without the characters file systems refuse
 * (or that hide a path), on one line, at most 80 characters, then the format's extension.
 * Arabic and other letters stay as they are.
 */
export function subtitleFileName(title: string, format: 'srt' | 'vtt'): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a file name must not hold
  const cleaned = [...title.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ').replace(/\s+/g, ' ')]
    .slice(0, 80)
    .join('')
    .replace(/^[\s.]+|[\s.]+$/g, '')
  return `${cleaned || 'subtitles'}.${format}`
}

/** The language a translation of this view most likely wants: the other one of Arabic and English. */
export function otherLanguage(view: Pick<TranscriptView, 'kind' | 'fromLng' | 'toLng'>): TranslationLanguage {
  const now = view.kind === 'translation' ? view.toLng : view.fromLng
  return now === 'ar' ? 'en' : 'ar'
}

/** A fraction of work as a whole percent, 0 to 100 (never 100 before the job ended: 0.996 shows 99). */
export function progressPercent(fraction: number): number {
  if (!Number.isFinite(fraction)) return 0
  return Math.min(99, Math.max(0, Math.floor(fraction * 100)))
}
