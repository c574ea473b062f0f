import { normaliseArabic } from './arabic-normalisation'
import { ENGLISH_TENS_WORDS, ENGLISH_UNIT_WORDS } from '../../shared/text/english-number-words'

/**
 * The values a call card reads, as patterns: number words (English; Arabic as written in MSA,
 * Gulf, Egyptian and Levantine speech), dates, times and time windows, amounts, identifiers and
 * counted quantities. Data tables only; call-card.ts decides what they mean in the text.
 */

export type FactKind = 'date' | 'time' | 'amount' | 'identifier' | 'quantity' | 'name'

export interface Fact {
  kind: FactKind
  /** As written in the sentence (a name without its cue word). */
  text: string
  /** Compared to tell one value from another (a weekday's number, a time as h:mm). */
  key: string
  sentence: number
  /** Where it stands in its sentence's text (UTF-16 offsets), end excluded. */
  start: number
  end: number
  /** What an identifier refers to, from its shape and the words around it (see identifierLabel). */
  label?: IdentifierLabel
}

/** What an identifier is: a registration plate is no booking reference, a phone number no order. */
export type IdentifierLabel =
  'plate' | 'prescription' | 'order' | 'booking' | 'account' | 'case' | 'file' | 'invoice' | 'tracking' | 'phone' | 'email' | 'reference'

const EN_UNITS: readonly string[] = ENGLISH_UNIT_WORDS
const EN_TENS = ENGLISH_TENS_WORDS
const EN_NUMBER_WORD = `(?:${[...EN_UNITS, ...EN_TENS, 'hundred', 'thousand', 'million', 'half', 'a', 'and'].join('|')})`
/** "sixty", "one hundred and eighty", "four and a half thousand", "forty-three", "850" (not a year): starts and ends on a number word. */
const EN_NUMBER = `(?:(?!(?:19|20)\\d{2}\\b)\\d[\\d,.]*|(?:${EN_NUMBER_WORD}[\\s-]+)*?(?:${[...EN_UNITS, ...EN_TENS, 'hundred', 'thousand', 'million'].join('|')}))`
const EN_CURRENCY = '(?:dollars?|pounds?|euros?|riyals?|dirhams?|dinars?|pence|cents?|bucks|quid|rupees?|pesos?)'
const CURRENCY_CODES = '(?:SAR|AED|USD|EUR|GBP|EGP|JOD|KWD|QAR|BHD|OMR|LBP|SYP|IQD|MAD|TND)'
const EN_WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']
const EN_MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december'
const EN_ORDINAL =
  '(?:\\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty-\\w+|thirtieth|thirty-first)'
const EN_HOUR = `(?:\\d{1,2}|${EN_UNITS.slice(1, 13).join('|')})`
const EN_MINUTES = '(?:fifteen|thirty|forty-five|oh \\w+|\\d{2})'
const EN_DAY_PART = "(?:in the (?:morning|afternoon|evening)|at night|a\\.?m\\.?|p\\.?m\\.?|o'clock)"

