import { normaliseArabic } from '../ai-content/arabic-normalisation'
import { toWesternDigits } from './spoken-numbers'

/** Emails and phone numbers as callers say them: symbols in words, digits one by one. */

const SPOKEN_AT = /\s+(?:at|آت|ات|أت)\s+/gi
const SPOKEN_DOT = /\s+(?:dot|دوت|نقطه|نقطة|دot)\s+/gi
const SPOKEN_SYMBOLS: [RegExp, string][] = [
  [/\s*\b(?:underscore|under score)\b\s*|\s*(?:اندر سكور|اندرسكور|شرطه سفليه|شرطة سفلية)\s*/gi, '_'],
  [/\s*\b(?:dash|hyphen)\b\s*|\s+(?:داش|شرطه|شرطة)\s+/gi, '-'],
]
/** "all one word", "no spaces": said of the name before the @, which is then joined. */
const ONE_WORD =
  /[\s,،]*\b(?:all one word|one word|no spaces?|all together|together)\b[\s,،]*|[\s,،]*(?:كلها كلمه وحده|كلمه وحده|بدون مسافات|لزق)[\s,،]*/gi

/** An email address, written or spelled out ("sara dot ali at example dot com", "jordan underscore reyes at…", "gareth lloyd, all one word, at…"). */
export function extractEmail(text: string): string | undefined {
  let said = text
  for (const [pattern, symbol] of SPOKEN_SYMBOLS) said = said.replace(pattern, symbol)
  // The name before "at" said as two words and joined: "gareth lloyd, all one word, at hotmail…".
  const joined = ONE_WORD.test(said)
  said = said.replace(ONE_WORD, ' ')
  if (joined) said = said.replace(/(\b[\p{L}\d._-]+)\s+([\p{L}\d._-]+)(?=\s+(?:at|آت|ات|أت)\s+)/u, '$1$2')
  const spoken = said.replace(SPOKEN_DOT, '.').replace(SPOKEN_AT, '@')
  const match = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/.exec(spoken.replace(/\s*@\s*/g, '@'))
  return match?.[0].toLowerCase().replace(/\.$/, '')
}

const DIGIT_WORDS: Record<string, string> = {
  zero: '0',
  oh: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  صفر: '0',
  واحد: '1',
  اثنين: '2',
  اتنين: '2',
  ثلاثه: '3',
  تلاته: '3',
  اربعه: '4',
  خمسه: '5',
  سته: '6',
  سبعه: '7',
  ثمانيه: '8',
  تمانيه: '8',
  تسعه: '9',
}

/** A phone number of 7 to 15 digits, said as digits or digit by digit ("oh five five ..."), with + kept. */
export function extractPhone(text: string): string | undefined {
  const words = toWesternDigits(text)
    .toLowerCase()
    .split(/[\s,،.-]+/)
    .map((word) => DIGIT_WORDS[normaliseArabic(word)] ?? word)
  let best = ''
  let run = ''
  for (const word of [...words, '']) {
    if (/^\+?[\d()]+$/.test(word)) run += word
    else if (word === 'double' || word === 'triple') continue
    else {
      if (run.replace(/\D/g, '').length > best.replace(/\D/g, '').length) best = run
      run = ''
    }
  }
  const digits = best.replace(/[^\d+]/g, '')
  const count = digits.replace(/\D/g, '').length
  return count >= 7 && count <= 15 ? digits : undefined
}
