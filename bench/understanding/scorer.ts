/**
 * The understanding bench's yardstick: whether an outcome field is right, whether a summary
 * carries a key fact, and which titles and FAQ questions are templates or greetings.
 * Deliberately its own small normaliser, not the engines': a yardstick that shared the
 * measured code's reading of Arabic would share its mistakes too.
 */
import type { FieldKind } from './corpus'

const ARABIC_INDIC_ZERO = 0x0660
const EXTENDED_ARABIC_INDIC_ZERO = 0x06f0

/** Arabic-Indic and Persian digits as 0-9. */
function westernDigits(text: string): string {
  return text
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - ARABIC_INDIC_ZERO))
    .replace(/[\u06F0-\u06F9]/g, (digit) => String(digit.charCodeAt(0) - EXTENDED_ARABIC_INDIC_ZERO))
}

/** Case, Arabic letter variants (hamza forms, ta marbuta, alef maqsura), diacritics, tatweel, digits and punctuation, as one reader would ignore them. */
export function normaliseText(text: string): string {
  return westernDigits(text)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u064B-\u065F\u0670\u0640]/g, '')
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/ة/g, 'ه')
    .replace(/ى/g, 'ي')
    .replace(/ؤ/g, 'و')
    .replace(/ئ/g, 'ي')
    .replace(/[^\p{L}\p{N}:-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const

/** The calendar date it is now in `timeZone`. */
export function todayIn(timeZone: string, now: Date): Date {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  )
  return new Date(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)))
}

const isoOf = (date: Date) => date.toISOString().slice(0, 10)
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000)

/** A date spec of the corpus (see DateSpecSchema) as the ISO date it means today in `timeZone`. */
export function resolveDateSpec(spec: string, timeZone: string, now: Date): string {
  const today = todayIn(timeZone, now)
  if (/^\d{4}-\d{2}-\d{2}$/.test(spec)) return spec
  const offset = /^today(?:([+-]\d+))?$/.exec(spec)
  if (offset) return isoOf(addDays(today, Number(offset[1] ?? 0)))
  const weekday = /^(mon|tue|wed|thu|fri|sat|sun)(\+7)?$/.exec(spec)
  if (weekday) {
    const wanted = WEEKDAYS.indexOf(weekday[1] as (typeof WEEKDAYS)[number])
    const ahead = ((wanted - today.getUTCDay() + 7) % 7 || 7) + (weekday[2] ? 7 : 0)
    return isoOf(addDays(today, ahead))
  }
  const monthDay = /^(\d{2})-(\d{2})$/.exec(spec)
  if (monthDay) {
    const thisYear = new Date(Date.UTC(today.getUTCFullYear(), Number(monthDay[1]) - 1, Number(monthDay[2])))
    return isoOf(thisYear < today ? new Date(Date.UTC(today.getUTCFullYear() + 1, Number(monthDay[1]) - 1, Number(monthDay[2]))) : thisYear)
  }
  throw new Error(`not a date spec: ${spec}`)
}

/** An ISO date from what the engine stored: `YYYY-MM-DD` (or with slashes), or `DD/MM/YYYY`. */
export function parseDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const text = westernDigits(value)
  const iso = /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/.exec(text)
  if (iso) return `${iso[1]}-${iso[2]!.padStart(2, '0')}-${iso[3]!.padStart(2, '0')}`
  const dayFirst = /(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})/.exec(text)
  if (dayFirst) return `${dayFirst[3]}-${dayFirst[2]!.padStart(2, '0')}-${dayFirst[1]!.padStart(2, '0')}`
  return undefined
}

