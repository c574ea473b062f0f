import { normaliseArabic } from '../ai-content/arabic-normalisation'

/**
 * What a caller's turn means beyond its values: yes or no, "say that again", goodbye, "I don't
 * know", or nothing at all. Matching is on whole words of the lower-cased, Arabic-normalised
 * text, so "no" never matches inside "know" and "لا" never inside "لابتوب".
 */

/** Lower-cased, Arabic-normalised, punctuation turned into spaces, single-spaced. */
export function plainWords(text: string): string {
  return normaliseArabic(text.toLowerCase())
    .replace(/[’']/g, "'")
    .replace(/[^\p{L}\p{N}'@.+\s-]|(?<!\d)\.|\.(?!\d)/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

function hasPhrase(words: string, phrases: readonly string[]): boolean {
  const padded = ` ${words} `
  return phrases.some((phrase) => padded.includes(` ${phrase} `))
}

const YES_EN = [
  'yes',
  'yeah',
  'yep',
  'yup',
  'sure',
  'correct',
  'right',
  "that's right",
  'thats right',
  'exactly',
  'of course',
  'absolutely',
  'definitely',
  'ok',
  'okay',
  'affirmative',
  'i do',
  'i am',
  'i will',
  'it is',
  'true',
  'sounds good',
  'perfect',
]
const NO_EN = [
  'no',
  'nope',
  'nah',
  'not really',
  'incorrect',
  'wrong',
  "that's wrong",
  'negative',
  "i don't",
  'i do not',
  "i'm not",
  'i am not',
  "i won't",
  'not at all',
  'false',
  "it's not",
  'never',
]
// Normalised spellings: أيوه → ايوه, أكيد → اكيد.
const YES_AR = [
  'نعم',
  'ايوه',
  'ايوا',
  'ايو',
  'اي',
  'ايه',
  'اكيد',
  'صح',
  'صحيح',
  'تمام',
  'طبعا',
  'اجل',
  'بلي',
  'اوكي',
  'اوك',
  'مظبوط',
  'مضبوط',
  'هو كذلك',
  'بالضبط',
  'موافق',
  'ماشي',
  'يب',
  'اه',
  'زين',
  'اكيد طبعا',
]
const NO_AR = ['لا', 'لأ', 'لاء', 'كلا', 'غلط', 'خطا', 'ابدا', 'مب', 'لا شكرا', 'مو صحيح', 'مش صحيح']

/** 'yes', 'no', or undefined when the turn says neither (or both, as in "yes... no, wait"). */
export function yesOrNo(text: string): 'yes' | 'no' | undefined {
  const words = plainWords(text).replace(/لأ/g, 'لا')
  if (words === '') return undefined
  const first = words.split(' ')[0]!
  // The first word decides "no, I'm fine" and "yes, no problem".
  if (['no', 'nope', 'nah', 'لا', 'كلا', 'لاء'].includes(first)) return 'no'
  if (['yes', 'yeah', 'yep', 'yup', 'sure', 'نعم', 'ايوه', 'ايوا', 'اكيد', 'صح', 'اي', 'ايه', 'طبعا', 'اجل'].includes(first)) return 'yes'
  const yes = hasPhrase(words, YES_EN) || hasPhrase(words, YES_AR)
  const no = hasPhrase(words, NO_EN) || hasPhrase(words, NO_AR)
  if (yes === no) return undefined
  return yes ? 'yes' : 'no'
}

const REPEAT = [
  'repeat',
  'repeat that',
  'say that again',
  'say again',
  'come again',
  'pardon',
  'sorry what',
  'what did you say',
  'i did not hear',
  "i didn't hear",
  "i didn't catch that",
  'one more time',
  'again please',
  'عيد',
  'اعيد',
  'تعيد',
  'تعيدي',
  'عيدي',
  'اعد',
  'كرر',
  'تكرر',
  'ما سمعت',
  'ماسمعت',
  'لم اسمع',
  'مره ثانيه',
  'مره تانيه',
  'مو واضح',
  'مش واضح',
  'نعم؟',
]
/** "Say that again", "ممكن تعيد": the caller wants the last question again. */
export function wantsRepeat(text: string): boolean {
  const words = plainWords(text)
  return words.split(' ').length <= 6 && hasPhrase(words, REPEAT)
}

const GOODBYE = [
  'bye',
  'goodbye',
  'good bye',
  'bye bye',
  'bye-bye',
  'see you',
  'have to go',
  'gotta go',
  'hang up',
  'مع السلامه',
  'باي',
  'الي اللقاء',
  'في امان الله',
  'بامان الله',
  'سلام عليكم وداعا',
  'وداعا',
  'يلا باي',
]
/** The caller is leaving. */
export function saysGoodbye(text: string): boolean {
  return hasPhrase(plainWords(text), GOODBYE)
}

const DONT_KNOW = [
  "i don't know",
  'i do not know',
  'dont know',
  'not sure',
  "i'm not sure",
  'no idea',
  'skip',
  'skip it',
  'ما اعرف',
  'مااعرف',
  'ما ادري',
  'مادري',
  'مش عارف',
  'مش عارفه',
  'لا اعرف',
  'مو متاكد',
  'مش متاكد',
  'لست متاكدا',
  'ما بعرف',
  'بعرفش',
  // Not remembering, or going to look: no value yet either.
  "don't remember",
  "can't remember",
  'hang on',
  'let me check',
  'مش فاكر',
  'مش فاكره',
  'مو متذكر',
  'ما اتذكر',
  'مش متذكر',
  'ناسي',
  'نسيت',
  'ما بتذكر',
  'لحظه ادور',
  'لحظه ادوره',
]
/** "I don't know", "مش عارف": the field stays empty and the dialogue moves on. */
export function doesNotKnow(text: string): boolean {
  return hasPhrase(plainWords(text), DONT_KNOW)
}

const NOTHING = [
  'none',
  'nothing',
  'no thanks',
  'no thank you',
  'nothing else',
  "that's all",
  'thats all',
  'that is all',
  'not needed',
  'nope',
  'no',
  'لا شي',
  'لا شيء',
  'ولا شي',
  'ولا شيء',
  'ما في',
  'مافي',
  'ما فيه',
  'ما عندي',
  'ماعندي',
  'لا يوجد',
  'لا',
  'لا شكرا',
  'بس كذا',
  'بس هيك',
  'خلاص',
]
/** "Nothing", "no", "ما في": an empty answer to an optional or list question. */
export function saysNothing(text: string): boolean {
  const words = plainWords(text)
  return words.split(' ').length <= 4 && hasPhrase(words, NOTHING)
}

const FILLERS = new Set([
  'um',
  'umm',
  'uh',
  'uhh',
  'er',
  'erm',
  'hmm',
  'mm',
  'ah',
  'oh',
  'well',
  'like',
  'so',
  'okay',
  'ok',
  'yeah',
  'امم',
  'ام',
  'اه',
  'ااه',
  'يعني',
  'طيب',
  'والله',
  'اممم',
  'هممم',
  'شوف',
  'بص',
])
const LEADING_PHRASES = /^(?:(?:it's|it is|that's|that is|i think|i guess|i'd say|i would say|please|well|so|um+|uh+|er+|hmm+|yeah|okay|ok|يعني|طيب|والله|امم+|اه|هو|هي)[\s,،]+)+/i

/** The caller's words without leading fillers and trailing punctuation: the value of a free-text field. */
export function trimFillers(text: string): string {
  return text
    .trim()
    .replace(LEADING_PHRASES, '')
    .replace(/[\s.。,،!?؟]+$/u, '')
    .trim()
}

/** True when the turn has no word that is not a filler (silence, "um", "امم"). */
export function isOnlyFillers(text: string): boolean {
  const words = plainWords(text)
    .split(' ')
    .filter((word) => word.length > 0)
  return words.every((word) => FILLERS.has(word))
}

/** Greetings and hesitations a caller opens a turn with, normalised; never a value ("ألو" is not a name). */
const OPENERS = [
  'hi',
  'hello',
  'hey',
  'hiya',
  'good morning',
  'good afternoon',
  'good evening',
  'hi there',
  'hello there',
  'hey there',
  'الو',
  'هلا',
  'هلا والله',
  'هلا هلا',
  'مرحبا',
  'مرحبتين',
  'مراحب',
  'اهلا',
  'اهلين',
  'اهلا وسهلا',
  'السلام عليكم',
  'سلام عليكم',
  'السلام عليكم ورحمه الله',
  'وعليكم السلام',
  'سلام',
  'مساء الخير',
  'صباح الخير',
  'مساء النور',
  'صباح النور',
  'يا هلا',
  'ها',
  // Hesitations only: "yeah", "ok" and "اه" open a yes and stay.
  'um',
  'umm',
  'uh',
  'er',
  'erm',
  'hmm',
  'امم',
  'ام',
  'اممم',
  'يعني',
]
const OPENER_SET = new Set(OPENERS)
const LONGEST_OPENER = Math.max(...OPENERS.map((opener) => opener.split(' ').length))

/** The turn without the greetings and hesitations it opens with: "ألو، أنا ياسمين" → "أنا ياسمين"; "" when that was all. */
export function withoutOpeners(text: string): string {
  let words = text.trim().split(/\s+/).filter(Boolean)
  for (let found = true; found && words.length > 0;) {
    found = false
    for (let size = Math.min(LONGEST_OPENER, words.length); size >= 1; size--) {
      if (OPENER_SET.has(plainWords(words.slice(0, size).join(' ')))) {
        words = words.slice(size)
        found = true
        break
      }
    }
  }
  return words.join(' ').replace(/^[\s,،.!؟?]+/u, '')
}
