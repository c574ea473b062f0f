/**
 * Numbers, dates and times as the offline agent says them in a read-back: words, not digits
 * ("Sunday the twenty-ninth of November at one in the afternoon", "يوم الأحد التاسع والعشرين من
 * نوفمبر الساعة الواحدة ظهرًا"). Arabic is in the engine's one register, plain spoken Standard
 * Arabic: Standard words and forms without case endings, numbers in the oblique form every
 * dialect also uses (اثنين، عشرين).
 */

import { ENGLISH_TENS_WORDS, ENGLISH_UNIT_WORDS } from '../../shared/text/english-number-words'

const EN_UNITS = ENGLISH_UNIT_WORDS
const EN_TENS = ['', '', ...ENGLISH_TENS_WORDS]

/** A whole number in English words ("two thousand five hundred"); numbers past a billion, negatives and fractions stay in digits. */
export function englishNumber(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n >= 1e9) return String(n)
  if (n < 20) return EN_UNITS[n]!
  if (n < 100) return EN_TENS[Math.floor(n / 10)]! + (n % 10 ? `-${EN_UNITS[n % 10]}` : '')
  if (n < 1000) return `${EN_UNITS[Math.floor(n / 100)]} hundred${n % 100 ? ` and ${englishNumber(n % 100)}` : ''}`
  const [scale, name] = n < 1e6 ? [1000, 'thousand'] : [1e6, 'million']
  const rest = n % scale
  return `${englishNumber(Math.floor(n / scale))} ${name}${rest ? (rest < 100 ? ' and ' : ' ') + englishNumber(rest) : ''}`
}

const EN_ORDINAL_UNITS = [
  '',
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
]
/** 1–31 as an English ordinal in words: "twenty-ninth". */
export function englishOrdinalWords(n: number): string {
  if (n <= 12) return EN_ORDINAL_UNITS[n] ?? String(n)
  if (n < 20) return `${englishNumber(n)}th`.replace(/tth$/, 'th')
  if (n % 10 === 0) return `${EN_TENS[n / 10]!.replace(/y$/, 'ie')}th`
  return `${EN_TENS[Math.floor(n / 10)]}-${EN_ORDINAL_UNITS[n % 10]}`
}

const AR_UNITS = ['صفر', 'واحد', 'اثنين', 'ثلاثة', 'أربعة', 'خمسة', 'ستة', 'سبعة', 'ثمانية', 'تسعة', 'عشرة']
const AR_TEENS = ['', 'أحد عشر', 'اثنا عشر', 'ثلاثة عشر', 'أربعة عشر', 'خمسة عشر', 'ستة عشر', 'سبعة عشر', 'ثمانية عشر', 'تسعة عشر']
const AR_TENS = ['', 'عشرة', 'عشرين', 'ثلاثين', 'أربعين', 'خمسين', 'ستين', 'سبعين', 'ثمانين', 'تسعين']
const AR_HUNDREDS = ['', 'مئة', 'مئتين', 'ثلاثمئة', 'أربعمئة', 'خمسمئة', 'ستمئة', 'سبعمئة', 'ثمانمئة', 'تسعمئة']

/** A whole number in Arabic words, counted plainly ("ألفين وخمسمئة"); numbers past a billion, negatives and fractions stay in digits. */
export function arabicNumber(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n >= 1e9) return String(n)
  if (n <= 10) return AR_UNITS[n]!
  if (n < 20) return AR_TEENS[n - 10]!
  if (n < 100) return n % 10 ? `${AR_UNITS[n % 10]} و${AR_TENS[Math.floor(n / 10)]}` : AR_TENS[n / 10]!
  if (n < 1000) return AR_HUNDREDS[Math.floor(n / 100)]! + (n % 100 ? ` و${arabicNumber(n % 100)}` : '')
  const [scale, one, two, few, many] = n < 1e6 ? [1000, 'ألف', 'ألفين', 'آلاف', 'ألف'] : [1e6, 'مليون', 'مليونين', 'ملايين', 'مليون']
  const count = Math.floor(n / scale)
  const head = count === 1 ? one : count === 2 ? two : count <= 10 ? `${arabicNumber(count)} ${few}` : `${arabicNumber(count)} ${many}`
  return head + (n % scale ? ` و${arabicNumber(n % scale)}` : '')
}