/** `HH:MM` (24 h) from what the engine stored: `15:30`, `3:30 pm`, `3:30 م`, `10 am`, `١٠:٠٠ صباحًا`. */
export function parseTime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const text = normaliseText(value)
  const clock = /(\d{1,2})(?::(\d{2}))?\s*(am|pm|a m|p m|ص|م|صباحا|مساء|مساءا|الصبح|العصر|بالليل)?/.exec(text)
  if (!clock || (clock[2] === undefined && clock[3] === undefined)) return undefined
  let hour = Number(clock[1])
  const minute = Number(clock[2] ?? 0)
  const half = clock[3]?.replace(/\s/g, '')
  const afternoon = half !== undefined && ['pm', 'م', 'مساء', 'مساءا', 'العصر', 'بالليل'].includes(half)
  if (afternoon && hour < 12) hour += 12
  if (half !== undefined && !afternoon && hour === 12) hour = 0
  if (hour > 23 || minute > 59) return undefined
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`
}

export interface FieldScore {
  right: boolean
  /** What counts as right, as compared (dates resolved, alternatives listed). */
  expected: unknown
  got: unknown
}

const isEmpty = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '')

function asBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true'
  return undefined
}

function asInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return value
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(normaliseText(value))) return Number(normaliseText(value))
  return undefined
}

/**
 * Whether one field of an outcome is right. Names and free text compare normalised (see
 * normaliseText), identifiers upper-cased without spaces (letters and separators kept),
 * integers and booleans by value, enum members exactly, dates as ISO after resolving the
 * scenario's spec, times as HH:MM. `text` expectations are words the value must contain.
 * An expected `null` is right only when the value is absent or empty.
 */
export function scoreField(kind: FieldKind, expected: unknown, got: unknown, context: { timeZone: string; now: Date }): FieldScore {
  if (expected === null) return { right: isEmpty(got), expected: null, got }
  const options = Array.isArray(expected) ? (expected as unknown[]) : [expected]
  switch (kind) {
    case 'name': {
      const value = typeof got === 'string' ? normaliseText(got) : undefined
      return {
        right: options.some((option) => normaliseText(String(option)) === value),
        expected: options.length === 1 ? options[0] : options,
        got,
      }
    }
    case 'identifier': {
      const canonical = (text: string) => normaliseText(text).toUpperCase().replace(/\s/g, '')
      const value = typeof got === 'string' || typeof got === 'number' ? canonical(String(got)) : undefined
      return {
        right: options.some((option) => canonical(String(option)) === value),
        expected: options.length === 1 ? options[0] : options,
        got,
      }
    }
    case 'text': {
      const value = typeof got === 'string' ? ` ${normaliseText(got)} ` : ''
      return { right: options.some((option) => value.includes(` ${normaliseText(String(option))} `)), expected: options, got }
    }
    case 'integer':
      return { right: options.includes(asInteger(got)), expected: options.length === 1 ? options[0] : options, got }
    case 'boolean':
      return { right: options.includes(asBoolean(got)), expected: options[0], got }
    case 'enum':
      return { right: options.includes(got), expected: options.length === 1 ? options[0] : options, got }
    case 'date': {
      const resolved = options.map((spec) => resolveDateSpec(String(spec), context.timeZone, context.now))
      return { right: resolved.includes(parseDate(got) ?? '?'), expected: resolved.length === 1 ? resolved[0] : resolved, got }
    }
    case 'time':
      return { right: options.includes(parseTime(got)), expected: options.length === 1 ? options[0] : options, got }
  }
}

/** Whether `text` carries any of `forms` (normalised, on word boundaries). */
export function carries(text: string, forms: readonly string[]): boolean {
  const haystack = ` ${normaliseText(text)} `
  return forms.some((form) => haystack.includes(` ${normaliseText(form)} `))
}

/** Titles that are templates, not made from the text: the patterns the issue names and their kin. */
export const TEMPLATE_TITLE_PATTERNS: readonly RegExp[] = [
  /:\s*what you need to know\s*$/i,
  /:\s*.+\bin focus\s*$/i,
  /:\s*everything you need to know\s*$/i,
  /:\s*a closer look\s*$/i,
  /:\s*key takeaways\s*$/i,
  /^(an? )?(overview|introduction|summary) of\b/i,
  /:\s*(كل )?ما (تحتاج|يجب) (أن )?(تعرفه|معرفته)/,
  /في دائرة الضوء\s*$/,
  /(:|–|-)\s*نظرة (عامة|شاملة|قريبة)/,
  /^(ملخص|مقدمة|نظرة عامة) (عن|حول)\b/,
]

/** Each title of a `titles` part: one a line, list markers and quotes stripped. */
export function titleLines(titles: string): string[] {
  return titles
    .split('\n')
    .map((line) =>
      line
        .replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '')
        .replace(/^["“«]|["”»]$/g, '')
        .trim(),
    )
    .filter(Boolean)
}

/** A template title: one of TEMPLATE_TITLE_PATTERNS, or the text's own first line (or first sentence), word for word. */
export function isTemplateTitle(title: string, sourceText: string): boolean {
  if (TEMPLATE_TITLE_PATTERNS.some((pattern) => pattern.test(title.trim()))) return true
  const firstLine = sourceText.trim().split('\n')[0] ?? ''
  const firstSentence = firstLine.split(/(?<=[.!?؟])\s/)[0] ?? ''
  const plain = normaliseText(title)
  return plain.length > 0 && (plain === normaliseText(firstLine) || plain === normaliseText(firstSentence))
}

/** Questions of an FAQ part: lines (or sentences) that end with ? or ؟, markers stripped. */
export function faqQuestions(faq: string): string[] {
  return faq
    .split('\n')
    .flatMap((line) => line.match(/[^?؟\n]*[?؟]/g) ?? [])
    .map((question) =>
      question
        .replace(/\*+/g, '')
        .replace(/^\s*(?:[-•#]+|\d+[.)]|q\d*[:.]|س\d*[:.])\s*/i, '')
        .trim(),
    )
    .filter((question) => question.length > 1)
}

/** "What is said about …?" and its kin: a question about the text, not one it asks and answers. */
export const TEMPLATE_QUESTION_PATTERNS: readonly RegExp[] = [
  /^what (is|was) said about\b/i,
  /^what does the (text|speaker|transcript) say about\b/i,
  /^ماذا (قيل|يقال|يقول النص) (عن|حول)/,
]

const GREETING_WORDS_EN = /\b(hello|hi|hey|good (morning|afternoon|evening)|thanks|thank you|dear|welcome|goodbye|bye)\b/i
const GREETING_WORDS_AR = ['مرحبا', 'اهلا', 'السلام عليكم', 'صباح الخير', 'مساء الخير', 'يعطيك العافيه', 'شكرا', 'مع السلامه', 'هلا']

/** A greeting, a courtesy or a vocative ("يا أحمد", "dear Sara") in a question, keyword or hashtag. */
export function holdsGreetingOrVocative(text: string): boolean {
  const plain = normaliseText(text.replace(/[#_]/g, ' '))
  if (GREETING_WORDS_EN.test(plain)) return true
  if (/(^| )يا [^ ]+/.test(plain) || /^يا[^ ]{2,}/.test(plain)) return true
  return GREETING_WORDS_AR.some((word) => ` ${plain} `.includes(` ${normaliseText(word)} `))
}

export function isTemplateQuestion(question: string): boolean {
  return TEMPLATE_QUESTION_PATTERNS.some((pattern) => pattern.test(question.trim()))
}

/** The p-th percentile (nearest rank) of `values`; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}
