import { normaliseArabic } from '../ai-content/arabic-normalisation'
import { englishNumberWordValues } from '../../shared/text/english-number-words'

/**
 * Numbers as callers say them: digits (Western or Eastern Arabic), English number words
 * ("twenty five", "a hundred and ten") and Arabic number words in Gulf, Levantine and Egyptian
 * spellings as well as standard ones ("خمسة وعشرين", "تلاتة", "مية وخمسين").
 */

const EASTERN_DIGITS = /[٠-٩۰-۹]/g

/** Eastern Arabic and Persian digits to Western ones, and the Arabic decimal and thousands separators. */
export function toWesternDigits(text: string): string {
  return text
    .replace(EASTERN_DIGITS, (digit) => String((digit.charCodeAt(0) - (digit >= '۰' ? 0x06f0 : 0x0660)) % 10))
    .replace(/٫/g, '.')
    .replace(/٬/g, ',')
}

/** Unit and tens words ("seventeen", "forty"), and "twice a month": a count said as how often. */
const ENGLISH_WORDS: Record<string, number> = { ...englishNumberWordValues(), twice: 2 }
// "Two grand": a thousand, as people say money.
const ENGLISH_SCALES: Record<string, number> = { hundred: 100, thousand: 1000, grand: 1000, million: 1_000_000 }

/** Standard and dialect spellings, after normaliseArabic (ة → ه, أ/إ/آ → ا, ى → ي). */
const ARABIC_UNITS: Record<string, number> = {
  صفر: 0,
  // "مرتين بالشهر": the dual of مرة is a count.
  مرتين: 2,
  واحد: 1,
  واحده: 1,
  وحده: 1,
  اثنين: 2,
  اثنان: 2,
  اتنين: 2,
  تنتين: 2,
  ثنين: 2,
  اثنتين: 2,
  ثنتين: 2,
  تنين: 2,
  ثلاث: 3,
  ثلاثه: 3,
  تلات: 3,
  تلاته: 3,
  اربع: 4,
  اربعه: 4,
  خمس: 5,
  خمسه: 5,
  ست: 6,
  سته: 6,
  سبع: 7,
  سبعه: 7,
  ثمان: 8,
  ثماني: 8,
  ثمانيه: 8,
  تمن: 8,
  تمانيه: 8,
  تمنيه: 8,
  ثمنيه: 8,
  تسع: 9,
  تسعه: 9,
  عشر: 10,
  عشره: 10,
  احدعش: 11,
  احدعشر: 11,
  حداشر: 11,
  حدعش: 11,
  اثناعشر: 12,
  اطناشر: 12,
  اتناشر: 12,
  ثنعش: 12,
  ثلطعش: 13,
  تلتاشر: 13,
  ثلاثطعش: 13,
  اربعطعش: 14,
  اربعتاشر: 14,
  خمسطعش: 15,
  خمستاشر: 15,
  ستطعش: 16,
  ستاشر: 16,
  سبعطعش: 17,
  سبعتاشر: 17,
  ثمنطعش: 18,
  تمنتاشر: 18,
  تسعطعش: 19,
  تسعتاشر: 19,
}
const ARABIC_TENS: Record<string, number> = {
  عشرين: 20,
  عشرون: 20,
  ثلاثين: 30,
  ثلاثون: 30,
  تلاتين: 30,
  اربعين: 40,
  اربعون: 40,
  خمسين: 50,
  خمسون: 50,
  ستين: 60,
  ستون: 60,
  سبعين: 70,
  سبعون: 70,
  ثمانين: 80,
  ثمانون: 80,
  تمانين: 80,
  تسعين: 90,
  تسعون: 90,
}
const ARABIC_HUNDREDS: Record<string, number> = {
  ميه: 100,
  مئه: 100,
  مائه: 100,
  ميت: 100,
  ميتين: 200,
  مئتين: 200,
  مائتين: 200,
  مئتان: 200,
  ثلاثميه: 300,
  ثلاثمئه: 300,
  تلتميه: 300,
  اربعميه: 400,
  اربعمئه: 400,
  خمسميه: 500,
  خمسمئه: 500,
  ستميه: 600,
  ستمئه: 600,
  سبعميه: 700,
  سبعمئه: 700,
  ثمانميه: 800,
  ثمانمئه: 800,
  تمنميه: 800,
  تسعميه: 900,
  تسعمئه: 900,
}
const ARABIC_THOUSANDS: Record<string, number> = { الف: 1000, الاف: 1000, الفين: 2000, الفان: 2000, مليون: 1_000_000 }

/** One number found in a text, with the word right after it (the counted noun, if any). */
export interface FoundNumber {
  value: number
  /** Index of the first token of the number among the text's tokens. */
  start: number
  /** The token after the number, lower-cased / normalised, or '' at the end. */
  next: string
}