/** Numbers before a feminine noun counted from three to ten take the short form: ثلاث مرات، خمس دقائق. */
const AR_SHORT = ['', '', '', 'ثلاث', 'أربع', 'خمس', 'ست', 'سبع', 'ثماني', 'تسع', 'عشر']
const AR_DUALS: Readonly<Record<string, string>> = { مرة: 'مرتين', دقيقة: 'دقيقتين' }

/** A count of a feminine noun: "مرة واحدة", "مرتين", "خمس مرات", "خمسة عشر مرة". */
export function arabicCountOf(n: number, singular: string, plural: string): string {
  if (n === 1) return `${singular} واحدة`
  if (n === 2) return AR_DUALS[singular] ?? `${arabicNumber(2)} ${plural}`
  return n <= 10 ? `${AR_SHORT[n]} ${plural}` : `${arabicNumber(n)} ${singular}`
}

const AR_ORDINALS = ['', 'الأول', 'الثاني', 'الثالث', 'الرابع', 'الخامس', 'السادس', 'السابع', 'الثامن', 'التاسع', 'العاشر']
/** 1–31 as the day of a month: "التاسع والعشرين", "الحادي عشر". */
export function arabicDayOrdinal(n: number): string {
  if (n <= 10) return AR_ORDINALS[n] ?? String(n)
  const unit = n % 10 === 1 ? 'الحادي' : AR_ORDINALS[n % 10]
  if (n < 20) return `${unit} عشر`
  const tens = `ال${AR_TENS[Math.floor(n / 10)]}`
  return n % 10 ? `${unit} و${tens}` : tens
}

const AR_HOURS = [
  'الثانية عشرة',
  'الواحدة',
  'الثانية',
  'الثالثة',
  'الرابعة',
  'الخامسة',
  'السادسة',
  'السابعة',
  'الثامنة',
  'التاسعة',
  'العاشرة',
  'الحادية عشرة',
]
const EN_WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const AR_WEEKDAYS = ['الأحد', 'الاثنين', 'الثلاثاء', 'الأربعاء', 'الخميس', 'الجمعة', 'السبت']
const AR_MONTHS = ['يناير', 'فبراير', 'مارس', 'أبريل', 'مايو', 'يونيو', 'يوليو', 'أغسطس', 'سبتمبر', 'أكتوبر', 'نوفمبر', 'ديسمبر']

/** "2027" said as a year: "twenty twenty-seven"; Arabic counts it ("ألفين وسبعة وعشرين"). */
function yearWords(year: number, lang: 'ar' | 'en'): string {
  if (lang === 'ar') return arabicNumber(year)
  const [high, low] = [Math.floor(year / 100), year % 100]
  if (low === 0) return `${englishNumber(high)} hundred`
  return `${englishNumber(high)} ${low < 10 ? `oh ${englishNumber(low)}` : englishNumber(low)}`
}

/**
 * A YYYY-MM-DD date in words, the year only when it is not `currentYear`: "Sunday the
 * twenty-ninth of November", "الأحد التاسع والعشرين من نوفمبر". Anything else comes back unchanged.
 */
export function dateInWords(iso: string, lang: 'ar' | 'en', currentYear?: number): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  if (!match) return iso
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const weekday = new Date(year, month - 1, day).getDay()
  const withYear = year !== currentYear
  if (lang === 'ar')
    return `${AR_WEEKDAYS[weekday]} ${arabicDayOrdinal(day)} من ${AR_MONTHS[month - 1]}${withYear ? ` عام ${yearWords(year, 'ar')}` : ''}`
  return `${EN_WEEKDAYS[weekday]} the ${englishOrdinalWords(day)} of ${EN_MONTHS[month - 1]}${withYear ? `, ${yearWords(year, 'en')}` : ''}`
}

function englishDayPart(hour: number): string {
  return hour < 12 ? 'in the morning' : hour < 18 ? 'in the afternoon' : hour < 21 ? 'in the evening' : 'at night'
}
function arabicDayPart(hour: number): string {
  return hour < 4 ? 'ليلًا' : hour < 12 ? 'صباحًا' : hour < 15 ? 'ظهرًا' : hour < 18 ? 'عصرًا' : hour < 22 ? 'مساءً' : 'ليلًا'
}

