import { plainWords } from './caller-intents'

/**
 * A turn that takes a value back, split into what was taken back and what replaces it, in the
 * orders people say it: "not Thursday, Friday", "Friday, not Thursday", "four, no, five",
 * "I said this month but I meant this quarter", "no, the time is wrong, make it eight",
 * "لا مو الخميس، خلها الجمعة", "مش الساعة ٧، خليها ٨", "قلت أربعة بس قصدي خمسة".
 */
export interface TakeBack {
  /** What replaces the old value ("" when the turn only says no). */
  fresh: string
  /** The value taken back, when the turn says it ("" otherwise). */
  old: string
  /** Whether the turn takes something back ("no", "not X", "I meant"), not only settles ("let's say eight"). */
  corrects: boolean
}

/** A part that is only a no: "no", "nope", "لا", "لأ", "no no". */
const BARE_NO =
  /^(?:(?:no|nope|nah|لا|لاء)\s*)+(?:(?:wait|sorry|hang on|my bad|my mistake|لحظه|عفوا|اسف|اسفه|استني|استنا|اصبر|غلطت|غلطانه|غلطان)\s*)*$/
/** Politeness around a no ("no, thanks"), never a value. */
const POLITE = /^(?:thanks|thank you|thanks a lot|please|cheers|شكرا|مشكور|مشكوره|لو سمحت|الله يعافيك|يعطيك العافيه)$/
/** "Sorry", "wait", "عفوًا": a no only between two values ("four, sorry, five"), else nothing. */
const SOFT_NO = /^(?:(?:oh|sorry|oops|wait|hang on|my bad|my mistake|actually|عفوا|اسف|لحظه|اه|استني|استنا|اصبر|غلطت|غلطانه|غلطان)\s*)+$/
/** A part that names the old value: "not Thursday", "it's not eleven", "مو الخميس", "مش كده". */
const OLD_START =
  /^(?:(?:no|sorry|oh|oops|actually|لا|عفوا)\s+)*(?:(?!i\b|i'm\b|we\b|you\b|انا\b)[^\s]+\s+(?:[^\s]+\s+)?(?=(?:is not|isn't|wasn't|not|مش|مو|مب)\s))?(?:is not|isn't|wasn't|not|it's not|it is not|isn't|it isn't|مو|مش|مب|موب|ماهو|مهو|مهوب|مش هو|مو هو|i said|قلت|قلتلك|قلت لك)\s+(.+)$/
/** A part that introduces the new value: "I meant…", "make it…", "خلها…", "قصدي…"; or one that ends with "instead". */
const FRESH_START =
  /^(?:(?:no|sorry|oh|actually|so|لا|عفوا|يعني)\s+)*(?:i meant|i mean|i meant to say|make it|change it to|it should be|should be|it's actually|actually|let's say|lets say|rather|قصدي|اقصد|كنت اقصد|خلها|خليها|خليه|خلوها|خلوه|خليهم|خلي|بدلها|غيرها|غيره|صلحها|صححها|الصح|الصحيح)\s+(.+)$/
const FRESH_END = /^(.+?)\s+(?:instead|rather|بدالها|بداله|بدلها)$/
/** A part that only says something was wrong: "the time is wrong", "الوقت غلط". */
const WRONG_ONLY = /(?:^|\s)(?:wrong|incorrect|not right|غلط|خطا|مش صح|مو صح|مو مظبوط|مش مظبوط)$/

type Part = { role: 'old' | 'fresh' | 'plain' | 'no' | 'soft' | 'wrong'; words: string; weak?: boolean }
/** "Let's say eight": a settled answer, not a value taken back from an earlier field. */
const WEAK = /^(?:let's say|lets say)\s/

/** The caller's own words for the part of the plain words that `kept` is (its head or its tail), so names and codes keep their spelling. */
function ownWords(part: string, kept: string, head: boolean): string {
  const said = part.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word))
  const count = kept.split(' ').length
  const words = head ? said.slice(0, count) : said.slice(Math.max(0, said.length - count))
  return words.join(' ').replace(/[.!?؟,،]+$/u, '')
}

function classify(part: string, index: number): Part {
  const words = plainWords(part)
  if (BARE_NO.test(words)) return { role: 'no', words }
  if (POLITE.test(words)) return { role: 'plain', words: '' }
  if (SOFT_NO.test(words)) return { role: 'soft', words }
  const tail = (kept: string) => ownWords(part, kept, false)
  const old = OLD_START.exec(words)
  if (old) return { role: 'old', words: tail(old[1]!) }
  const fresh = FRESH_START.exec(words)
  if (fresh) return BARE_NO.test(fresh[1]!) ? { role: 'no', words } : { role: 'fresh', words: tail(fresh[1]!), weak: WEAK.test(words) }
  const freshEnd = FRESH_END.exec(words)
  if (freshEnd) return { role: 'fresh', words: ownWords(part, freshEnd[1]!, true) }
  if (WRONG_ONLY.test(words)) return { role: 'wrong', words }
  // "No, Friday", "لا الجمعة": a no followed by the new value, at the start (later, "…, no refund" says no to a thing).
  const led = index === 0 ? /^(?:no|nope|لا|لاء)\s+(.+)$/.exec(words) : null
  // "No thanks" is a no, politely: nothing is put in its place.
  if (led) return POLITE.test(led[1]!) ? { role: 'no', words } : { role: 'fresh', words: tail(led[1]!) }
  return { role: 'plain', words: part.replace(/[.!?؟]+$/u, '').trim() }
}

/** The take-back in a turn, or undefined when nothing is taken back. */
export function takeBack(text: string): TakeBack | undefined {
  const parts = text
    .split(/\s*[,،;]\s*|(?<=[.!?؟])\s+|\s+(?:but|بس|لكن)\s+/i)
    .map((part) => part.trim())
    .filter(Boolean)
    .map(classify)
    .map((part, index, all): Part => {
      if (part.role !== 'soft') return part
      const between = all[index - 1]?.role === 'plain' && all[index + 1]?.role === 'plain'
      return between ? { role: 'no', words: part.words } : { role: 'plain', words: '' }
    })
    .filter((part) => part.words !== '')
  const marks = parts.map((part) => part.role !== 'plain')
  if (!marks.some(Boolean)) return undefined
  // "Four, no, five": a lone no between two values; "no" alone at the start takes back nothing said here.
  const lastNo = parts.findLastIndex((part) => part.role === 'no' || part.role === 'old' || part.role === 'wrong')
  const old = parts.filter((part) => part.role === 'old').map((part) => part.words)
  parts.forEach((part, index) => {
    if (part.role === 'no' && index > 0 && parts[index - 1]!.role === 'plain') old.push(parts[index - 1]!.words)
  })
  const marked = parts.findLast((part) => part.role === 'fresh')
  const after = parts.slice(lastNo + 1).filter((part) => part.role === 'plain')
  const before = parts.slice(0, lastNo).filter((part) => part.role === 'plain')
  // The new value: said with a marker, else the first plain part after the last no, else ("Friday, not Thursday") the one before.
  const fresh = marked?.words ?? after[0]?.words ?? (parts[lastNo]?.role === 'old' ? before.at(-1)?.words : undefined) ?? ''
  if (fresh === '' && old.length === 0) return undefined
  const corrects = parts.some((part) => part.role !== 'plain' && !part.weak)
  return { fresh, old: old.join(' '), corrects }
}