/** Arabic number words; a leading ب or ل (بمئتين، لستة) is allowed by the patterns. */
const AR_NUMBER_WORDS =
  `واحد واحدة اثنين اثنان اتنين تنين ثلاث ثلاثة تلات تلاتة أربع أربعة اربع اربعة خمس خمسة ست ستة سبع سبعة ثمان ثماني ثمانية تمان تمانية تمن
  تسع تسعة عشر عشرة عشرين عشرون ثلاثين تلاتين أربعين اربعين خمسين ستين سبعين ثمانين تمانين تسعين مية مئة مائة مئتين مئتان ميتين
  ثلاثمية ثلاثمئة تلاتمية تلتمية أربعمية أربعمئة اربعمية خمسمية خمسمئة ستمية ستمئة سبعمية سبعمئة ثمانمية ثمانمئة تمنمية تمانمية تسعمية تسعمئة
  ألف الف آلاف ألفين الفين مليون نص نصف ربع حداش حداشر احدعشر أحد إحدى اثنعشر اتناشر`
    .split(/\s+/)
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
const AR_NUMBER_WORD = `(?:${AR_NUMBER_WORDS.join('|')})`
const AR_NUMBER = `(?:[\\d\\u0660-\\u0669][\\d\\u0660-\\u0669,.٫]*|${AR_NUMBER_WORD}(?:\\s+و?${AR_NUMBER_WORD})*)`
const AR_CURRENCY = '(?:ريال|ريالات|جنيه|جنيهات|دينار|دنانير|درهم|دراهم|دولار|دولارات|ليرة|ليرات|يورو|شيكل|فلس)'
const AR_WEEKDAYS: readonly (readonly string[])[] = [
  ['الأحد', 'الاحد'],
  ['الاثنين', 'الإثنين', 'التنين', 'الاتنين'],
  ['الثلاثاء', 'التلات', 'التلاتاء'],
  ['الأربعاء', 'الاربعاء'],
  ['الخميس'],
  ['الجمعة', 'الجمعه'],
  ['السبت'],
]
const AR_MONTHS =
  'يناير|فبراير|مارس|أبريل|ابريل|مايو|يونيو|يوليو|أغسطس|اغسطس|سبتمبر|أكتوبر|اكتوبر|نوفمبر|ديسمبر|كانون الثاني|شباط|آذار|نيسان|أيار|حزيران|تموز|آب|أيلول|تشرين الأول|تشرين الثاني|كانون الأول'
const AR_DAY_PART = '(?:الصبح|صباحا|صباحًا|الصباح|الظهر|العصر|المغرب|المسا|مساء|مساءً|بالليل|الليل|ص|م)'
const AR_FRACTION = '(?:و?نص|ونصف|وربع|إلا ربع|الا ربع|إلا ربع|وتلت|وثلث)'
/** Arabic word boundaries: JavaScript's \b knows only Latin letters. */
export const AR_START = '(?<![\\p{L}\\p{N}])'
export const AR_END = '(?![\\p{L}\\p{N}])'

export interface Pattern {
  kind: FactKind
  regex: RegExp
  /** The value compared; by default the matched text normalised. */
  key?: (match: RegExpExecArray) => string
  /** The group holding the value when the match includes a cue word. */
  group?: number
  /** A last check on the matched text. */
  accept?: (text: string) => boolean
}

export const plainKey = (text: string) =>
  normaliseArabic(text.toLowerCase())
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

function englishNumberValue(text: string): number | undefined {
  const lower = text.toLowerCase().trim()
  if (/^\d{1,2}$/.test(lower)) return Number(lower)
  const unit = EN_UNITS.indexOf(lower)
  return unit >= 0 ? unit : undefined
}

/** A time as `h:mm` on a 12-hour dial: "half past two", "2:30 pm" and "two thirty" are one time. */
function englishTimeKey(text: string): string {
  const lower = text.toLowerCase().replace(/^at\s+/, '')
  const half = /^(half|quarter) (past|to) (\w+)/.exec(lower)
  if (half) {
    const hour = englishNumberValue(half[3]!) ?? 0
    if (half[1] === 'half') return `${hour % 12}:30`
    return half[2] === 'past' ? `${hour % 12}:15` : `${(hour + 11) % 12}:45`
  }
  const clock = /^(\w+)(?::(\d{2})|\s+(fifteen|thirty|forty-five))?/.exec(lower)
  const hour = englishNumberValue(clock?.[1] ?? '') ?? -1
  const minutes = clock?.[2] ?? { fifteen: '15', thirty: '30', 'forty-five': '45' }[clock?.[3] ?? ''] ?? '00'
  return hour < 0 ? plainKey(text) : `${hour % 12}:${minutes}`
}

const AR_HOURS: Record<string, number> = Object.fromEntries(
  (
    [
      [1, 'واحد واحدة'],
      [2, 'اثنين اتنين تنين'],
      [3, 'ثلاث ثلاثة تلات تلاتة'],
      [4, 'أربع أربعة اربع اربعة'],
      [5, 'خمس خمسة'],
      [6, 'ست ستة'],
      [7, 'سبع سبعة'],
      [8, 'ثمان ثماني ثمانية تمان تمانية'],
      [9, 'تسع تسعة'],
      [10, 'عشر عشرة'],
      [11, 'حداش حداشر احدعشر'],
      [12, 'اثنعشر اتناشر'],
    ] as const
  ).flatMap(([hour, words]) => words.split(' ').map((word) => [normaliseArabic(word), hour])),
)