/** Splits on spaces and punctuation, keeping decimals (2.5) and digit groups (1,250) whole. */
export function numberTokens(text: string): string[] {
  return toWesternDigits(text)
    .toLowerCase()
    .replace(/(\d),(\d{3})/g, '$1$2')
    .split(/[\s،,;:!?؟()"“”]+|(?<!\d)\.|\.(?!\d)|-(?=[a-z])/)
    .filter((token) => token.length > 0)
}

function englishWordValue(token: string): { value: number; kind: 'unit' | 'tens' | 'scale' } | undefined {
  // Own keys only: "constructor" is not a number.
  if (Object.hasOwn(ENGLISH_WORDS, token)) {
    const value = ENGLISH_WORDS[token]!
    return { value, kind: value < 20 ? 'unit' : 'tens' }
  }
  if (Object.hasOwn(ENGLISH_SCALES, token)) return { value: ENGLISH_SCALES[token]!, kind: 'scale' }
  return undefined
}

function arabicWordValue(token: string): { value: number; kind: 'unit' | 'tens' | 'scale' | 'thousands'; joined: boolean } | undefined {
  let word = normaliseArabic(token)
  // و is written joined to the next word: "وعشرين" is "and twenty".
  const joined = word.length > 2 && word.startsWith('و') && !Object.hasOwn(ARABIC_UNITS, word)
  if (joined) word = word.slice(1)
  if (Object.hasOwn(ARABIC_UNITS, word)) return { value: ARABIC_UNITS[word]!, kind: 'unit', joined }
  if (Object.hasOwn(ARABIC_TENS, word)) return { value: ARABIC_TENS[word]!, kind: 'tens', joined }
  if (Object.hasOwn(ARABIC_HUNDREDS, word)) return { value: ARABIC_HUNDREDS[word]!, kind: 'scale', joined }
  if (Object.hasOwn(ARABIC_THOUSANDS, word)) return { value: ARABIC_THOUSANDS[word]!, kind: 'thousands', joined }
  return undefined
}

/**
 * Every number in the text, in order. A run of number words makes one number until a word
 * could not continue it ("three four" is two numbers; "twenty five" and "خمسة وعشرين" are one).
 */
export function findNumbers(text: string): FoundNumber[] {
  const tokens = numberTokens(text)
  const found: FoundNumber[] = []
  let total = 0
  let current = 0
  let start = -1
  let last: 'unit' | 'tens' | 'scale' | 'thousands' | 'digits' | undefined
  let lastUnit = 0

  const flush = (index: number) => {
    if (start >= 0) found.push({ value: total + current, start, next: tokens[index] ?? '' })
    total = 0
    current = 0
    start = -1
    last = undefined
    lastUnit = 0
  }

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    if (/^\d+(\.\d+)?$/.test(token)) {
      flush(i)
      start = i
      current = Number(token)
      last = 'digits'
      continue
    }
    // "twenty-five" and "1st"/"5th" arrive as one token.
    const ordinal = /^(\d+)(st|nd|rd|th)$/.exec(token)
    if (ordinal) {
      flush(i)
      found.push({ value: Number(ordinal[1]), start: i, next: tokens[i + 1] ?? '' })
      continue
    }
    const english = englishWordValue(token)
    if (english) {
      if (english.kind === 'scale') {
        if (start < 0) start = i
        if (english.value === 100) current = (current || 1) * 100
        else {
          total += (current || 1) * english.value
          current = 0
        }
      } else {
        // "twenty five" is one number, "sixty, sixteen" two: only a digit follows a tens word.
        const continues =
          start >= 0 &&
          last !== 'digits' &&
          (english.kind === 'unit' ? (last === 'tens' && english.value < 10) || last === 'scale' : last === 'scale')
        if (!continues) flush(i)
        if (start < 0) start = i
        current += english.value
      }
      last = english.kind
      continue
    }
    if ((token === 'and' || token === 'a') && start >= 0 && last !== 'digits' && i + 1 < tokens.length && englishWordValue(tokens[i + 1]!))
      continue
    if (token === 'a' && englishWordValue(tokens[i + 1] ?? '')?.kind === 'scale') {
      flush(i)
      start = i
      continue
    }
    const arabic = arabicWordValue(token)
    if (arabic) {
      if (arabic.kind === 'thousands') {
        if (start < 0) start = i
        total += (arabic.value === 1000 ? current || 1 : 1) * arabic.value
        current = 0
      } else if (arabic.kind === 'scale') {
        // "ثلاث مية" multiplies the unit before it; "مية" alone is a hundred.
        if (start >= 0 && !arabic.joined && last === 'unit' && arabic.value === 100) {
          current = current - lastUnit + lastUnit * 100
        } else {
          if (start < 0 || !(arabic.joined || last === 'thousands')) flush(i)
          if (start < 0) start = i
          current += arabic.value
        }
      } else if (arabic.kind === 'unit' && arabic.value === 10 && last === 'unit' && !arabic.joined && lastUnit < 10) {
        // "احد عشر", "خمسة عشر": the teens written as two words.
        current += 10
      } else {
        const continues = start >= 0 && last !== 'digits' && (arabic.joined || last === 'thousands' || last === 'scale')
        if (!continues) flush(i)
        if (start < 0) start = i
        current += arabic.value
        if (arabic.kind === 'unit') lastUnit = arabic.value
      }
      last = arabic.kind
      continue
    }
    flush(i)
  }
  flush(tokens.length)
  return found
}

/** The first number in the text, or undefined. */
export function firstNumber(text: string): number | undefined {
  return findNumbers(text)[0]?.value
}

const ENGLISH_ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  thirtieth: 30,
}

/** An English ordinal word ("fifth", "twenty-first" as "twenty first" is left to findNumbers). */
export function englishOrdinal(word: string): number | undefined {
  return ENGLISH_ORDINALS[word.toLowerCase()]
}

/** A single digit said as a word, in English ("oh" too) or Arabic and its dialects: "five" → 5, "تمانية" → 8. */
export function digitWordValue(token: string): number | undefined {
  const lower = token.toLowerCase()
  if (lower === 'oh' || lower === 'o') return 0
  if (Object.hasOwn(ENGLISH_WORDS, lower)) return ENGLISH_WORDS[lower]! <= 9 ? ENGLISH_WORDS[lower] : undefined
  const arabicWord = normaliseArabic(token)
  const arabic = Object.hasOwn(ARABIC_UNITS, arabicWord) ? ARABIC_UNITS[arabicWord] : undefined
  return arabic !== undefined && arabic <= 9 ? arabic : undefined
}
