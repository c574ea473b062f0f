import { normaliseArabic } from '../ai-content/arabic-normalisation'
import { isArabicLetterName } from './spoken-identifiers'

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
/** Words around a request that add nothing to it ("could you", "please", "ممكن", "لو سمحت"). */
const REQUEST_PADDING = new Set(
  'sorry could can would you please the question that it again me what ممكن لو سمحت سمحتي بالله عفوا السؤال مره كمان يا ريت ياريت'.split(
    ' ',
  ),
)
/** Whether, without `phrases` and padding, nothing is left of the turn: "could you repeat that, please?" but not "send it again please". */
function onlySays(words: string, phrases: readonly string[]): boolean {
  let rest = ` ${words} `
  for (const phrase of [...phrases].sort((a, b) => b.length - a.length)) rest = rest.split(` ${phrase} `).join('  ')
  return rest.split(' ').every((word) => word === '' || REQUEST_PADDING.has(word))
}

/** "Say that again", "ممكن تعيد": the caller wants the last question again (and says nothing else). */
export function wantsRepeat(text: string): boolean {
  const words = plainWords(text)
  return words.split(' ').length <= 8 && hasPhrase(words, REPEAT) && onlySays(words, REPEAT)
}

const WAIT = [
  'لحظه ادوره',
  'لحظه ادور',
  'let me check',
  'hang on',
  'wait',
  'wait a second',
  'wait a moment',
  'hold on',
  'one moment',
  'one sec',
  'one second',
  'just a moment',
  'just a second',
  'give me a second',
  'give me a moment',
  'let me look',
  'let me see',
  'let me find it',
  'لحظه',
  'لحظه من فضلك',
  'ثانيه',
  'ثواني',
  'دقيقه',
  'استنى',
  'استني',
  'اصبر',
  'انتظر',
  'خليني اشوف',
  'خليني اتاكد',
  'ثانيه وحده',
  'دقيقه وحده',
]
/** "Wait", "hang on, let me check", "لحظة": the caller needs a moment, and says nothing else. */
export function wantsToWait(text: string): boolean {
  const words = plainWords(text)
  return (
    hasPhrase(words, WAIT) &&
    onlySays(words, [...WAIT, 'um', 'umm', 'uh', 'ok', 'okay', 'yeah', 'اه', 'طيب', 'يعني', 'i need to', 'i have to', 'for it'])
  )
}

const WHO = [
  'who is this',
  "who's this",
  'who am i speaking to',
  'who am i speaking with',
  'who am i talking to',
  'who are you',
  'who is calling',
  "who's calling",
  'is this a real person',
  'are you a robot',
  'are you a person',
  'مين معي',
  'مين معاي',
  'مين معايا',
  'مين انت',
  'مين حضرتك',
  'مين حضرتك',
  'من انت',
  'من معي',
  'منو معي',
  'منو انت',
  'مين بيحكي',
  'مين عم يحكي',
  'مين اللي معي',
  'انت روبوت',
  'انت انسان',
]
/** "Who is this?", "مين معي؟": the caller asks who they are talking to. */
export function asksWhoIsThis(text: string): boolean {
  return hasPhrase(plainWords(text), WHO)
}

/** "I want to book a table for my parents' anniversary", "بدي احجز": what the call is for, said in place of the answer. */
const INTENT =
  /^(?:(?:so|well|yes|yeah|ok|okay|hi|hello|um+|uh+)\s+)*(?:i want|i'd like|i would like|i need|i'm calling|i am calling|i was hoping|i'm looking|we want|we'd like|we need|calling)\s+(?:to|a|an|about|for|some)\b|(?:^|\s)(?:بدي|ابي|ابغي|ابغى|عايز|عايزه|حاب|حابه|اريد|محتاج|محتاجه|بتصل|متصل|نبي|نبغى|بدنا)\s+\S+/
export function statesIntent(text: string): boolean {
  return INTENT.test(plainWords(text))
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
  "don't know",
  "i've no idea",
  'no clue',
  "haven't a clue",
  'مدري',
  'معرفش',
  'ما عرف',
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
  // Not remembering: no value yet either ("let me check" is a wait, see wantsToWait).
  "don't remember",
  "can't remember",
  'مش فاكر',
  'مش فاكره',
  'مو متذكر',
  'ما اتذكر',
  'مش متذكر',
  'ناسي',
  'نسيت',
  'ما بتذكر',
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
const LEADING_PHRASES =
  /^(?:(?:it's|it is|that's|that is|i think|i guess|i'd say|i would say|please|well|so|um+|uh+|er+|hmm+|yeah|okay|ok|يعني|طيب|والله|امم+|اه|هو|هي)[\s,،]+)+/i

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
      // "إم آر ٤٤٧١": "إم" is the letter M here, not a hesitation.
      if (
        OPENER_SET.has(plainWords(words.slice(0, size).join(' '))) &&
        !(size === 1 && isArabicLetterName(words[0]!) && isArabicLetterName(words[1] ?? ''))
      ) {
        words = words.slice(size)
        found = true
        break
      }
    }
  }
  return words.join(' ').replace(/^[\s,،.!؟?]+/u, '')
}

/** How a question for information starts ("do you have…", "are you open…", "عندكم…", "متى…"), after fillers. */
const INFO_QUESTION =
  /^(?:(?:oh|sorry|and|so|but|also|well|um+|uh+|first|before we start|before we begin|quick question|one question|هو|طيب|و|بس|عفوا|سؤال|اول|قبل ما نبدا|قبل ما نبدء)\s+)*(?:do you|does|are you|are there|is there|what|when|where|how|why|which|who|have you|will you|do they|هل|عندكم|عندك|في عندكم|فيه|انتو|انتم|انتوا|متى|امتى|وين|فين|كيف|ازاي|ليش|ليه|شو|ايش|وش|قديش|كم|بكم|مين|فاتحين|تفتحون|بتفتحوا)(?:\s|$)/
/** Questions that propose a value ("is it possible on Monday?", "can you do tomorrow at eight?") stay. */
const PROPOSAL =
  /\b(?:possible|available|free|alright|all right|ok|okay|work for you|doable)\b|(?:^|\s)(?:ممكن|ينفع|يمشي|مناسب|فاضي|فاضيين)(?:\s|$)/

/** The turn without its questions for information ("Do you have vegetarian food?", "هو انتو فاتحين يوم الجمعة؟"): they ask, they do not answer. */
export function withoutInfoQuestions(text: string): string {
  return text
    .split(/(?<=[.!?؟])\s+/)
    .filter((sentence) => {
      if (!/[?؟]\s*$/.test(sentence)) return true
      const words = plainWords(withoutOpeners(sentence))
      return !INFO_QUESTION.test(words) || PROPOSAL.test(words)
    })
    .join(' ')
}