/** An Arabic clock time as `h:mm` on a 12-hour dial, from its hour ("عشرة", "١٠:٣٠") and fraction ("ونص", "إلا ربع"). */
function arabicClockKey(hourWords: string, fraction: string | undefined, whole: string): string {
  const hourText = hourWords.replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
  const hour = /^\d+/.test(hourText) ? Number(/^\d+/.exec(hourText)![0]) : AR_HOURS[normaliseArabic(hourText.split(/\s/)[0]!)]
  if (hour === undefined) return plainKey(whole)
  const minutes =
    /:(\d{2})/.exec(hourText)?.[1] ??
    (/نص/.test(fraction ?? '') ? '30' : /ربع/.test(fraction ?? '') ? (/ا?لا/.test(fraction!) ? '45' : '15') : '00')
  return `${(/ا?لا ربع/.test(fraction ?? '') ? hour + 11 : hour) % 12}:${minutes}`
}

const arabicTimeKey = (match: RegExpExecArray) => arabicClockKey(match[1]!, match[2], match[0])

const arabicWeekdayKey = (text: string) =>
  String(
    AR_WEEKDAYS.findIndex((forms) =>
      forms.some((form) => normaliseArabic(text.replace(/^(?:يوم\s+)?[وف]?لل/u, 'ال')).includes(normaliseArabic(form))),
    ),
  )
/** A weekday with ل fused on: "للخميس" is ل + الخميس with the alef dropped. */
const AR_WEEKDAY_AFTER_LI = AR_WEEKDAYS.flat()
  .filter((form) => form.startsWith('ال'))
  .map((form) => `لل${form.slice(2)}`)
/** An hour as said in Arabic: digits ("10", "١٠:٣٠") or words ("عشرة", "خمسة عشر", "اتناشر"). */
const AR_HOUR = `(?:[\\d\\u0660-\\u0669]{1,2}(?::[\\d\\u0660-\\u0669]{2})?|${AR_NUMBER_WORD}(?:\\s+عشر)?)`
/** An hour with its fraction, optionally after الساعة: the two ends of a window. */
const AR_WINDOW_END = `(?:(?:ال|ب)?ساعة\\s+)?(${AR_HOUR})(?:\\s+(${AR_FRACTION}))?`

/** A window "between ten and twelve" as `10:00-12:00`, each end keyed like a single time. */
function englishWindowKey(match: RegExpExecArray): string {
  return `${englishTimeKey(match[1]!)}-${englishTimeKey(match[2]!)}`
}

/** "بين الساعة عشرة واتناشر" (groups 1-2 and 5-6) or "من الساعة عشرة لحد اتناشر" (groups 3-4 and 5-6). */
function arabicWindowKey(match: RegExpExecArray): string {
  return `${arabicClockKey(match[1] ?? match[3]!, match[2] ?? match[4], match[0])}-${arabicClockKey(match[5]!, match[6], match[0])}`
}

/** Digits of a phone number written with spaces or dashes ("07700 900 412", "+971 50 123 4567"): 9 to 15 of them. */
const PHONE = /(?<![\p{L}\p{N}-])(?:(?:\+\d{1,3}[\s-]?)?0?\d{2,5}(?:[\s-]\d{2,5}){1,4}|[+0]\d{8,14})(?![\p{L}\p{N}-])/gu
const phoneDigits = (text: string) => text.replace(/\D/g, '').length

