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
