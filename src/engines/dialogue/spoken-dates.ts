import { normaliseArabic } from '../ai-content/arabic-normalisation'
import { englishOrdinal, findNumbers, numberTokens, toWesternDigits } from './spoken-numbers'

/**
 * Dates and times as callers say them, in English and Arabic, resolved against the call's clock
 * to `YYYY-MM-DD` and 24-hour `HH:MM`. Only what is said plainly is understood; anything vaguer
 * ("sometime next week") is left to the free-text fallback of the field.
 */

const pad = (n: number) => String(n).padStart(2, '0')

/** The local calendar date of `date` as YYYY-MM-DD. */
export function isoDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days)
}

const ENGLISH_WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']
/** Normalised Arabic weekday names, Sunday first, with and without the article. */
const ARABIC_WEEKDAYS = [
  ['الاحد', 'احد'],
  ['الاثنين', 'اثنين', 'الاتنين', 'التنين'],
  ['الثلاثاء', 'ثلاثاء', 'الثلاثا', 'التلات', 'التلاتاء'],
  ['الاربعاء', 'اربعاء', 'الاربع', 'الاربعا'],
  ['الخميس', 'خميس'],
  ['الجمعه', 'جمعه'],
  ['السبت', 'سبت'],
]
export const ENGLISH_MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]
/** Normalised Arabic month names: the Gregorian loan names, then the Levantine ones. */
const ARABIC_MONTHS = [
  ['يناير', 'كانون الثاني'],
  ['فبراير', 'شباط'],
  ['مارس', 'اذار'],
  ['ابريل', 'نيسان'],
  ['مايو', 'ايار'],
  ['يونيو', 'حزيران'],
  ['يوليو', 'تموز'],
  ['اغسطس', 'اب'],
  ['سبتمبر', 'ايلول'],
  ['اكتوبر', 'تشرين الاول'],
  ['نوفمبر', 'تشرين الثاني'],
  ['ديسمبر', 'كانون الاول'],
]

function monthIndex(token: string): number | undefined {
  const lower = token.toLowerCase()
  // Full names and abbreviations of three letters or more ("dec", "sept").
  const english = lower.length >= 3 ? ENGLISH_MONTHS.findIndex((month) => month.startsWith(lower)) : -1
  if (english >= 0) return english
  const arabic = normaliseArabic(token).replace(/^ب/, '')
  const found = ARABIC_MONTHS.findIndex((names) => names.some((name) => !name.includes(' ') && name === arabic))
  return found >= 0 ? found : undefined
}

/** A day and month resolved to the next such date on or after today, unless a year was said. */
function resolveDayMonth(now: Date, day: number, month: number, year?: number): string | undefined {
  if (day < 1 || day > 31 || month < 0 || month > 11) return undefined
  let resolvedYear = year ?? now.getFullYear()
  if (year !== undefined && year < 100) resolvedYear = 2000 + year
  let date = new Date(resolvedYear, month, day)
  if (date.getMonth() !== month) return undefined
  if (year === undefined && date < new Date(now.getFullYear(), now.getMonth(), now.getDate())) date = new Date(resolvedYear + 1, month, day)
  return isoDate(date)
}

/**
 * The first such weekday after today; today's own name means a week from today. "Next Friday"
 * gets the same reading: callers disagree on whether it skips a week, and the read-back lets
 * them correct it.
 */
function resolveWeekday(now: Date, weekday: number): string {
  const ahead = (weekday - now.getDay() + 7) % 7 || 7
  return isoDate(addDays(now, ahead))
}

