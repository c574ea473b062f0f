import { toWesternDigits } from '../dialogue/spoken-numbers'
import { diacritiseArabic } from './arabic-lexicon'
import { ARABIC_SPEAKER, ENGLISH_SPEAKER, type CurrencyId, type DayPeriod, type Speaker } from './speech-speakers'

/**
 * Text as the voice can say it, in the voice's language, just before eSpeak: digits,
 * numbers, clock times, dates, amounts, percentages, phone numbers, identifiers and emails
 * become words ("10:00 am" → "ten a.m.", "10:00 صباحًا" → "الْعَاشِرَه صَبَاحًا",
 * "BN-58231" → "B N five eight two three one"); Latin capitals inside Arabic are spelled
 * with Arabic letter names; Arabic words the lexicon knows get their vowels.
 * One left-to-right pass of one regular expression: linear in the length of the text.
 */
export type SpeechLanguage = 'ar' | 'en'

const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`
const CODES = 'SAR|USD|EGP|AED|EUR|GBP|KWD|QAR'
/** Arabic currency words after an amount, with whatever ending they carry ("ريالًا", "جنيهات"). */
const ARABIC_CURRENCY = String.raw`(?:ريال|ر\.س|جنيه|دولار|درهم|يورو|دينار)[\u0621-\u0652]*`
const PERIOD = String.raw`[AaPp]\.?\s?[Mm]\.?(?![A-Za-z])|صباحًا|صباحا|صباح|مساءً|مساءا|مساء|ظهرًا|ظهرا`

/**
 * Every token the pass rewrites, in priority order. Each alternative that can start inside a
 * run of letters or digits has a look-behind, so it is tried only at the run's start: a long
 * run is scanned a bounded number of times, never once per character.
 */
const TOKENS = new RegExp(
  [
    String.raw`(?<email>(?<![\w.%+-])[\w.%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)`,
    String.raw`(?<iso>(?<![\d-])(?<isoYear>\d{4})-(?<isoMonth>\d{2})-(?<isoDay>\d{2})(?![\d-]))`,
    String.raw`(?<time>(?<![\d:.])(?<hour>\d{1,2}):(?<minute>\d{2})(?![\d:])(?:\s?(?<period>${PERIOD}))?)`,
    String.raw`(?<hourOnly>(?<![\w:.])(?<bareHour>\d{1,2})\s?(?<barePeriod>[AaPp]\.?[Mm]\.?)(?![A-Za-z]))`,
    String.raw`(?<dayMonth>(?<![\d/])(?<day>\d{1,2})/(?<month>\d{1,2})(?:/(?<year>\d{4}|\d{2}))?(?![\d/]))`,
    String.raw`(?<phone>(?<![\w+])\+\d[\d -]{6,}\d(?!\d)|(?<![\w-])\d{2,4}(?:[ -]\d{2,4}){2,}(?![\w-]))`,
    String.raw`(?<ordinal>(?<![\w.])(?<ordinalNumber>\d+)(?:st|nd|rd|th)(?![A-Za-z0-9]))`,
    String.raw`(?<identifier>(?<![\w-])(?=[\w-]*[A-Za-z])(?=[\w-]*\d)[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*(?![\w-]))`,
    String.raw`(?<symbolMoney>(?<symbol>[$€£])\s?(?<symbolAmount>${NUMBER}))`,
    String.raw`(?<codeMoney>(?<![A-Za-z])(?<code>${CODES})\s?(?<codeAmount>${NUMBER}))`,
    String.raw`(?<suffixMoney>(?<!\d)(?<suffixAmount>${NUMBER})\s?(?<suffix>(?:${CODES})(?![A-Za-z])|${ARABIC_CURRENCY}))`,
    String.raw`(?<percent>(?<!\d)(?<percentAmount>${NUMBER})\s?[%٪])`,
    String.raw`(?<number>(?<!\d)(?:${NUMBER}))`,
    String.raw`(?<capitals>(?<![A-Za-z])[A-Z]{1,5}(?![A-Za-z]))`,
  ].join('|'),
  'g',
)

const SYMBOL_CURRENCY: Readonly<Record<string, CurrencyId>> = { $: 'usd', '€': 'eur', '£': 'gbp' }
const ARABIC_CURRENCY_IDS: ReadonlyArray<[RegExp, CurrencyId]> = [
  [/^(?:ريال|ر\.س)/, 'sar'],
  [/^جنيه/, 'egp'],
  [/^دولار/, 'usd'],
  [/^درهم/, 'aed'],
  [/^يورو/, 'eur'],
  [/^دينار/, 'kwd'],
]

function currencyOf(written: string): CurrencyId {
  if (/^[A-Z]{3}$/.test(written)) return written.toLowerCase() as CurrencyId
  return ARABIC_CURRENCY_IDS.find(([pattern]) => pattern.test(written))?.[1] ?? 'sar'
}

function periodOf(written: string | undefined): DayPeriod | undefined {
  if (!written) return undefined
  if (/^[Aa]|^صباح/.test(written)) return 'am'
  if (/^ظهر/.test(written)) return 'noon'
  return 'pm'
}

function clock(speaker: Speaker, hourText: string, minuteText: string, periodText: string | undefined): string | undefined {
  const hour = Number(hourText)
  const minute = Number(minuteText)
  let period = periodOf(periodText)
  if (hour > 23 || minute > 59 || (period && hour > 12 && period === 'am')) return undefined
  if (hour > 12) period = 'pm'
  return speaker.clock(hour, minute, period)
}

function date(speaker: Speaker, day: number, month: number, year: number | undefined): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined
  return speaker.date(day, month, year)
}

/** Digit groups of a phone number, read one by one with a pause between groups; a short list of numbers stays numbers. */
function phone(speaker: Speaker, written: string): string {
  const plus = written.startsWith('+')
  const groups = written.replace(/^\+/, '').split(/[ -]+/)
  const digits = groups.join('').length
  if (!plus && !written.startsWith('0') && digits < 8) return groups.map((group) => speaker.number(group)).join(' ')
  return `${plus ? `${speaker.symbols.plus} ` : ''}${groups.map((group) => speaker.digits(group)).join(speaker.groupPause)}`
}

/** "BN-58231" → letters by name, digits one by one, separators as a pause; a longer word inside stays a word. */
function identifier(speaker: Speaker, written: string): string {
  return (written.match(/[A-Za-z]+|\d+/g) ?? [])
    .map((run) => (/\d/.test(run) ? speaker.digits(run) : run.length > 5 && run !== run.toUpperCase() ? run : speaker.letters(run)))
    .join(' ')
}

/** "name.surname@example.com" → "name dot surname at example dot com": words stay words, digits are read one by one. */
function email(speaker: Speaker, written: string): string {
  const { dot, at, dash, underscore, plus } = speaker.symbols
  const said: Readonly<Record<string, string>> = { '.': dot, '@': at, '-': dash, _: underscore, '+': plus, '%': 'percent' }
  return (written.match(/[A-Za-z]+|\d+|[^A-Za-z\d]/g) ?? [])
    .map((piece) => said[piece] ?? (/\d/.test(piece) ? speaker.digits(piece) : piece))
    .join(' ')
}

type Groups = Partial<Record<string, string>>

/** The words for one matched token, or undefined to leave it as written. */
function say(speaker: Speaker, language: SpeechLanguage, groups: Groups): string | undefined {
  // Only the groups of the alternative that matched are set; `g` reads one of those.
  const g = (name: string): string => groups[name] ?? ''
  if (groups.email) return email(speaker, g('email'))
  if (groups.iso) return date(speaker, Number(g('isoDay')), Number(g('isoMonth')), Number(g('isoYear')))
  if (groups.time) return clock(speaker, g('hour'), g('minute'), groups.period)
  if (groups.hourOnly) return clock(speaker, g('bareHour'), '0', g('barePeriod'))
  if (groups.dayMonth) {
    const year = groups.year === undefined ? undefined : Number(g('year').length === 2 ? `20${g('year')}` : g('year'))
    return date(speaker, Number(g('day')), Number(g('month')), year)
  }
  if (groups.phone) return phone(speaker, g('phone'))
  if (groups.ordinal)
    return g('ordinalNumber').length > 6 ? speaker.number(g('ordinalNumber')) : speaker.ordinal(Number(g('ordinalNumber')))
  if (groups.identifier) return identifier(speaker, g('identifier'))
  if (groups.symbolMoney) return speaker.money(g('symbolAmount'), SYMBOL_CURRENCY[g('symbol')] ?? 'usd')
  if (groups.codeMoney) return speaker.money(g('codeAmount'), g('code').toLowerCase() as CurrencyId)
  if (groups.suffixMoney) return speaker.money(g('suffixAmount'), currencyOf(g('suffix')))
  if (groups.percent) return speaker.percent(g('percentAmount'))
  if (groups.number) return speaker.number(g('number'))
  // Capitals inside English are left to eSpeak, which spells acronyms and says words it knows ("NASA").
  if (groups.capitals && language === 'ar') return speaker.letters(g('capitals'))
  return undefined
}

/** The matched text's words, with a space against a neighbouring letter or digit so they never fuse with it. */
function padded(words: string, text: string, offset: number, length: number): string {
  const before = offset > 0 && /[\p{L}\p{N}]/u.test(text.charAt(offset - 1)) ? ' ' : ''
  const after = offset + length < text.length && /[\p{L}\p{N}]/u.test(text.charAt(offset + length)) ? ' ' : ''
  return `${before}${words}${after}`
}

/** `text` (already whitespace-normalised) as words the voice of `language` can say. */
export function speakableText(text: string, language: SpeechLanguage): string {
  const speaker = language === 'ar' ? ARABIC_SPEAKER : ENGLISH_SPEAKER
  const western = toWesternDigits(text)
  const pieces: string[] = []
  let end = 0
  for (const match of western.matchAll(TOKENS)) {
    const words = say(speaker, language, match.groups ?? {})
    if (words === undefined) continue
    pieces.push(western.slice(end, match.index), padded(words, western, match.index, match[0].length))
    end = match.index + match[0].length
  }
  pieces.push(western.slice(end))
  const spoken = pieces.join('')
  return language === 'ar' ? diacritiseArabic(spoken) : spoken
}
