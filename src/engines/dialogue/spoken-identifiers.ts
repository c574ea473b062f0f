import { normaliseArabic } from '../ai-content/arabic-normalisation'
import { digitWordValue, toWesternDigits } from './spoken-numbers'

/**
 * Identifiers as callers say them: written ("BN-58231"), spelled letter by letter and digit by
 * digit ("B N, five eight two…", "بي إن شرطة خمسة تمانية…"), or both. Letters and separators
 * are kept; a later identifier in the same turn replaces an earlier one ("PD-12345, no, PD-12354").
 */

/** Latin letters as Arabic speakers name them, normalised (إن → ان). B and P share "بي"; B is the likelier. */
const ARABIC_LETTER_NAMES: Readonly<Record<string, string>> = {
  ايه: 'A',
  بي: 'B',
  سي: 'C',
  دي: 'D',
  اي: 'E',
  اف: 'F',
  جي: 'G',
  اتش: 'H',
  ايتش: 'H',
  جيه: 'J',
  جاي: 'J',
  كيه: 'K',
  كي: 'K',
  ال: 'L',
  ام: 'M',
  ان: 'N',
  او: 'O',
  پي: 'P',
  كيو: 'Q',
  ار: 'R',
  اس: 'S',
  تي: 'T',
  يو: 'U',
  في: 'V',
  دبليو: 'W',
  اكس: 'X',
  واي: 'Y',
  زد: 'Z',
  زي: 'Z',
}
const SEPARATOR_WORDS = new Set(['dash', 'hyphen', 'minus', 'شرطه', 'داش', 'شحطه', '-'])
const REPEATERS: Readonly<Record<string, number>> = { double: 2, triple: 3, دبل: 2 }
/** Words said between the pieces of a code that are no part of it ("C F, then, one seven", "space", "وبعدين"). */
const GLUE_WORDS = new Set(['then', 'and', 'space', 'um', 'umm', 'uh', 'er', 'erm', 'so', 'ثم', 'بعدين', 'وبعدين', 'سبيس', 'و', 'بعدها'])
const isGlue = (token: string | undefined) => token !== undefined && GLUE_WORDS.has(normaliseArabic(token.toLowerCase()))

/** One token of a spoken identifier as the characters it stands for, or undefined when it is no part of one. */
function identifierPiece(token: string): string | undefined {
  if (/^[A-Za-z0-9]*\d[A-Za-z0-9]*(?:[-/][A-Za-z0-9]+)*$/.test(token) || /^[A-Za-z]+(?:[-/][A-Za-z0-9]+)+$/.test(token))
    return token.toUpperCase()
  if (/^[A-Za-z]$/.test(token)) return token.toUpperCase()
  const lower = normaliseArabic(token.toLowerCase())
  if (SEPARATOR_WORDS.has(lower)) return '-'
  const digit = digitWordValue(token)
  if (digit !== undefined) return String(digit)
  return ARABIC_LETTER_NAMES[lower]
}

/** Whether a word is a Latin letter as Arabic speakers say it ("إم", "آر"). */
export const isArabicLetterName = (word: string) =>
  ARABIC_LETTER_NAMES[normaliseArabic(word.toLowerCase()).replace(/[،,.]+$/, '')] !== undefined

export interface IdentifierOptions {
  /** The field's description asks for a dash between the letters and the digits ("two letters, a dash, five digits"). */
  dashAfterLetters?: boolean
}

/** The last identifier said in the turn (at least three digits, or letters with digits), or undefined. */
export function extractIdentifier(text: string, options: IdentifierOptions = {}): string | undefined {
  const tokens = toWesternDigits(text)
    // "Q as in queen": the example word spells nothing.
    .replace(/\b([A-Za-z])\s+(?:as in|for)\s+[A-Za-z]+/g, '$1')
    .split(/[\s,،;:!?؟()"“”]+|\.(?=\s|$)/)
    .map((token) => token.replace(/^[.'’]+|[.'’]+$/g, ''))
    .filter(Boolean)
  const candidates: string[] = []
  let run: string[] = []
  const flush = () => {
    const joined = run.join('').replace(/^-+|-+$/g, '')
    const digits = joined.replace(/\D/g, '').length
    if (digits >= 3 || (digits >= 1 && /[A-Z]/.test(joined) && joined.length >= 4)) candidates.push(joined)
    run = []
  }
  for (let i = 0; i < tokens.length; i++) {
    const repeat = REPEATERS[normaliseArabic(tokens[i]!.toLowerCase())]
    const next = repeat ? identifierPiece(tokens[i + 1] ?? '') : undefined
    if (repeat && next && next !== '-') {
      run.push(next.repeat(repeat))
      i++
      continue
    }
    // Glue between two pieces ("K L, then, M") keeps the code going.
    if (run.length > 0 && isGlue(tokens[i])) {
      let j = i
      while (isGlue(tokens[j])) j++
      if (identifierPiece(tokens[j] ?? '') !== undefined) continue
    }
    // "KX19 ABC": a written group of capitals continues a code already begun.
    const continues =
      run.length > 0 &&
      /^[A-Z]{2,4}$/.test(tokens[i]!) &&
      !/^(?:OK|NO|YES|AND|THE)$/.test(tokens[i]!) &&
      /\d/.test(run.join('')) &&
      !run.join('').includes('-')
    let piece = continues ? tokens[i] : identifierPiece(tokens[i]!)
    // A lone letter belongs to a code only beside another piece of it ("B N five…"), not "…, I ordered".
    let after = i + 1
    while (isGlue(tokens[after])) after++
    // …or after a letter or digit spelled one by one ("K L M." ends on its M).
    const spelledBefore = run.length > 0 && /^[A-Z0-9]$/.test(run.at(-1)!) && /^[A-Za-z]$|^[^\d]+$/.test(tokens[i - 1] ?? '')
    if (piece !== undefined && /^[A-Za-z]$/.test(tokens[i]!) && !spelledBefore && identifierPiece(tokens[after] ?? '') === undefined)
      piece = undefined
    if (piece === undefined) flush()
    else run.push(piece)
  }
  flush()
  const last = candidates.at(-1)
  if (last === undefined) return undefined
  // Letters then digits with no separator said, where the format has a dash: "BN58231" → "BN-58231".
  return options.dashAfterLetters ? last.replace(/^([A-Z]+)(\d+)$/, '$1-$2') : last
}

/** A text field that holds a code rather than words: an order, booking or reference number (not a phone). */
export function isIdentifierField(label: string, description: string | undefined): boolean {
  const words = `${label} ${description ?? ''}`
  return (
    /\b(?:number|id|code|reference|ref|registration|reg|plate|licen[cs]e|serial|policy|tracking|letters and digits)\b|رقم|كود|رمز|مرجع|لوحه|لوحة|ملف/i.test(
      words,
    ) && !/phone|mobile|telephone|هاتف|جوال|موبايل|تلفون/i.test(words)
  )
}
