/** English number words as the engines read and say them: one list, so reading and saying agree. */

/** 0 to 19: the word for n at index n. */
export const ENGLISH_UNIT_WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
] as const

/** 20 to 90 by tens: the word for (index + 2) × 10. */
export const ENGLISH_TENS_WORDS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'] as const

/** Each unit and tens word with its value ("seventeen" → 17, "forty" → 40). */
export function englishNumberWordValues(): Record<string, number> {
  return Object.fromEntries([
    ...ENGLISH_UNIT_WORDS.map((word, value) => [word, value] as const),
    ...ENGLISH_TENS_WORDS.map((word, index) => [word, (index + 2) * 10] as const),
  ])
}
