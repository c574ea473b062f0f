import { stemmer } from 'stemmer'
import { arabicLightStem, isArabicWord, normaliseArabic } from '../ai-content/arabic-normalisation'
import { arabicCliticForms, isArabicStopWord, isEnglishStopWord } from '../ai-content/stop-words'
import { plainWords } from './caller-intents'
import { spellLatinForArabic } from './spoken-words'

/**
 * The caller's own questions ("do you have vegetarian food?", "عندكم مواقف؟", "who is this?")
 * and the agent's answers to them, from the agent's own words: the preamble sentence(s) sharing
 * the most meaning words with the question (English Porter stems, Arabic light stems with the
 * clitics و، ال، ب، ل، ف taken off, and a few word families such as "open / hours / تفتحون").
 * No model: when no sentence shares a meaning word, there is no answer and the agent says so.
 */

/** How a question opens when the caller does not end it with a question mark (normalised words). */
const QUESTION_OPENING =
  /^(?:do|does|did|are|is|was|can|could|will|would|have|has|what|what's|whats|when|where|where's|how|why|which|who|who's|هل|عندكم|عندك|فيه عندكم|في عندكم|ايش|ايه|شو|وش|متي|وين|فين|كيف|ليش|لماذا|ماذا|مين|منو|بكم|قديش|تفتحون|بتفتحوا)(?:\s|$)/

/** A turn that asks something: a question mark, or a question's opening words. */
export function asksQuestion(text: string): boolean {
  if (/[?؟]\s*$/.test(text.trim())) return true
  return QUESTION_OPENING.test(plainWords(text))
}

const ABOUT_THE_BUSINESS =
  /^(?:(?:do|does|can) (?:you|the \w+) (?:have|offer|serve|take|accept|sell|allow|provide)|is there|are there|عندكم|عندك|فيه|في عندكم|هل (?:عندكم|لديكم|يوجد|فيه|في))(?:\s|$)/
/** "Do you have high chairs?", "عندكم مواقف؟": a question about what the business has, never a change to the caller's answers. */
export function asksAboutTheBusiness(text: string): boolean {
  return (
    asksQuestion(text) &&
    ABOUT_THE_BUSINESS.test(
      plainWords(text).replace(
        /^(?:(?:wait|sorry|and|oh|also|first|before we start|before we begin|quick question|one question|طيب|بس|و|اول|قبل ما نبدا|قبل ما نبدء|قبل ما نبلش|سؤال)\s+)+/,
        '',
      ),
    )
  )
}

const WHO_IS_THIS = [
  /\bwho (?:is|'s) (?:this|that|calling|speaking)\b/,
  /\bwho am i (?:speaking|talking) (?:to|with)\b/,
  /\bwho are you\b/,
  /\bwhat(?:'s| is) your name\b/,
  /\bwhere are you calling from\b/,
  /(?:^|\s)(?:مين|من|منو|مع مين|مع من) (?:معي|معاي|معايا|انت|انتي|حضرتك|حضرتك|بيتكلم|يتكلم|اتكلم|المتصل)(?:\s|$)/,
  /(?:^|\s)(?:انت|انتي|حضرتك) (?:مين|منو|من)(?:\s|$)/,
  /(?:^|\s)(?:ما|شو|وش|ايش) اسمك(?:\s|$)/,
]
/** "Who is this?", "مين معي؟": the caller asks who the agent is. */
export function asksWhoThisIs(text: string): boolean {
  const words = plainWords(text)
  return WHO_IS_THIS.some((pattern) => pattern.test(words))
}

/** Words that carry no topic in a question ("do you have", "can I", "عندكم"), beyond the shared stop words. */
const QUESTION_FILLER = new Set(
  `do does did you your yours we our us i me my can could would will is are there any have has get got need want like know tell
  please thanks thank also just much many long often bring make take come go open-ended question ask sorry okay ok yes no
  عندكم عندك فيه في ممكن اعرف ابغي ابي بدي عايز تقدر تقدرون هل ايش اي شو وش كيف متي وين فين ليش ماذا لماذا مين كم قديش انتم انتو انت يعني طيب لو سمحت سمحت ايه`
    .split(/\s+/)
    .filter(Boolean),
)

/** Words of one family a question and a preamble may use differently ("open" / "hours" / "تفتحون" / "دوام"); each maps to its family's key. */
const FAMILIES: readonly (readonly string[])[] = [
  [
    'open',
    'hour',
    'close',
    'clos',
    'فتح',
    'تفتح',
    'نفتح',
    'يفتح',
    'مفتوح',
    'دوام',
    'تسكر',
    'تقفل',
    'سكر',
    'اغلاق',
    'يغلق',
    'نغلق',
    'مواعيد',
  ],
  ['park', 'car', 'مواقف', 'موقف', 'باركنج', 'سياره', 'سيار'],
  ['vegetarian', 'vegan', 'نباتي', 'نبات'],
  ['price', 'cost', 'cheap', 'expens', 'fee', 'charg', 'سعر', 'اسعار', 'تكلف', 'رسوم', 'بكم'],
  ['where', 'address', 'locat', 'street', 'road', 'find', 'عنوان', 'موقع', 'شارع', 'مكان', 'وين', 'فين', 'مكانكم'],
  ['refund', 'money', 'استرجاع', 'استرداد', 'مبلغ', 'فلوس', 'يرجع'],
  ['deliv', 'ship', 'driver', 'توصيل', 'شحن', 'مندوب', 'سائق'],
  ['insur', 'تامين'],
  ['child', 'kid', 'famili', 'chair', 'اطفال', 'عائلات', 'عائل', 'طفل'],
]
const FAMILY_OF = new Map<string, string>(FAMILIES.flatMap((family) => family.map((word) => [word, `#${family[0]}`] as const)))
const FAMILY_MEMBERS = new Map<string, readonly string[]>(FAMILIES.map((family) => [`#${family[0]}`, family]))

/** Keys already worked out, word by word: a long preamble repeats its words. Bounded, and simply emptied when full. */
const KEY_CACHE = new Map<string, string[]>()
const KEY_CACHE_LIMIT = 50_000
const FAMILY_PREFIXES = [...FAMILY_OF.entries()].filter(([member]) => member.length >= 4)

function keysOf(word: string): string[] {
  let keys = KEY_CACHE.get(word)
  if (keys) return keys
  if (KEY_CACHE.size >= KEY_CACHE_LIMIT) KEY_CACHE.clear()
  keys = computeKeys(word)
  KEY_CACHE.set(word, keys)
  return keys
}

/** The keys a word can match by: its stem, an Arabic verb's stem without its person prefix, and its word family. */
function computeKeys(word: string): string[] {
  const keys: string[] = []
  if (isArabicWord(word)) {
    const normalised = normaliseArabic(word)
    if (isArabicStopWord(normalised) || QUESTION_FILLER.has(normalised)) return []
    const forms = [normalised, ...arabicCliticForms(normalised)].map((form) => arabicLightStem(form)).filter((form) => form.length >= 2)
    for (const form of forms) {
      keys.push(form)
      // "تفتحون" / "نفتح" / "يفتح": an imperfect verb's person prefix hides the shared stem.
      if (/^[تنيا]/.test(form) && form.length >= 4) keys.push(form.slice(1))
    }
  } else {
    const lower = word.toLowerCase().replace(/'s$/, '')
    if (lower.length < 3 || isEnglishStopWord(lower) || QUESTION_FILLER.has(lower)) return []
    keys.push(stemmer(lower))
  }
  const families = keys.map((key) => FAMILY_OF.get(key) ?? FAMILY_PREFIXES.find(([member]) => key.startsWith(member))?.[1])
  return [...new Set([...keys, ...families.filter((family): family is string => family !== undefined)])]
}

function keySet(text: string): Set<string> {
  return new Set(
    plainWords(text)
      .split(' ')
      .flatMap((word) => keysOf(word)),
  )
}

/** Instructions to the agent, not facts for the caller ("Never promise…", "لا تبع شيئًا", "Always…"). */
const INSTRUCTION =
  /^(?:never|always|do not|don't|you must|you should|you are|you're|be|keep|avoid|ask|confirm|collect|offer|tell|say|use|check|make sure|greet|if|when|once|before|after|end|close|repeat|speak|answer|introduce|mention|note|record|transfer|escalate|explain|remind|let|inform|apologi[sz]e|thank|invite|suggest|encourage|follow|try|do|please|stay|stick|only|write|fill|ensure|verify|capture|gather|identify|determine|qualify|book|schedule|handle|politely|briefly|finally|first|then|next)\b|^(?:لا ت|يجب|احرص|اسأل|تأكد|اجمع|قل |اذكر|إذا|اذا|عندما|انت وكيل|أنت وكيل|كن )/i

/**
 * A preamble sentence as the agent says it to a caller: "You take bookings for X" → "We take
 * bookings for X", "أنت تستقبل الحجوزات" → "نستقبل الحجوزات"; undefined for an instruction.
 */
function asSaid(sentence: string, lang: 'ar' | 'en'): string | undefined {
  // A numbered or bulleted rule ("5. Ask for …") is judged by its words.
  const trimmed = sentence.trim().replace(/^(?:\d+[.)]|[-*•])\s*/, '')
  if (INSTRUCTION.test(trimmed)) return undefined
  if (lang === 'en')
    return trimmed.replace(/^you\s+(\w+)/i, (_match, verb: string) => `We ${verb}`).replace(/\byour\b(?= (?:job|role|task))/gi, 'our')
  const spoken = trimmed.replace(/^(?:أنت|انت|أنتِ)\s+ت(\S+)/, 'ن$1')
  return spellLatinForArabic(spoken)
}

export interface PreambleIndex {
  /** Each sentence as said, with its plain words; its keys are worked out only when a question's words appear in it. */
  sentences: { said: string; plain: string; keys?: Set<string> }[]
  /** What the agent does, as it tells a caller ("We take table bookings for Olive Grove, …"): the first "You <verb> …" sentence. */
  introduction?: string
}

/** The preamble's sentences, built once per call, cheaply (a 50 KB preamble in a few milliseconds). Instructions are left out. */
export function indexPreamble(preamble: string, lang: 'ar' | 'en'): PreambleIndex {
  const sentences: PreambleIndex['sentences'] = []
  let introduction: string | undefined
  // A plain split on sentence stops: the speech splitter is built for streams, too slow for a long preamble.
  for (const sentence of preamble.split(/(?<=[.!?؟…])\s+|\n+/)) {
    const said = asSaid(sentence, lang)
    if (!said || said.length > 400) continue
    sentences.push({ said, plain: plainWords(sentence) })
    if (!introduction && /^(?:you|أنت|انت)\s/i.test(sentence.trim())) introduction = said
  }
  return { sentences, introduction }
}

/** At most this many sentences answer one question. */
const MAX_ANSWER_SENTENCES = 2

/**
 * The preamble sentence(s) that answer the caller's question best, or undefined when none
 * shares a meaning word with it (or the question has none: "what?").
 */
export function answerFromPreamble(question: string, index: PreambleIndex): string | undefined {
  const asked = keySet(question)
  if (asked.size === 0) return undefined
  // Only sentences holding one of the question's stems (or a word of its families) are read word by word.
  const needles = [...asked].flatMap((key) => (key.startsWith('#') ? (FAMILY_MEMBERS.get(key) ?? []) : [key]))
  let best = 0
  const scored = index.sentences
    .filter((sentence) => needles.some((needle) => sentence.plain.includes(needle)))
    .map((sentence) => {
      const keys = (sentence.keys ??= keySet(sentence.plain))
      let score = 0
      for (const key of asked) if (keys.has(key)) score += key.startsWith('#') ? 1 : 1.5
      best = Math.max(best, score)
      return { sentence, score }
    })
  if (best === 0) return undefined
  return scored
    .filter((entry) => entry.score === best)
    .slice(0, MAX_ANSWER_SENTENCES)
    .map((entry) => entry.sentence.said)
    .join(' ')
}
