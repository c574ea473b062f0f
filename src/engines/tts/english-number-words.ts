import { toOrdinal, toWords } from 'to-words/en-US'

import { present } from '../../shared/present'

/**
 * Numbers as English words for the voice, from the to-words package (American English, no
 * "and": "one thousand two hundred fifty"), lower case. Clock times and years as people say
 * them ("three oh five", "twenty twenty-six").
 */

/** The largest number said in words; longer numbers are read digit by digit. */
export const ENGLISH_CARDINAL_LIMIT = 10n ** 15n - 1n

const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']

/** A whole number 0..ENGLISH_CARDINAL_LIMIT in words; undefined beyond it. */
export function englishCardinal(value: bigint | number): string | undefined {
  const n = BigInt(value)
  if (n < 0n || n > ENGLISH_CARDINAL_LIMIT) return undefined
  return cardinalWords(n)
}

/** A number known to be within 0..ENGLISH_CARDINAL_LIMIT (a year, an hour), in words. */
function cardinalWords(n: bigint | number): string {
  return toWords(n).toLowerCase()
}

/** The word for one digit 0-9. */
function digitWord(digit: number): string {
  return present(DIGITS[digit], `the word for the digit ${digit}`)
}

/** 21 → "twenty first". */
export function englishOrdinal(value: number): string {
  return toOrdinal(value).toLowerCase()
}

/** Each digit as its word. */
export function englishDigits(digits: string): string {
  return (digits.match(/\d/g) ?? []).map((digit) => digitWord(Number(digit))).join(' ')
}

/** Two digits after "oh" or a tens word: 5 → "oh five", 45 → "forty five". */
function pairAfter(n: number): string {
  return n < 10 ? `oh ${digitWord(n)}` : cardinalWords(n)
}

/** A year as said aloud: 1999 → "nineteen ninety nine", 2026 → "twenty twenty six", 2005 → "two thousand five". */
export function englishYear(year: number): string {
  if (year < 1100 || year > 2099 || (year >= 2000 && year < 2010) || year % 100 === 0) return cardinalWords(year)
  return `${cardinalWords(Math.floor(year / 100))} ${pairAfter(year % 100)}`
}

/** A 12-hour clock time: (3, 5) → "three oh five", (10, 0) → "ten". */
export function englishClock(hour12: number, minute: number): string {
  return minute === 0 ? cardinalWords(hour12) : `${cardinalWords(hour12)} ${pairAfter(minute)}`
}

/** Letters one by one. "A" is written "eh": eSpeak reads a lone "A" between letters as the article. */
export function englishLetterNames(letters: string): string {
  return [...letters.toUpperCase()].map((letter) => (letter === 'A' ? 'eh' : letter)).join(' ')
}
