/**
 * Numbers as Arabic words, diacritised so eSpeak voices the vowels: "١٢٥٠" → "أَلْف وَمِائَتَان
 * وَخَمْسُون". Standard Arabic in the nominative, masculine (neutral) form: the counted noun's
 * gender and case are not agreed (a caller still understands "ثَلَاثَه" before a feminine noun).
 * Words end in their pausal form (ة as ه), as a speaker stops on them.
 */

import { present } from '../../shared/present'

const UNITS = ['صِفْر', 'وَاحِد', 'اثْنَان', 'ثَلَاثَة', 'أَرْبَعَة', 'خَمْسَة', 'سِتَّة', 'سَبْعَة', 'ثَمَانِيَة', 'تِسْعَة', 'عَشَرَة']
const TEENS = ['', 'أَحَدَ عَشَرَ', 'اثْنَا عَشَرَ', 'ثَلَاثَةَ عَشَرَ', 'أَرْبَعَةَ عَشَرَ', 'خَمْسَةَ عَشَرَ', 'سِتَّةَ عَشَرَ', 'سَبْعَةَ عَشَرَ', 'ثَمَانِيَةَ عَشَرَ', 'تِسْعَةَ عَشَرَ']
const TENS = ['', '', 'عِشْرُون', 'ثَلَاثُون', 'أَرْبَعُون', 'خَمْسُون', 'سِتُّون', 'سَبْعُون', 'ثَمَانُون', 'تِسْعُون']
const HUNDREDS = ['', 'مِائَة', 'مِائَتَان', 'ثَلَاثُمِائَة', 'أَرْبَعُمِائَة', 'خَمْسُمِائَة', 'سِتُّمِائَة', 'سَبْعُمِائَة', 'ثَمَانِمِائَة', 'تِسْعُمِائَة']

/** One power of a thousand: the word for one of it, two of it, three to ten of it (plural), and eleven and more (singular). */
interface Scale {
  value: bigint
  one: string
  two: string
  few: string
  many: string
}
const SCALES: readonly Scale[] = [
  { value: 10n ** 12n, one: 'تِرِيلْيُون', two: 'تِرِيلْيُونَان', few: 'تِرِيلْيُونَات', many: 'تِرِيلْيُون' },
  { value: 10n ** 9n, one: 'مِلْيَار', two: 'مِلْيَارَان', few: 'مِلْيَارَات', many: 'مِلْيَار' },
  { value: 10n ** 6n, one: 'مِلْيُون', two: 'مِلْيُونَان', few: 'مَلَايِين', many: 'مِلْيُون' },
  { value: 1000n, one: 'أَلْف', two: 'أَلْفَان', few: 'آلَاف', many: 'أَلْف' },
]

/** Every single word the numbers above are made of, for the lexicon (numbers the text spells in words). */
export const ARABIC_NUMBER_WORDS: readonly string[] = [
  ...UNITS,
  ...TENS.filter(Boolean),
  ...HUNDREDS.filter(Boolean),
  ...SCALES.flatMap((scale) => [scale.one, scale.two, scale.few]),
]

/** The largest number said in words; longer numbers are read digit by digit. */
export const ARABIC_CARDINAL_LIMIT = 10n ** 15n - 1n

/** Ta marbuta as a speaker stops on it ("خَمْسَه"): eSpeak otherwise says a final "t" on a diacritised word. */
export function pausal(word: string): string {
  // One fatha before the ه, kept in Unicode's order before a shadda ("سِتَّه"), never doubled.
  return word.replace(/([\u064E\u0651]*)ة(?=\s|$)/g, (_, marks: string) => `${marks.includes('\u064E') ? marks : `\u064E${marks}`}ه`)
}

/** The word at `index` of one of the tables above; every caller's index is in range by its arithmetic. */
function word(table: readonly string[], index: number): string {
  return present(table[index], `Arabic number word ${index}`)
}

/** 1-999 as words joined by "وَ". */
function belowThousand(n: number): string[] {
  const parts: string[] = []
  const hundreds = Math.floor(n / 100)
  const rest = n % 100
  if (hundreds > 0) parts.push(word(HUNDREDS, hundreds))
  if (rest === 0) return parts
  if (rest <= 10) parts.push(word(UNITS, rest))
  else if (rest < 20) parts.push(word(TEENS, rest - 10))
  else {
    const unit = rest % 10
    // Arabic says the unit before the tens: "وَاحِد وَعِشْرُون".
    if (unit > 0) parts.push(word(UNITS, unit))
    parts.push(word(TENS, Math.floor(rest / 10)))
  }
  return parts
}