// A bare hour after "at" ("at four", "at ten on Monday") is a time only where a time can end: "at one point" is not one.
export const PATTERNS: readonly Pattern[] = [
  // Identifiers: letters and digits together (BN-58231, KX19 LMP), or a long number after a reference word.
  {
    kind: 'identifier',
    regex: /\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])(?=[A-Z0-9-]{4})[A-Z0-9]{2,}(?:[-/][A-Z0-9]+)*(?:\s[A-Z]{2,4}\b(?![a-z]))?/g,
  },
  {
    kind: 'identifier',
    regex:
      /(?:number|account|order|reference|ref|ticket|case|رقم|حساب|طلب)\s*(?:is\s+|:\s*)?#?([\d\u0660-\u0669][\d\u0660-\u0669 -]{3,}[\d\u0660-\u0669])/giu,
    group: 1,
  },
  // A phone number: a leading 0 or +, 9 to 15 digits in groups (a price or a year never looks like this).
  { kind: 'identifier', regex: PHONE, accept: (text) => /^[+0]/.test(text) && phoneDigits(text) >= 9 && phoneDigits(text) <= 15 },
  // An email address is how to reach someone: a reference like any other.
  { kind: 'identifier', regex: /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g },
  // Amounts: a number and a currency word, a symbol before it, or an ISO code either side ("SAR 200", "200 AED").
  { kind: 'amount', regex: new RegExp(`\\b${CURRENCY_CODES}\\s?\\d[\\d,.]*|\\b\\d[\\d,.]*\\s?${CURRENCY_CODES}\\b`, 'g') },
  {
    kind: 'amount',
    regex: new RegExp(
      `[$£€]\\s?\\d[\\d,.]*(?:\\s?(?:k|thousand|million))?|\\b${EN_NUMBER}\\s+(?:thousand\\s+|million\\s+)?${EN_CURRENCY}\\b`,
      'gi',
    ),
  },
  { kind: 'amount', regex: new RegExp(`${AR_START}[بل]?${AR_NUMBER}\\s+(?:ألف\\s+|الف\\s+)?${AR_CURRENCY}${AR_END}`, 'gu') },
  // Dates.
  {
    kind: 'date',
    // "since Monday", "last Friday" date the past, not a slot.
    // "on Mondays" is the Monday of every week.
    regex: new RegExp(`(?<!\\b(?:since|last|from last)\\s)\\b(?:${EN_WEEKDAYS.join('|')})s?(?:\\s+the\\s+${EN_ORDINAL})?\\b`, 'gi'),
    // "Saturday the 9th" and "Saturday the 16th" are two dates: the ordinal is part of the value.
    key: (match) =>
      [
        String(EN_WEEKDAYS.indexOf(match[0].split(/\s/)[0]!.toLowerCase().replace(/s$/, ''))),
        ...match[0].toLowerCase().split(/\s+/).slice(2),
      ].join(' '),
  },
  {
    kind: 'date',
    regex: new RegExp(
      `\\b(?:the\\s+)?${EN_ORDINAL}\\s+of\\s+(?:${EN_MONTHS})\\b|\\b(?:${EN_MONTHS})\\s+\\d{1,2}(?:st|nd|rd|th)?\\b|\\b(?:tomorrow|the day after tomorrow)\\b`,
      'gi',
    ),
  },
  {
    kind: 'date',
    regex: new RegExp(
      `${AR_START}(?<!(?:منذ|من|من يوم)\\s)(?:يوم\\s+)?(?:[وبل]?(?:${AR_WEEKDAYS.flat().join('|')})|[وف]?(?:${AR_WEEKDAY_AFTER_LI.join('|')}))(?:\\s+(?:الجاي|الجاية|الجاي|القادم|الماضي))?${AR_END}`,
      'gu',
    ),
    key: (match) => arabicWeekdayKey(match[0]),
  },
  {
    kind: 'date',
    regex: new RegExp(
      `${AR_START}(?:ال\\p{L}+\\s+(?:عشر\\s+)?|[\\d\\u0660-\\u0669]{1,2}\\s+|[لب]?${AR_NUMBER_WORD}(?:\\s+عشر)?\\s+)(?:من\\s+)?(?:${AR_MONTHS})${AR_END}|${AR_START}(?:بعد\\s+(?:بكرة|بكره|بكرا|غدا|غدًا)|بكرة|بكره|بكرا|غدا|غدًا)${AR_END}`,
      'gu',
    ),
  },
  // Parts of a month or week: "the end of the month", "early March", "أول الشهر", "آخر الأسبوع", "الأسبوع الجاي".
  {
    kind: 'date',
    regex: new RegExp(
      `\\b(?:the\\s+)?(?:start|beginning|end|middle)\\s+of\\s+(?:the\\s+|next\\s+|this\\s+)?(?:month|week|year|${EN_MONTHS})\\b|\\b(?:early|mid|late)[\\s-](?:${EN_MONTHS})\\b|\\bnext\\s+(?:week|month)\\b`,
      'gi',
    ),
  },
  {
    kind: 'date',
    regex: new RegExp(
      `${AR_START}(?:[وبل]|لل)?(?:أول|اول|آخر|اخر|نص|منتصف|نهاية|بداية|مطلع)\\s+(?:الشهر|شهر\\s+\\p{L}+|الأسبوع|الاسبوع|الجمعة|السنة|${AR_MONTHS})(?:\\s+(?:الجاي|الجاية|الجاي|القادم|القادمة|هذا))?${AR_END}|${AR_START}[وبل]?(?:الأسبوع|الاسبوع|الشهر|الجمعة)\\s+(?:الجاي|الجاية|القادم|القادمة|اللي جاي)${AR_END}`,
      'gu',
    ),
  },
  // Time windows, before single times: "between ten and twelve", "10 to 12 am", "بين الساعة عشرة واتناشر".
  {
    kind: 'time',
    regex: new RegExp(
      `\\bbetween\\s+(${EN_HOUR}(?::\\d{2})?(?:\\s?(?:a\\.?m\\.?|p\\.?m\\.?))?)\\s+and\\s+(${EN_HOUR}(?::\\d{2})?(?:\\s?(?:a\\.?m\\.?|p\\.?m\\.?))?)(?:\\s+${EN_DAY_PART})?|\\b(?:from\\s+)?(${EN_HOUR}(?::\\d{2})?)\\s*(?:-|–|to|till|until)\\s*(${EN_HOUR}(?::\\d{2})?)\\s*(?:a\\.?m\\.?|p\\.?m\\.?|${EN_DAY_PART})`,
      'gi',
    ),
    key: (match) => (match[1] ? englishWindowKey(match) : `${englishTimeKey(match[3]!)}-${englishTimeKey(match[4]!)}`),
  },
  {
    kind: 'time',
    regex: new RegExp(
      `${AR_START}(?:بين\\s+${AR_WINDOW_END}\\s+و\\s*|من\\s+(?:ال|ب)?ساعة\\s+(${AR_HOUR})(?:\\s+(${AR_FRACTION}))?\\s+(?:إلى|الى|لحد|لين|حتى|لغاية|ل)\\s*)${AR_WINDOW_END}(?:\\s+${AR_DAY_PART})?${AR_END}`,
      'gu',
    ),
    key: arabicWindowKey,
  },
  // Times.
  {
    kind: 'time',
    regex: new RegExp(
      `\\b(?:half|quarter)\\s+(?:past|to)\\s+${EN_HOUR}(?:\\s+${EN_DAY_PART})?|\\b\\d{1,2}:\\d{2}(?:\\s?(?:a\\.?m\\.?|p\\.?m\\.?))?|\\b\\d{1,2}\\s?(?:a\\.?m\\.?|p\\.?m\\.?)|\\b(?<=at\\s)${EN_HOUR}(?:\\s+${EN_MINUTES})?(?:\\s+${EN_DAY_PART})?\\b(?=\\s*(?:[.,;!?]|$)|\\s+(?:on|with|for|then|and|is|works|tomorrow|today|sharp)\\b)|\\b${EN_HOUR}(?:\\s+${EN_MINUTES})?\\s+${EN_DAY_PART}|\\b${EN_HOUR}\\s+(?:fifteen|thirty|forty-five)\\b`,
      'gi',
    ),
    key: (match) => englishTimeKey(match[0]),
  },
  {
    kind: 'time',
    regex: new RegExp(
      `${AR_START}(?:ال|ب|لل)?ساعة\\s+([\\d\\u0660-\\u0669]{1,2}(?::[\\d\\u0660-\\u0669]{2})?|${AR_NUMBER_WORD}(?:\\s+عشر)?)(?:\\s+(${AR_FRACTION}))?(?:\\s+${AR_DAY_PART})?${AR_END}`,
      'gu',
    ),
    key: arabicTimeKey,
  },
  // Quantities: a number and what it counts ("twelve cooling centres", "تلات غرف").
  {
    kind: 'quantity',
    regex: new RegExp(
      `\\b(?:room|floor|gate|flat|unit|aisle)\\s+\\d+\\b|\\b${EN_NUMBER}(?:\\s+(?!(?:${EN_CURRENCY}|${EN_DAY_PART}|o'clock|and|or|of|to|at|in|the|a)\\b)[a-z][a-z-]+){1,2}`,
      'gi',
    ),
  },
  {
    kind: 'quantity',
    regex: new RegExp(
      `${AR_START}[بل]?${AR_NUMBER}(?:\\s+(?!(?:${AR_CURRENCY}|${AR_DAY_PART}|من|في|على)(?![\\p{L}\\p{M}])|و)[\\p{L}\\p{M}]{2,}){1,2}`,
      'gu',
    ),
  },
]