/** An HH:MM time in words, with the part of the day: "half past seven in the evening", "الساعة السابعة والنصف مساءً". */
export function timeInWords(hhmm: string, lang: 'ar' | 'en'): string {
  const match = /^(\d{2}):(\d{2})$/.exec(hhmm)
  if (!match) return hhmm
  const [hour, minute] = [Number(match[1]), Number(match[2])]
  if (lang === 'en') {
    if (minute === 0 && hour === 12) return 'noon'
    if (minute === 0 && hour === 0) return 'midnight'
    const twelve = (h: number) => englishNumber(h % 12 === 0 ? 12 : h % 12)
    const part = englishDayPart(hour)
    if (minute === 0) return `${twelve(hour)} ${part}`
    if (minute === 15) return `quarter past ${twelve(hour)} ${part}`
    if (minute === 30) return `half past ${twelve(hour)} ${part}`
    if (minute === 45) return `quarter to ${twelve(hour + 1)} ${englishDayPart((hour + 1) % 24)}`
    return `${twelve(hour)} ${minute < 10 ? `oh ${englishNumber(minute)}` : englishNumber(minute)} ${part}`
  }
  const clock = (h: number) => `الساعة ${AR_HOURS[h % 12]}`
  if (minute === 0) return `${clock(hour)} ${arabicDayPart(hour)}`
  if (minute === 15) return `${clock(hour)} والربع ${arabicDayPart(hour)}`
  if (minute === 30) return `${clock(hour)} والنصف ${arabicDayPart(hour)}`
  if (minute === 45) return `${clock(hour + 1)} إلا ربعًا ${arabicDayPart((hour + 1) % 24)}`
  return `${clock(hour)} و${arabicCountOf(minute, 'دقيقة', 'دقائق')} ${arabicDayPart(hour)}`
}

/** A date, a time, or "date time" in words; anything else unchanged. */
export function dateTimeInWords(value: string, lang: 'ar' | 'en', currentYear?: number): string {
  const [date, time] = value.split(/[ T]/)
  const isDate = (part?: string) => part !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(part)
  const isTime = (part?: string) => part !== undefined && /^\d{2}:\d{2}$/.test(part)
  if (isDate(date) && isTime(time))
    return `${dateInWords(date!, lang, currentYear)} ${lang === 'en' ? 'at ' : ''}${timeInWords(time!, lang)}`
  if (isDate(date) && time === undefined) return dateInWords(date!, lang, currentYear)
  if (isTime(date) && time === undefined) return timeInWords(date!, lang)
  return value
}

const ARABIC_LETTER_NAMES: Readonly<Record<string, string>> = {
  a: 'إيه',
  b: 'بي',
  c: 'سي',
  d: 'دي',
  e: 'إي',
  f: 'إف',
  g: 'جي',
  h: 'إتش',
  i: 'آي',
  j: 'جيه',
  k: 'كيه',
  l: 'إل',
  m: 'إم',
  n: 'إن',
  o: 'أو',
  p: 'بي',
  q: 'كيو',
  r: 'آر',
  s: 'إس',
  t: 'تي',
  u: 'يو',
  v: 'في',
  w: 'دبليو',
  x: 'إكس',
  y: 'واي',
  z: 'زد',
}

/**
 * Latin letters and the digits beside them spelled in Arabic, one by one, so an Arabic agent
 * never says an English word: "PD-12354" → "بي دي - واحد اثنين ثلاثة خمسة أربعة". Digits elsewhere stay
 * (the speech layer reads them); text without Latin letters comes back unchanged.
 */
export function spellLatinForArabic(text: string): string {
  return text.replace(/[A-Za-z][A-Za-z0-9]*(?:[-_./][A-Za-z0-9]+)*|\d+(?:[-_./][A-Za-z0-9]+)*[A-Za-z][A-Za-z0-9]*/g, (token) =>
    token
      .split(/([-_./])/)
      .map((part) =>
        /^[-_./]$/.test(part)
          ? '-'
          : [...part].map((char) => ARABIC_LETTER_NAMES[char.toLowerCase()] ?? (/\d/.test(char) ? AR_UNITS[Number(char)] : char)).join(' '),
      )
      .join(' '),
  )
}