/** A date the caller said, as YYYY-MM-DD, or undefined. */
export function extractDate(text: string, now: Date): string | undefined {
  const plain = toWesternDigits(text).toLowerCase()
  const arabic = normaliseArabic(plain)

  const iso = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/.exec(plain)
  if (iso) return resolveDayMonth(now, Number(iso[3]), Number(iso[2]) - 1, Number(iso[1]))
  // 5/12 and 5/12/2026: day first, as in the UK and the Arab world; a first number above 12 settles it anyway,
  // and a second number above 12 can only be a day (US order).
  const slashed = /\b(\d{1,2})[/.](\d{1,2})(?:[/.](\d{2,4}))?\b/.exec(plain)
  if (slashed) {
    let [day, month] = [Number(slashed[1]), Number(slashed[2])]
    if (month > 12 && day <= 12) [day, month] = [month, day]
    return resolveDayMonth(now, day, month - 1, slashed[3] === undefined ? undefined : Number(slashed[3]))
  }

  // The past, for dates of something that happened ("the last order", "when it came").
  if (/\bday before yesterday\b/.test(plain) || /(^|\s)(اول امس|اول امبارح|اول مبارح|اول البارح)(\s|$)/.test(arabic))
    return isoDate(addDays(now, -2))
  if (/\byesterday\b/.test(plain) || /(^|\s)(امس|الامس|مبارح|امبارح|البارح|امبارحه)(\s|$)/.test(arabic)) return isoDate(addDays(now, -1))
  const ago = /\b(\w+) days? ago\b/.exec(plain) ?? /(?:^|\s)(?:من|قبل)\s+(يومين|\S+ ايام)(?:\s|$)/.exec(arabic)
  if (ago) {
    const days = ago[1] === 'يومين' ? 2 : findNumbers(ago[1]!)[0]?.value
    if (days !== undefined && days <= 60) return isoDate(addDays(now, -days))
  }
  if (/\bday after tomorrow\b/.test(plain) || /بعد (بكره|بكرا|بكرة|غد|غدا|باكر)/.test(arabic)) return isoDate(addDays(now, 2))
  if (/\btomorrow\b/.test(plain) || /(^|\s)(بكره|بكرا|غدا|غد|باكر|الغد|بكير)(\s|$)/.test(arabic)) return isoDate(addDays(now, 1))
  if (/\b(today|tonight|this (morning|afternoon|evening))\b/.test(plain) || /(^|\s)(اليوم|الليله|النهارده|هاليوم)(\s|$)/.test(arabic))
    return isoDate(now)
  const inDays = /\bin (\w+) days?\b/.exec(plain)
  if (inDays) {
    const days = findNumbers(inDays[1]!)[0]?.value
    if (days !== undefined) return isoDate(addDays(now, days))
  }

  const tokens = numberTokens(text)
  const normalised = tokens.map((token) => normaliseArabic(token))
  // Day and month names, with the numbers around them ("5 December", "December 5th", "the 5th of December", "٥ ديسمبر").
  for (let i = 0; i < tokens.length; i++) {
    const month = monthIndex(tokens[i]!)
    if (month === undefined) continue
    const numbers = findNumbers(text)
    const before = numbers.filter((n) => n.start < i && n.start >= i - 3).at(-1)
    const after = numbers.find((n) => n.start > i && n.start <= i + 2)
    const ordinalBefore = compoundOrdinal(tokens, tokens[i - 1] === 'of' ? i - 2 : i - 1)
    const ordinalAfter = [i + 1, i + 2, i + 3].map((j) => compoundOrdinal(tokens, j)).find((value) => value !== undefined)
    const day =
      ordinalBefore ?? ordinalAfter ?? (before && before.value <= 31 ? before.value : after && after.value <= 31 ? after.value : undefined)
    const year = numbers.find((n) => n.value >= 1900 && n.value <= 2100)?.value
    if (day !== undefined) return resolveDayMonth(now, day, month, year)
  }
  for (let i = 0; i < tokens.length; i++) {
    const english = ENGLISH_WEEKDAYS.indexOf(tokens[i]!)
    const arabicDay = ARABIC_WEEKDAYS.findIndex(
      (names) => names.includes(normalised[i]!.replace(/^(يوم|ب)/, '')) || names.includes(normalised[i]!),
    )
    const weekday = english >= 0 ? english : arabicDay
    if (weekday < 0) continue
    return resolveWeekday(now, weekday)
  }
  // "on the 5th", "the fifth", "يوم ٥": a day of this month, or of the next once it has passed.
  for (let i = 0; i < tokens.length; i++) {
    // "the twenty-first": the tens word and the ordinal after it are one day.
    const tens = TENS_OF_DAYS[tokens[i]!] !== undefined && englishOrdinal(tokens[i + 1] ?? '') !== undefined
    const ordinal = tens ? compoundOrdinal(tokens, i + 1) : (englishOrdinal(tokens[i]!) ?? /^(\d{1,2})(st|nd|rd|th)$/.exec(tokens[i]!)?.[1])
    const cue = tokens[i - 1] === 'the' || tokens[i - 1] === 'on' || normalised[i - 1] === 'يوم' || normalised[i - 1] === 'بتاريخ'
    // A bare ordinal is a day only as a short answer ("the fifth", "fifth"), not in "my first time".
    if (!cue && tokens.length > 2) continue
    const value = ordinal !== undefined ? Number(ordinal) : cue ? findNumbers(tokens[i]!)[0]?.value : undefined
    if (value === undefined || value < 1 || value > 31 || (!cue && ordinal === undefined)) continue
    const thisMonth = new Date(now.getFullYear(), now.getMonth(), value)
    const passed = value < now.getDate()
    return isoDate(passed ? new Date(now.getFullYear(), now.getMonth() + 1, value) : thisMonth)
  }
  return undefined
}