/**
 * Words that say what an identifier is, nearest first wins ("booking reference KM-4410" is a
 * booking). Arabic cues match inside words, so clitics need no list (للأوردر، بالحجز، جوالي).
 */
const IDENTIFIER_CUES: readonly [IdentifierLabel, RegExp][] = [
  ['plate', /\b(?:registration|reg|plates?|number plate|licen[cs]e plate)\b|لوح[ةه]|نمر[ةه]/giu],
  ['prescription', /\b(?:prescription|rx)\b|وصف[ةه]|روشت[ةه]/giu],
  ['order', /\border\b|أوردر|اوردر|اردر|طلب/giu],
  ['booking', /\b(?:booking|reservation|appointment|confirmation)\b|حجز|موعد/giu],
  ['account', /\b(?:account|membership|customer number)\b|حساب|عضوي[ةه]/giu],
  ['case', /\b(?:ticket|case|complaint|claim|incident)\b|بلاغ|شكوى|شكوي|تذكر[ةه]|مطالب[ةه]/giu],
  ['file', /\b(?:file|record|patient number)\b|ملف/giu],
  ['invoice', /\b(?:invoice|bill)\b|فاتور[ةه]/giu],
  ['tracking', /\b(?:tracking|parcel|shipment|consignment|waybill)\b|شحن[ةه]|تتبع|بوليص[ةه]/giu],
  ['phone', /\b(?:phone|mobile|cell|call me|ring me|reach me|text me|my number|whatsapp)\b|جوال|موبايل|تلفون|تليفون|هاتف|رقمي|واتس/giu],
]
/** How far before an identifier its cue may stand: a few words, not the start of a long sentence. */
const CUE_REACH = 40
/** A British registration (two letters, two digits, three letters) needs no cue. */
const UK_PLATE = /^[A-Z]{2}\d{2}\s?[A-Z]{3}$/