/** A whole number 0..ARABIC_CARDINAL_LIMIT in words; undefined beyond it. */
export function arabicCardinal(value: bigint | number): string | undefined {
  const n = BigInt(value)
  return n < 0n || n > ARABIC_CARDINAL_LIMIT ? undefined : cardinalWords(n)
}

/** A number known to be within 0..ARABIC_CARDINAL_LIMIT, in words. */
function cardinalWords(value: bigint): string {
  let n = value
  if (n === 0n) return word(UNITS, 0)
  const parts: string[] = []
  for (const scale of SCALES) {
    const count = Number(n / scale.value)
    n %= scale.value
    if (count === 0) continue
    if (count === 1) parts.push(scale.one)
    else if (count === 2) parts.push(scale.two)
    else parts.push(`${belowThousand(count).join(' وَ')} ${count % 100 >= 3 && count % 100 <= 10 ? scale.few : scale.many}`)
  }
  if (n > 0n) parts.push(belowThousand(Number(n)).join(' وَ'))
  return pausal(parts.join(' وَ'))
}

const PAUSAL_UNITS = UNITS.map(pausal)

/** Each digit as its word: phone numbers, codes, digits after the decimal point. */
export function arabicDigits(digits: string): string {
  return (digits.match(/\d/g) ?? []).map((digit) => word(PAUSAL_UNITS, Number(digit))).join(' ')
}

/** The hour of a clock time (1-12) as Standard Arabic says it, a feminine ordinal: "الْعَاشِرَة". */
const CLOCK_HOURS = [
  '',
  'الْوَاحِدَة',
  'الثَّانِيَة',
  'الثَّالِثَة',
  'الرَّابِعَة',
  'الْخَامِسَة',
  'السَّادِسَة',
  'السَّابِعَة',
  'الثَّامِنَة',
  'التَّاسِعَة',
  'الْعَاشِرَة',
  'الْحَادِيَة عَشْرَة',
  'الثَّانِيَة عَشْرَة',
]

/** A clock time, 12-hour: "الْعَاشِرَه وَالنِّصْف". Quarter and half hours as people say them. */
export function arabicClock(hour12: number, minute: number): string {
  const hour = word(CLOCK_HOURS, hour12)
  if (minute === 0) return pausal(hour)
  if (minute === 15) return pausal(`${hour} وَالرُّبْع`)
  if (minute === 30) return pausal(`${hour} وَالنِّصْف`)
  if (minute === 45) return pausal(`${word(CLOCK_HOURS, (hour12 % 12) + 1)} إِلَّا رُبْعًا`)
  const minutes = minute === 1 ? 'دَقِيقَة' : minute === 2 ? 'دَقِيقَتَان' : `${cardinalWords(BigInt(minute))} ${minute <= 10 ? 'دَقَائِق' : 'دَقِيقَة'}`
  return pausal(`${hour} وَ${minutes}`)
}

/** Latin letters as Arabic speakers name them, so "BN" inside Arabic is "بِي إِنْ", not an English aside. */
const LATIN_LETTER_NAMES: Readonly<Record<string, string>> = {
  A: 'إِيه',
  B: 'بِي',
  C: 'سِي',
  D: 'دِي',
  E: 'إِي',
  F: 'إِفْ',
  G: 'جِي',
  H: 'إِتْشْ',
  I: 'آيْ',
  J: 'جِيه',
  K: 'كِيه',
  L: 'إِلْ',
  M: 'إِمْ',
  N: 'إِنْ',
  O: 'أُو',
  P: 'بِي',
  Q: 'كِيُو',
  R: 'آرْ',
  S: 'إِسْ',
  T: 'تِي',
  U: 'يُو',
  V: 'فِي',
  W: 'دَبْلِيُو',
  X: 'إِكْسْ',
  Y: 'وَايْ',
  Z: 'زِدْ',
}

/** Each Latin letter of `letters` by its Arabic name. */
export function arabicLetterNames(letters: string): string {
  return [...letters.toUpperCase()].map((letter) => LATIN_LETTER_NAMES[letter] ?? letter).join(' ')
}