const TENS_OF_DAYS: Record<string, number> = { twenty: 20, thirty: 30 }
/** An English ordinal at `index`, with a tens word before it ("twenty first" → 21). */
function compoundOrdinal(tokens: readonly string[], index: number): number | undefined {
  const ordinal = englishOrdinal(tokens[index] ?? '')
  if (ordinal === undefined) return undefined
  const tens = ordinal < 10 ? (TENS_OF_DAYS[tokens[index - 1] ?? ''] ?? 0) : 0
  return tens + ordinal
}

const ARABIC_HOURS: Record<string, number> = {
  الواحده: 1,
  الثانيه: 2,
  الثالثه: 3,
  الرابعه: 4,
  الخامسه: 5,
  السادسه: 6,
  السابعه: 7,
  الثامنه: 8,
  التاسعه: 9,
  العاشره: 10,
  الحاديه: 11,
  'الثانيه عشر': 12,
  'الثانيه عشره': 12,
  'الحاديه عشر': 11,
  'الحاديه عشره': 11,
}
const PM_WORDS =
  /\b(pm|p\.m\.|evening|tonight|afternoon|night)\b|مساء|مساءا|المسا|بالمسا|مسا(?:\s|$)|بالليل|الليل|العصر|عصرا|المغرب|العشاء|الظهر|ظهرا|بعد الظهر|الضهر|ضهرا|بعد الضهر/
const NOON_WORDS = /بعد الظهر|بعد الضهر|الظهر|ظهرا|الضهر|ضهرا/
const AM_WORDS = /\b(am|a\.m\.|morning)\b|صباحا|صباح|الصبح|الصباح|الفجر|فجرا/

/**
 * A time the caller said, as 24-hour HH:MM, or undefined. Without am/pm, hours 1 to 6 are read
 * as afternoon: nobody books a table or an appointment at 3 in the morning.
 */
export interface TimeContext {
  /** The hours the business keeps (from the agent's own words): an hour said without am/pm is read inside them ("eight" at a restaurant open 13–24 is 20:00). */
  hours?: OpeningHours
  /** The caller was asked for a time: a bare hour ("تسعة", "nine fifteen") is one. */
  asked?: boolean
}

/** Opening hours as 0–24 hours; `closes` 24 for midnight. */
export interface OpeningHours {
  opens: number
  closes: number
}

// Normalised: إلى → الي, حتى → حتي.
const RANGE_WORDS = /^(?:to|until|till|الي|حتي|لين|لحد|لغايه)$/

/** The first "X to Y" in the text where both sides are times ("from noon to eleven at night", "من الثامنة صباحًا إلى الثامنة مساءً"). */
export function openingHours(text: string): OpeningHours | undefined {
  for (const sentence of normaliseArabic(toWesternDigits(text).toLowerCase()).split(/[.;؛\n]+/)) {
    const words = sentence.split(/[\s,،]+/).filter(Boolean)
    for (let i = 1; i < words.length - 1; i++) {
      if (!RANGE_WORDS.test(words[i]!)) continue
      const opens = extractTime(words.slice(Math.max(0, i - 5), i).join(' '))
      const closes = extractTime(words.slice(i + 1, i + 6).join(' '))
      if (!opens || !closes) continue
      const hourOf = (hhmm: string) => Number(hhmm.slice(0, 2)) + Number(hhmm.slice(3)) / 60
      const close = hourOf(closes) === 0 ? 24 : hourOf(closes)
      if (close > hourOf(opens)) return { opens: hourOf(opens), closes: close }
    }
  }
  return undefined
}

const DAY_PART =
  /\b(?:morning|afternoon|evening|night|tonight|am|pm)\b|صباح|الصبح|الصباح|مساء|المسا|بالليل|الليل|العصر|عصرا|المغرب|العشاء|الظهر|ظهرا|الضهر|ضهرا|الفجر|(?:^|\s)(?:ونص|والنصف|ونصف|وربع|والربع|وثلث|الا ربع)(?:\s|$)/