/** The nearest cue in `text` (searched from its end), as a label and how far from the end it stands. */
function nearestCue(text: string): { label: IdentifierLabel; distance: number } | undefined {
  let best: { label: IdentifierLabel; distance: number } | undefined
  for (const [label, cue] of IDENTIFIER_CUES) {
    for (const match of text.matchAll(cue)) {
      const distance = text.length - (match.index + match[0].length)
      if (!best || distance < best.distance) best = { label, distance }
    }
  }
  return best
}

/**
 * What an identifier is, by its shape (an email, a phone number, a British plate) and by the
 * words before it in its sentence; a read-back ("WN18 KPT, got it") takes the word of the
 * question that asked for it a few sentences before ("What's the registration?").
 */
export function identifierLabel(text: string, before: string, askedBefore: readonly string[]): IdentifierLabel {
  if (text.includes('@')) return 'email'
  if (/^[+0]/.test(text) && phoneDigits(text) >= 9 && !/[A-Za-z]/.test(text)) return 'phone'
  const near = nearestCue(before.slice(-CUE_REACH))
  if (near) return near.label
  if (UK_PLATE.test(text)) return 'plate'
  for (const question of askedBefore) {
    const asked = nearestCue(question)
    if (asked) return asked.label
  }
  return 'reference'
}
