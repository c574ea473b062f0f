import { arabicLightStem, isArabicWord } from '../ai-content/arabic-normalisation'
import { plainWords, yesOrNo } from './caller-intents'
import type { Slot } from './slot-plan'
import { takeBack } from './take-back'

/**
 * Yes or no from what a caller means, not only the yes/no word: a wish ("I'd rather have my
 * money back"), the side of a choice a field describes ("a refund rather than a redelivery"),
 * a visit said before, having the thing asked about ("معايا تحويل"), a double negative ("not
 * that I don't want it"), the Egyptian negation around a verb ("معندوش").
 */

/** An Arabic word without its article, clitics and endings (خارجية → خارجي); other words as they are. */
export const stemOf = (word: string) => (isArabicWord(word) ? arabicLightStem(word) : word)

const WANTS =
  /\b(?:i want|i'd like|i would like|i need|we need|we'll need|i'd rather|i would rather|i'd prefer|i prefer|please)\b|(?:^|\s)(?:عايز|عايزه|ابي|ابغي|ابغى|بدي|اريد|حاب|حابه|محتاج|محتاجه|نبي|نبغى|ياريت|يا ريت)(?:\s|$)/
// "معندوش", "مفيش": the Egyptian negation wraps the verb.
const NEGATED =
  /\b(?:not|don't|do not|doesn't|no|never|won't|without)\b|(?:^|\s)(?:مش|مو|ما|لا|مب|مابي|مابغى|مش عايز|بدون|بلاش|م[^\s]{2,}ش)(?:\s|$)/
/** "I have one", "معايا تحويل", "عندي ورقة": having the thing the field asks about. */
const HAS = /\b(?:i have|i've got|i got|we have|he has|she has|with me)\b|(?:^|\s)(?:معي|معايا|معاي|عندي|معه|معاه|عنده|معها|عندها)(?:\s|$)/
/** "Not that I don't want it", "مش إني ما بدي": two negations that say yes. */
const DOUBLE_NEGATIVE =
  /\bnot that i (?:don't|do not|wouldn't|won't)\b|\bit's not that i (?:don't|do not)\b|\bi wouldn't say no\b|\bcan't say no\b|(?:^|\s)(?:مش انه? ما|مو انه? ما|مش اني ما|مو اني ما|ما بقول لا|ما اقول لا|ما عندي مانع|ما في مانع|مافي مانع|معنديش مانع)(?:\s|$)/
const FIRST_TIME =
  /\b(?:never been|first time|first visit|new patient|never visited|hasn't been|has not been|haven't been|have not been|not been before)\b|(?:^|\s)(?:اول مره|اول زياره|عمري ما|ما قد|ما جيت|اول مرة|ما جا قبل|ما اجت قبل|مش جايه قبل|مش جاي قبل)(?:\s|$)/
const BEEN_BEFORE =
  /\b(?:been before|before|already|last (?:year|time|month)|years ago|a while ago|ago|been to you|been here|been there|came before|visited before|seen you before)\b|(?:^|\s)(?:قبل|من قبل|سبق|جيت|جانا|زرت|زمان)(?:\s|$)/
/** Unasked, only a visit said outright ("she's been to you before", "جيت قبل كده"). */
const BEEN_BEFORE_SAID =
  /\b(?:(?:i've|i have|she's|he's|she has|he has|we've|they've) been (?:to you|here|there|before|in)|came (?:to you )?before|visited (?:you )?before|seen (?:you|the doctor) before)\b|(?:^|\s)(?:جيت قبل|جات قبل|جه قبل|جا قبل|زرتكم قبل|جيتكم قبل|سبق وجيت|سبق زرت)(?:\s|$)/
/** Words of a boolean field's name that carry its meaning ("high chair", "refund"), not the verb around it. */
const BOOLEAN_FILLER_WORDS = new Set(['is', 'has', 'wants', 'want', 'needs', 'need', 'would', 'does', 'can', 'will', 'did', 'was'])

/** Asking for the goods to be sent again: a delivery field's side, and part of a redelivery's. */
const SEND_AGAIN = [
  'redeliver',
  'redelivery',
  'sent again',
  'ship it again',
  'send another',
  'another one',
  'new delivery',
  'another delivery',
  'deliver again',
  'send again',
  'send it again',
  'send them again',
  'again delivery',
  'replace',
  'replacement',
  'resend',
  'اعاده التوصيل',
  'ترسلونه',
  'تبعتوه',
  'مره ثانيه',
  'مره تانيه',
]

/** What people call the two sides of a common choice, normalised (ة → ه). */
const CHOICE_WORDS: Readonly<Record<string, readonly string[]>> = {
  refund: ['refund', 'money back', 'my money', 'reimburse', 'استرجاع', 'استرداد', 'فلوسي', 'فلوس', 'المبلغ', 'ترجعولي', 'رجعولي', 'ترجع'],
  money: ['refund', 'money back', 'my money', 'استرجاع', 'استرداد', 'فلوسي', 'فلوس', 'المبلغ'],
  redelivery: [...SEND_AGAIN, 'new one', 'ترسلوه', 'ابعتوه', 'تبعتوا', 'تاني', 'ثاني', 'بدل', 'تبديل', 'استبدال'],
  delivery: SEND_AGAIN,
}
const ALIASES: Readonly<Record<string, string>> = {
  توصيل: 'redelivery',
  استرجاع: 'refund',
  مبلغ: 'refund',
  replacement: 'redelivery',
  resend: 'redelivery',
}
const choiceWords = (word: string) => CHOICE_WORDS[word] ?? CHOICE_WORDS[ALIASES[word.replace(/^(ال|ب)/, '')] ?? ''] ?? []
/** "Whether the caller wants their money back rather than a new delivery": the two sides of the choice. */
const CHOICE =
  /(?:wants?|prefers?|would like|needs?|يريد|يفضل|يبغى|يبي)\s+(.+?)\s+(?:rather than|instead of|over|بدل|بدلا من|وليس)\s+(.+)$/i

/** Where the caller's words last name one side of a choice (its own words of 4+ letters, or what people call it), as a word index; -1 when they do not. */
function sideMention(plain: string, side: string): number {
  const said = ` ${plain} `
  const words = plainWords(side)
    .split(' ')
    .filter(
      (word) => word.length >= 4 && !BOOLEAN_FILLER_WORDS.has(word) && !['their', 'your', 'they', 'them', 'with', 'from'].includes(word),
    )
  let last = -1
  for (const phrase of words.flatMap((word) => [word, ...choiceWords(word).map((synonym) => plainWords(synonym))])) {
    const at = said.lastIndexOf(` ${phrase}`)
    if (at >= 0) last = Math.max(last, said.slice(0, at).split(' ').length - 1)
  }
  return last
}

/** A negation in the few words before a mention: "no refund", "I don't want my money back", "not waiting for another delivery". */
function negatedAt(plain: string, index: number): boolean {
  const before = plain
    .split(' ')
    .slice(Math.max(0, index - 5), index)
    .join(' ')
  return NEGATED.test(before) && !DOUBLE_NEGATIVE.test(before)
}

/** A yes or no from a field that is a choice between two things: the side the caller wants, or the one they turn down; the later said wins. */
function booleanByChoice(slot: Slot, plain: string): boolean | undefined {
  const choice = CHOICE.exec(slot.shape.description ?? '')
  if (!choice) return undefined
  const first = Math.max(sideMention(plain, choice[1]!), sideMention(plain, slot.label))
  const second = sideMention(plain, choice[2]!)
  if (first < 0 && second < 0) return undefined
  const firstWanted = first >= 0 && !negatedAt(plain, first)
  const secondWanted = second >= 0 && !negatedAt(plain, second)
  if (first >= 0 && second >= 0 && firstWanted !== secondWanted) return firstWanted
  if (first >= 0 && (second < 0 || first > second)) return firstWanted
  return !secondWanted
}

/**
 * A yes or no from what the caller said: the yes/no word, or what the words mean for this field
 * ("I've been before" to a first-visit question is no; "عايزة استرجاع الفلوس" to a refund
 * question is yes). Unasked, only a turn that names the field ("we'll need a high chair").
 */
export function booleanByMeaning(slot: Slot, text: string, strict: boolean): boolean | undefined {
  const plain = plainWords(text)
  const negated = NEGATED.test(plain) && !DOUBLE_NEGATIVE.test(plain)
  const firstVisitField = /\bfirst\b|اول/.test(plainWords(`${slot.label} ${slot.shape.description ?? ''}`))
  if (strict) {
    // "It's my first time with you", "جانا قبل": said of a first-visit field even unasked.
    if (firstVisitField && FIRST_TIME.test(plain)) return true
    if (firstVisitField && BEEN_BEFORE_SAID.test(plain)) return false
    const keys = plainWords(slot.label)
      .split(' ')
      .filter((word) => word.length >= 3 && !BOOLEAN_FILLER_WORDS.has(word))
    // An Arabic turn names a field with an English key by its description's words ("تحويل" for hasReferral).
    const described = plainWords(slot.shape.description ?? '')
      .split(' ')
      .filter((word) => word.length >= 4 && isArabicWord(word) && !/^(?:هل|الذي|التي|العميل|المريض|النزيل)$/.test(word))
    const stems = new Set(plain.split(' ').map(stemOf))
    const named =
      (keys.length > 0 && keys.every((word) => ` ${plain} `.includes(` ${word} `))) ||
      (isArabicWord(plain) && described.length > 0 && described.some((word) => stems.has(stemOf(word))))
    // "We'll need a high chair" is yes, "no high chair" / "معندوش تحويل" no, "معايا تحويل" yes; a choice said with a wish ("I want my money back").
    if (named && (WANTS.test(plain) || HAS.test(plain) || NEGATED.test(plain))) return !negated
    return WANTS.test(plain) ? booleanByChoice(slot, plain) : undefined
  }
  // A question back ("courtesy car, what is this?") answers nothing.
  if (/[?؟]\s*$/.test(text.trim()) && yesOrNo(text) === undefined) return undefined
  if (DOUBLE_NEGATIVE.test(plain)) return true
  // A first-visit question: "never been" means yes, "been before" means no, whatever the yes/no word.
  if (firstVisitField) {
    if (FIRST_TIME.test(plain)) return true
    if (BEEN_BEFORE.test(plain)) return false
  }
  const answer = yesOrNo(text)
  // The first word settles it ("no, just send it again"); otherwise the side of the choice named.
  const first = plain.split(' ')[0]!
  if (answer !== undefined && yesOrNo(first) === answer) return answer === 'yes'
  // "A refund. Actually no, a replacement": the side after the take-back.
  const taken = takeBack(text)
  const chosen =
    (taken?.corrects && taken.fresh ? booleanByChoice(slot, plainWords(taken.fresh)) : undefined) ?? booleanByChoice(slot, plain)
  if (chosen !== undefined) return chosen
  if (answer !== undefined) return answer === 'yes'
  // "I'd like my money back", "أبي فلوسي ترجع": a wish said outright answers the question.
  if (WANTS.test(plain)) return !negated
  // "I make the decisions": the field's own word, said of oneself.
  const keys = plainWords(`${slot.label}`)
    .split(' ')
    .filter((word) => word.length >= 4 && !BOOLEAN_FILLER_WORDS.has(word))
  if (keys.some((word) => plain.split(' ').some((said) => said.startsWith(word.slice(0, 6))))) return !negated
  return undefined
}
