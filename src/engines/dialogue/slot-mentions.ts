import { arabicLightStem } from '../ai-content/arabic-normalisation'
import { plainWords } from './caller-intents'
import type { Slot } from './slot-plan'
import { findNumbers } from './spoken-numbers'

/**
 * Which field a caller's turn points at by its words ("no, the time is 7:30", "رقم الطلب غلط"):
 * the words of the field's name and description, stemmed, without generic words or numbers.
 */

/** Words of a field's name and description a caller might use to point at it ("the time", "رقم الغرفة"). */
function slotKeywords(slot: Slot): Set<string> {
  // The description up to its format note ("رقم ملف المريض: حرفان ثم شرطة ثم أربعة أرقام" points with "ملف", never with "أربعة").
  const words = plainWords(`${slot.label} ${slot.shape.description ?? ''}`.split(/[;؛.:,،(]/)[0]!).split(' ')
  return new Set(
    words
      .filter((word) => word.length >= 3 && !GENERIC_WORDS.has(word) && findNumbers(word).length === 0)
      .map((word) => arabicLightStem(word)),
  )
}
const GENERIC_WORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'what',
  'how',
  'caller',
  'customer',
  "caller's",
  'true',
  'from',
  'one',
  'any',
  'you',
  'your',
  'this',
  'that',
  'العميل',
  'النزيل',
  'صحيح',
  'التي',
  'الذي',
  'كما',
])

/** Whether the turn holds a keyword of this field. */
export function mentions(slot: Slot, text: string): boolean {
  const words = new Set(
    plainWords(text)
      .split(' ')
      .map((word) => arabicLightStem(word)),
  )
  return [...slotKeywords(slot)].some((keyword) => words.has(keyword))
}

/** The field the turn points at by its words ("the time", "رقم الطلب"), the one with most keywords said. */
export function mentionedSlot(slots: readonly Slot[], text: string): Slot | undefined {
  const words = new Set(
    plainWords(text)
      .split(' ')
      .map((word) => arabicLightStem(word)),
  )
  let best: { slot: Slot; score: number } | undefined
  for (const slot of slots) {
    const keywords = slotKeywords(slot)
    let score = 0
    for (const keyword of keywords) if (words.has(keyword)) score++
    if (score > 0 && (!best || score > best.score)) best = { slot, score }
  }
  return best?.slot
}

/** Words that say there is none: "no", "nobody", "don't", "ما", "بدون". */
const NEGATIONS = new Set([
  'no',
  'none',
  'nobody',
  'nothing',
  'not',
  "don't",
  'dont',
  "doesn't",
  'doesnt',
  "haven't",
  'havent',
  "hasn't",
  'hasnt',
  'without',
  'neither',
  'nor',
  'never',
  'ما',
  'مافي',
  'ماعندنا',
  'ماعندي',
  'لا',
  'بدون',
  'ولا',
  'مش',
  'مو',
  'ليس',
  'يوجد',
])
/** Words around a "there is none" that name nothing: "we don't have any", "none of us has", "ما عندنا أي". */
const NONE_FRAME = new Set([
  'we',
  'i',
  'us',
  'of',
  'any',
  'have',
  'has',
  'had',
  'got',
  'there',
  "there's",
  'theres',
  'is',
  'are',
  'really',
  'at',
  'all',
  'anyone',
  'one',
  'in',
  'our',
  'my',
  'the',
  'party',
  'group',
  'thanks',
  'thank',
  'you',
  'please',
  'need',
  'needs',
  'do',
  'does',
  'that',
  'for',
  'عندنا',
  'عندي',
  'عنده',
  'احد',
  'أحد',
  'في',
  'فيه',
  'أي',
  'اي',
  'شي',
  'شيء',
  'شكرا',
  'منا',
])

/** Words that only close a none ("no thanks", "nothing else, really"): never a thing of their own. */
const NONE_CLOSERS = new Set(['thanks', 'thank', 'you', 'please', 'else', 'really', 'at', 'all', 'شكرا', 'مشكور'])

/**
 * Whether a turn that says no also names a thing ("no nuts please", "no dairy and no gluten",
 * "nothing with nuts"): in a free-text or list answer that "no" is part of the value (what the
 * kitchen must leave out), not a none. "No thanks", "nope, none", "no allergies" name nothing.
 */
export function namesAThing(slot: Slot, text: string): boolean {
  const keywords = slotKeywords(slot)
  return plainWords(text)
    .split(' ')
    .some(
      (word) =>
        word !== '' &&
        !NEGATIONS.has(word) &&
        !NONE_FRAME.has(word) &&
        !NONE_CLOSERS.has(word) &&
        !keywords.has(arabicLightStem(word)) &&
        !keywords.has(arabicLightStem(word.replace(/s$/, ''))),
    )
}

/** A "no" said straight into words ("no nuts"), not set apart ("no, nuts"). */
const LEADING_NO = /^\s*(?:no|nope|لا)\s+(?=[^\s,،.!?؟])/i

/** "No nuts please" to a list or free text: the no is part of the value (what to leave out); it takes nothing back. */
export function ownsItsNo(slot: Slot, text: string): boolean {
  return (slot.kind === 'list' || slot.kind === 'text') && LEADING_NO.test(text) && namesAThing(slot, text)
}

/**
 * Whether the turn says there is none of what the field asks about ("no allergies", "nobody has any allergies",
 * "we don't have any dietary needs", "ما عندنا حساسية"), rather than giving a value. A word before the field's
 * ("no food allergies") is allowed; a thing of its own ("no nuts") is a value, not a none.
 */
export function deniesField(slot: Slot, text: string): boolean {
  // "Not a birthday, an anniversary": a value put right, not a none.
  if (/[,،;]|\b(?:but|instead|rather)\b|(?:^|\s)(?:بس|لكن)(?:\s|$)/i.test(text)) return false
  const words = plainWords(text).split(' ').filter(Boolean)
  if (!words.some((word) => NEGATIONS.has(word))) return false
  const rest = words.filter((word) => !NEGATIONS.has(word) && !NONE_FRAME.has(word))
  const keywords = slotKeywords(slot)
  const isKeyword = (word: string) => keywords.has(arabicLightStem(word)) || keywords.has(arabicLightStem(word.replace(/s$/, '')))
  const last = rest.at(-1)
  return last !== undefined && isKeyword(last) && rest.filter((word) => !isKeyword(word)).length <= 1
}