export function extractTime(text: string, context: TimeContext = {}): string | undefined {
  // "Fasting from the night before, could he come at eight in the morning?": a part that says its own time of day wins.
  const parts = text.split(/\s*[,،;.?؟!]\s*/).filter(Boolean)
  if (parts.length > 1) {
    const words = (part: string) => normaliseArabic(toWesternDigits(part).toLowerCase())
    for (const part of parts.reverse()) {
      if (!(AM_WORDS.test(words(part)) || PM_WORDS.test(words(part)))) continue
      const time = timeIn(part, context)
      if (time !== undefined) return time
    }
  }
  return timeIn(text, context)
}

function timeIn(text: string, context: TimeContext): string | undefined {
  const plain = toWesternDigits(text)
    .toLowerCase()
    .replace(/\ba\.m\./g, 'am')
    .replace(/\bp\.m\./g, 'pm')
  const arabic = normaliseArabic(plain).replace(/[ًٌٍ]/g, '')
  if (/\bnoon\b|\bmidday\b/.test(plain)) return '12:00'
  if (/\bmidnight\b|منتصف الليل/.test(arabic)) return '00:00'

  let hour: number | undefined
  let minute = 0
  const clock = /\b(\d{1,2})[:.](\d{2})\s*(am|pm)?\b/.exec(plain) ?? /\b(\d{1,2})\s*(am|pm)\b/.exec(plain)
  if (clock) {
    hour = Number(clock[1])
    if (clock[2] && /^\d+$/.test(clock[2])) minute = Number(clock[2])
  }
  // Not "for": "a table for three" is a count.
  const english =
    /\b(?:at|around|by)\s+([a-z]+(?:[ -][a-z]+)?|\d{1,2})\b(?:\s+o'?clock)?/.exec(plain) ?? /\b([a-z]+|\d{1,2})\s+o'?clock\b/.exec(plain)
  if (hour === undefined && english) {
    const words = english[1]!.split(/[ -]/)
    const first = findNumbers(words[0]!)[0]?.value
    if (first !== undefined && first >= 0 && first <= 23) {
      hour = first
      const rest = words[1] ? findNumbers(words[1])[0]?.value : undefined
      if (rest !== undefined && rest < 60 && !/^(pm|am)$/.test(words[1]!)) minute = rest
    }
  }
  const past = /\b(half|quarter|ten|twenty|five|twenty five) (past|to) (\w+)\b/.exec(plain)
  if (past) {
    const base = findNumbers(past[3]!)[0]?.value
    if (base !== undefined) {
      const offset = past[1] === 'half' ? 30 : past[1] === 'quarter' ? 15 : (findNumbers(past[1]!)[0]?.value ?? 0)
      hour = past[2] === 'past' ? base : base - 1
      minute = past[2] === 'past' ? offset : 60 - offset
    }
  }
  if (hour === undefined) {
    // "الساعة ثلاثة", "الساعة ٣ ونص", "الثالثة والنصف عصرًا", "على الساعة سبعة".
    const arabicTokens = arabic.split(/\s+/)
    for (let i = 0; i < arabicTokens.length && hour === undefined; i++) {
      const token = arabicTokens[i]!.replace(/^(ع|على|ب)?(?=الساع)/, '')
      if (token === 'الساعه' || token === 'ساعه') {
        const value = findNumbers(arabicTokens.slice(i + 1, i + 3).join(' '))[0]?.value ?? ARABIC_HOURS[arabicTokens[i + 1] ?? '']
        if (value !== undefined && value <= 23) hour = value
      }
      const ordinal = ARABIC_HOURS[`${arabicTokens[i]} ${arabicTokens[i + 1] ?? ''}`] ?? ARABIC_HOURS[arabicTokens[i]!]
      if (hour === undefined && ordinal !== undefined && (i === 0 || arabicTokens[i - 1] !== 'الساعه')) {
        if (/الثانيه$/.test(arabicTokens[i]!) && !/عشر/.test(arabicTokens[i + 1] ?? '') && !/(الساعه|صباحا|مساء|ظهرا|عصرا)/.test(arabic))
          continue
        hour = ordinal
      }
    }
    if (hour !== undefined) {
      if (/(ونص|والنصف|ونصف)(\s|$)/.test(arabic)) minute = 30
      else if (/(وربع|والربع)(\s|$)/.test(arabic)) minute = 15
      else if (/(وثلث|والثلث)(\s|$)/.test(arabic)) minute = 20
      else if (/(الا ربع|الا الربع)(\s|$)/.test(arabic)) {
        hour -= 1
        minute = 45
      }
    }
  }
  if (hour === undefined && (context.asked || DAY_PART.test(arabic))) {
    // "تسعة بالليل", "عشرة ونص الصبح", "nine fifteen", "ten in the morning": an hour said bare, minutes after it.
    const numbers = findNumbers(plain).filter((number) => number.value >= 0 && number.value < 60)
    const first = numbers[0]
    if (first && first.value >= 1 && first.value <= 12) {
      hour = first.value
      const next = numbers[1]
      if (next && next.start <= first.start + 2 && next.value >= 1 && !/(ونص|والنصف|ونصف|وربع|والربع|وثلث|الا ربع)/.test(arabic))
        minute = next.value
      if (/(ونص|والنصف|ونصف)(\s|$)/.test(arabic)) minute = 30
      else if (/(وربع|والربع)(\s|$)/.test(arabic)) minute = 15
      else if (/(وثلث|والثلث)(\s|$)/.test(arabic)) minute = 20
      else if (/(الا ربع|الا الربع)(\s|$)/.test(arabic)) {
        hour -= 1
        minute = 45
      }
    }
  }
  if (hour === undefined || hour > 23 || minute > 59) return undefined
  // Noon words place 11 before noon ("حداشر الضهر") and 2 after it.
  const noonOnly =
    NOON_WORDS.test(arabic) && !PM_WORDS.test(arabic.replace(new RegExp(NOON_WORDS.source, 'g'), ' ')) && hour >= 9 && hour <= 11
  const pm = /\bpm\b/.test(plain) || (PM_WORDS.test(arabic) && !/\bam\b/.test(plain) && !noonOnly)
  const am = /\bam\b/.test(plain) || AM_WORDS.test(arabic)
  const hours = context.hours
  if (pm && hour < 12) hour += 12
  else if (am && hour === 12) hour = 0
  else if (!am && !pm && hour >= 1 && hour <= 12 && hours) {
    // Said without am/pm: the reading that falls inside the opening hours, when only one does.
    const inside = [hour % 12, (hour % 12) + 12].filter(
      (candidate) => candidate + minute / 60 >= hours.opens && candidate + minute / 60 < hours.closes,
    )
    if (inside.length === 1) hour = inside[0]!
    else if (hour <= 6) hour += 12
  } else if (!am && !pm && hour >= 1 && hour <= 6) hour += 12
  return `${pad(hour)}:${pad(minute)}`
}

const ARABIC_WEEKDAY_NAMES = ['الأحد', 'الاثنين', 'الثلاثاء', 'الأربعاء', 'الخميس', 'الجمعة', 'السبت']
export const ARABIC_MONTH_NAMES = [
  'يناير',
  'فبراير',
  'مارس',
  'أبريل',
  'مايو',
  'يونيو',
  'يوليو',
  'أغسطس',
  'سبتمبر',
  'أكتوبر',
  'نوفمبر',
  'ديسمبر',
]

/** A YYYY-MM-DD date as read back to the caller: "Friday 13 November 2026", "الجمعة 13 نوفمبر 2026". */
export function spokenDate(iso: string, lang: 'ar' | 'en'): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  if (!match) return iso
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]))
  if (lang === 'ar')
    return `${ARABIC_WEEKDAY_NAMES[date.getDay()]} ${date.getDate()} ${ARABIC_MONTH_NAMES[date.getMonth()]} ${date.getFullYear()}`
  const weekday = ENGLISH_WEEKDAYS[date.getDay()]!
  const month = ENGLISH_MONTHS[date.getMonth()]!
  const title = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)
  return `${title(weekday)} ${date.getDate()} ${title(month)} ${date.getFullYear()}`
}

/** An HH:MM time as read back: "7:30 pm", "7:30 مساءً". */
export function spokenTime(hhmm: string, lang: 'ar' | 'en'): string {
  const match = /^(\d{2}):(\d{2})$/.exec(hhmm)
  if (!match) return hhmm
  const hour = Number(match[1])
  const twelve = hour % 12 === 0 ? 12 : hour % 12
  const clock = `${twelve}:${match[2]}`
  if (lang === 'ar') return `${clock} ${hour < 12 ? 'صباحًا' : 'مساءً'}`
  return `${clock} ${hour < 12 ? 'am' : 'pm'}`
}

/** A date, time or "date time" value as read back; anything else unchanged. */
export function spokenDateTime(value: string, lang: 'ar' | 'en'): string {
  return value
    .split(' ')
    .map((part) => (/^\d{4}-\d{2}-\d{2}$/.test(part) ? spokenDate(part, lang) : /^\d{2}:\d{2}$/.test(part) ? spokenTime(part, lang) : part))
    .join(' ')
}
