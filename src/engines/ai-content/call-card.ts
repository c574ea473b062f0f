import { isArabicWord, normaliseArabic } from './arabic-normalisation'
import { isArabicStopWord, isEnglishStopWord } from './stop-words'
import type { Sentence } from './text-analysis'
import { readReplacements } from './value-replacement'
import { AR_START, identifierLabel, PATTERNS, plainKey, type Fact, type FactKind } from './card-patterns'

export type { Fact, FactKind }

/**
 * The "call card": what a conversation (or a short text) settles, read once before any part is
 * written. Who speaks (agent or caller), the names, identifiers, amounts, quantities, dates and
 * times it states, and which dates and times were given up: in a conversation a later date or
 * time replaces an earlier one ("Tuesday doesn't work… Thursday at four"), so the earlier one is
 * never reported as the booked one. Data tables and patterns only; no model.
 */

export type Role = 'agent' | 'caller'
export interface CallCard {
  /** Speaker of each sentence, when the text says who speaks. */
  roles: (Role | undefined)[]
  facts: Fact[]
  /** The name the caller gives for themself. */
  callerName: string | undefined
  /** People named with a title or introduced (the agent, a doctor), the caller's name excluded. */
  people: string[]
  /** Dates and times given up for a later one: facts, by sentence. */
  rejected: Fact[]
  /** The date and time the conversation settles on (the last one of each kind), in its words. */
  settled: Fact[]
  /** Values a text says replace others ("moves from March 3 to March 17": March 17), first mention first. */
  targets: Fact[]
  /** Spans of a sentence that only name a given-up value ("from March 3 "), cut when the sentence is quoted. */
  strikes: Map<number, [number, number][]>
  /** The sentence that states the main commitment (a booking, a delivery, a refund), if any. */
  commitment: number | undefined
  /** The caller's first sentence with content: why they called. */
  reason: number | undefined
  /** Sentences with an objection, a refusal or a concern. */
  objections: number[]
  /** Sentences that promise what happens next. */
  nextSteps: number[]
  /** The caller's answer to a choice offered ("a replacement or a refund?" → "A replacement"). */
  decisions: number[]
  /**
   * What was agreed beyond the main commitment: a caller's request the agent grants ("Can I have a
   * courtesy car?" → "Yes, …"; "تقدرون توصلوني؟" → "إيه، …"), or a decision in notes ("Rana agreed…", "اتفقنا…").
   */
  agreed: number[]
}

/** An offer of alternatives: "X or Y?", "… ولا …؟", "… أو …؟". */
export const ALTERNATIVES = /\bor\b|(?:^|\s)(?:أو|او|ولا|وإلا|والا)(?=\s)/

const AGENT_LABELS = new Set(
  [
    'agent',
    'operator',
    'representative',
    'rep',
    'assistant',
    'receptionist',
    'advisor',
    'adviser',
    'support',
    'staff',
    'bot',
    'الموظف',
    'الموظفة',
    'الوكيل',
    'الوكيلة',
    'المندوب',
    'المندوبة',
    'خدمة',
    'المساعد',
    'الاستقبال',
  ].map((word) => normaliseArabic(word)),
)
const CALLER_LABELS = new Set(
  [
    'caller',
    'customer',
    'client',
    'user',
    'patient',
    'guest',
    'المتصل',
    'المتصلة',
    'العميل',
    'العميلة',
    'الزبون',
    'الزبونة',
    'المريض',
    'المريضة',
  ].map((word) => normaliseArabic(word)),
)

/** Each sentence's role: from role labels, or, in a text of exactly two speakers, the first to speak answers the call. */
export function speakerRoles(sentences: readonly Sentence[]): (Role | undefined)[] {
  const labels = [...new Set(sentences.map((sentence) => sentence.speaker).filter((label): label is string => label !== undefined))]
  const known = (label: string): Role | undefined => {
    const word = normaliseArabic(label.split(/\s/)[0]!.toLowerCase())
    return AGENT_LABELS.has(word) ? 'agent' : CALLER_LABELS.has(word) ? 'caller' : undefined
  }
  const byLabel = new Map<string, Role>()
  for (const label of labels) {
    const role = known(label)
    if (role) byLabel.set(label, role)
  }
  if (byLabel.size === 0 && labels.length === 2) {
    byLabel.set(labels[0]!, 'agent')
    byLabel.set(labels[1]!, 'caller')
  }
  return sentences.map((sentence) => (sentence.speaker === undefined ? undefined : byLabel.get(sentence.speaker)))
}

/** English cue + name: "this is Karen", "it's Daniel Moss", "my name is …", "engineer named Priya"; titles: "Dr. Patel". */
const EN_SELF_INTRODUCTION =
  /\b(?:this is|it's|it is|my name is|my name's|i'm|i am|name is|named|call me)\s+((?:[A-Z][a-z]+)(?:\s+[A-Z][a-z]+)?)/g
const EN_TITLED = /\b((?:Dr|Mr|Mrs|Ms|Miss|Prof)\.?\s+[A-Z][a-z]+)/g
const AR_SELF_INTRODUCTION = new RegExp(
  `${AR_START}(?:معك|معاك|معكم|أنا|انا|اسمي|إسمي|باسم|بإسم)\\s+(\\p{L}{2,}(?:\\s+\\p{L}{2,})?)(?=\\s*(?:[،,.!؟?]|$))`,
  'gu',
)
const AR_TITLED = new RegExp(
  `${AR_START}((?:الدكتور|الدكتورة|دكتور|دكتورة|الأستاذ|الأستاذة|أستاذ|أستاذة|المهندس|المهندسة|مهندس|مهندسة)\\s+\\p{L}{2,})`,
  'gu',
)
const NAME_QUESTION = /\bname\b|اسم|إسم|باسم مين|باسم من/i
const NOT_A_NAME = new Set([
  'مين',
  'ايش',
  'إيش',
  'شو',
  'ماذا',
  'من',
  'hi',
  'hello',
  'hey',
  'thanks',
  'speaking',
  'here',
  'calling',
  'sorry',
  'fine',
  'good',
  'great',
  'ok',
  'okay',
  'yes',
  'no',
  'not',
  'the',
])

const OBJECTION = new RegExp(
  `\\b(?:concern(?:ed)?|worried|too (?:expensive|much|high|late|early)|can't|cannot|can not|doesn't work|don't want|not interested|problem is|afraid|unhappy|expensive)\\b|(?<![\\p{L}])[وف]?(?:ما يناسب|مش مناسب|ما يناسبني|مش فاضي|مش فاضية|ما أقدر|ما اقدر|مش هقدر|غالي|عالي|مو مناسب|ما بقدر|مش عاجب|للأسف)(?![\\p{L}])`,
  'iu',
)
const NEXT_STEP = new RegExp(
  `\\b(?:will|we'll|i'll|you'll|it'll|going to|booked|confirmed|scheduled|arranged|reserved|see you|send|sent|text you|email you|call you back)\\b|(?<![\\p{L}])[وف]?(?:تم|اتحجز|سوف|سنقوم|رح|راح|بنرسل|هنبعت|هتكون|بيرجع|ترجع|توصلك|بيوصلك|بنبعت|نبعتلك|حجزت|فتحت|بستنا|منستنا|نستناك)(?![\\p{L}])`,
  'iu',
)
const COMMITMENT = new RegExp(
  `\\b(?:booked|confirmed|scheduled|arranged|reserved|set up|see you|is free|will be delivered|will come|will arrive)\\b|(?<![\\p{L}])[وف]?(?:تم الحجز|تم|اتحجز|حجزت|حجزنا|مأكد|مؤكد|توصلك|بيوصلك|بستنا|نستناك|منستناك|فتحت)(?![\\p{L}])`,
  'iu',
)

/**
 * The call card of analysed sentences. `conversation` turns on later-replaces-earlier: in an
 * article, two dates ("from Thursday to Sunday") are both facts.
 */
export function readCallCard(sentences: readonly Sentence[], conversation: boolean): CallCard {
  const roles = speakerRoles(sentences)
  const facts: Fact[] = []
  for (const sentence of sentences) {
    const taken: [number, number][] = []
    for (const pattern of PATTERNS) {
      for (const match of sentence.text.matchAll(pattern.regex)) {
        const text =
          pattern.kind === 'quantity'
            ? countedWords(match[0])
            : (pattern.group ? match[pattern.group] : match[0])!.trim().replace(/[.,،]+$/, '')
        if (!text || (pattern.accept && !pattern.accept(text))) continue
        const start = match.index
        const end = start + match[0].length
        // A span already read as a more specific kind (an amount) is not a quantity too.
        if (taken.some(([from, to]) => start < to && end > from)) continue
        taken.push([start, end])
        const at = start + Math.max(0, match[0].indexOf(text))
        const fact: Fact = {
          kind: pattern.kind,
          text,
          key: pattern.key ? pattern.key(match) : plainKey(text),
          sentence: sentence.index,
          start: at,
          end: at + text.length,
        }
        if (fact.kind === 'identifier')
          fact.label = identifierLabel(text, sentence.text.slice(0, at), askedBefore(sentences, sentence.index))
        facts.push(fact)
      }
    }
  }
  const names = readNames(sentences, roles)
  facts.push(...names.facts)

  // In a call, a later date or time replaces a turned-down one; in any text, one it says replaces another ("moved from … to …").
  const replaced = readReplacements(sentences, facts)
  const base = conversation
    ? laterReplacesEarlier(sentences, facts)
    : { settled: facts.filter((fact) => fact.kind === 'date' || fact.kind === 'time'), rejected: [] as Fact[] }
  const rejected = [...new Set([...base.rejected, ...replaced.rejected, ...earlierMentions(facts, replaced.rejected, replaced.targets)])]
  const settled = base.settled.filter((fact) => !rejected.includes(fact))
  const card = { rejected, strikes: replaced.strikes }
  const schedule = new Set(settled.map((fact) => fact.sentence))
  const commitmentCandidates = sentences
    .filter((sentence) => schedule.has(sentence.index) && COMMITMENT.test(sentence.text))
    .map((sentence) => sentence.index)
  const rejectedSentences = new Set(rejected.filter((fact) => quotesRejected(card, fact.sentence)).map((fact) => fact.sentence))
  const moved = replaced.targets.map((fact) => fact.sentence).filter((index) => !rejectedSentences.has(index))
  // A text's decision is the value it moved; a call's is what it booked.
  const commitment =
    (conversation ? undefined : moved.at(-1)) ??
    commitmentCandidates.filter((index) => !rejectedSentences.has(index)).at(-1) ??
    moved.at(-1) ??
    [...schedule].filter((index) => !rejectedSentences.has(index)).at(-1)
  const reason = sentences.find(
    (sentence) => roles[sentence.index] === 'caller' && !sentence.isQuestion && sentence.tokens.filter((token) => !token.stop).length >= 3,
  )?.index
  return {
    roles,
    facts,
    callerName: names.caller,
    people: names.people,
    rejected,
    settled,
    targets: replaced.targets,
    strikes: replaced.strikes,
    commitment,
    reason,
    objections: sentences
      .filter((sentence) => (roles[sentence.index] ?? 'caller') === 'caller' && OBJECTION.test(sentence.text))
      .map((sentence) => sentence.index),
    decisions: choicesMade(sentences, roles),
    agreed: [
      ...grantedRequests(sentences, roles),
      ...sentences.filter((sentence) => !sentence.isQuestion && AGREED.test(sentence.text)).map((sentence) => sentence.index),
    ],
    nextSteps: sentences
      .filter((sentence) => roles[sentence.index] !== 'caller' && NEXT_STEP.test(sentence.text) && !sentence.isQuestion)
      .map((sentence) => sentence.index),
  }
}

/** Whether sentence `index` still states a given-up value once its struck spans are cut. */
export function quotesRejected(card: Pick<CallCard, 'rejected' | 'strikes'>, index: number): boolean {
  const spans = card.strikes.get(index) ?? []
  return card.rejected.some((fact) => fact.sentence === index && !spans.some(([from, to]) => fact.start >= from && fact.end <= to))
}

/** Earlier mentions of a value a text gave up ("The launch is March 3. … moved from March 3 to …"): the old value too. */
function earlierMentions(facts: readonly Fact[], given: readonly Fact[], targets: readonly Fact[]): Fact[] {
  return facts.filter(
    (fact) =>
      !targets.includes(fact) &&
      given.some((old) => old !== fact && old.kind === fact.kind && old.key === fact.key && fact.sentence <= old.sentence),
  )
}

/** A turn that turns an offer down: "doesn't work", "can't", "taken", "لا، …", "مش فاضية", "مفيش مكان". */
const REFUSAL =
  /\b(?:doesn't work|does not work|don't work|won't work|can't|cannot|can not|no good|not possible|taken|booked up|full|instead|rather|unavailable|not free|not available)\b|(?:^|[\s،,])(?:لا|لأ|مو|مب|مش|ما يناسب|ما ينفع|مينفعش|مفيش|ما في|مافي|ما فيه|ما بقدر|ما أقدر|ما اقدر|مش فاضي|مش فاضية|محجوز|بدل|بدال)(?=[\s،,.!?؟]|$)/i
/** A caller switching to another option ("make it Thursday", "خلها الأكسنت", "instead"): the sentence names the option given up. */
export const SWITCH =
  /\b(?:make it|instead|rather|switch to|change it to)\b|(?:^|[\s،,])(?:خلها|خليها|خليه|خله|خلّيها|بدل|بدال|خليني)(?=\s)/i

/** A request: "can I / could you / is it possible", "ممكن", "تقدرون", "فيه إمكانية", "بقدر". */
const REQUEST =
  /\b(?:can|could|may) (?:i|we|you)\b|\bis it possible\b|\bdo you (?:have|offer|do)\b|(?<![\p{L}])[وف]?(?:ممكن|فيك|فيكي|فيكم|تقدر|تقدرون|تقدري|تقدروا|بتقدر|بتقدروا|فيه|في إمكانية|عندكم|بقدر|اقدر|أقدر|ينفع|يصير)(?![\p{L}])/iu
/** A reply that grants it. */
const GRANTED =
  /^(?:yes|yeah|yep|sure|of course|certainly|absolutely|no problem|definitely)\b|^(?:إيه|ايه|اي|أي|ايوه|أيوه|أيوا|ايوا|نعم|أكيد|اكيد|طبعا|طبعًا|أبشر|ابشر|تمام|ولا يهمك|عادي|إي|اه|آه)(?![\p{L}])/iu
/** A decision written down in notes: "agreed", "decided", "approved", "اتفقنا", "قررنا", "وافق". */
const AGREED =
  /\b(?:agreed|decided|approved|signed off)\b|(?<![\p{L}])[وف]?(?:اتفقنا|اتفقوا|قررنا|تقرر|وافق|وافقت|وافقوا|وافقنا|اعتمدنا|تمت الموافقة)(?![\p{L}])/iu

/** A caller's request that the agent's next turn grants: the request states what was agreed. */
function grantedRequests(sentences: readonly Sentence[], roles: readonly (Role | undefined)[]): number[] {
  return sentences
    .filter((sentence) => sentence.isQuestion && roles[sentence.index] === 'caller' && REQUEST.test(sentence.text))
    .filter((sentence) => {
      const reply = replyTurn(sentences, sentence.index)[0]
      return reply !== undefined && roles[reply] === 'agent' && GRANTED.test(sentences[reply]!.text.trim())
    })
    .map((sentence) => sentence.index)
}

/** The first sentence of each caller turn that answers an agent's question offering alternatives. */
function choicesMade(sentences: readonly Sentence[], roles: readonly (Role | undefined)[]): number[] {
  const decisions: number[] = []
  let previousTurn: Sentence[] = []
  let currentTurn: Sentence[] = []
  for (const sentence of sentences) {
    if (currentTurn.length > 0 && sentence.turn !== currentTurn[0]!.turn) {
      previousTurn = currentTurn
      currentTurn = []
    }
    currentTurn.push(sentence)
    const opensCallerTurn = currentTurn.length === 1 && roles[sentence.index] === 'caller' && !sentence.isQuestion
    if (
      opensCallerTurn &&
      previousTurn.some((asked) => roles[asked.index] === 'agent' && asked.isQuestion && ALTERNATIVES.test(asked.text))
    )
      decisions.push(sentence.index)
  }
  return decisions
}

/**
 * Dates and times in a conversation: a value is given up when a later, different value of the
 * same kind follows and the value was turned down, in its own sentence or in the reply turn
 * ("Tuesday doesn't work"), or the reply turn proposed another one ("Could we make it Thursday?").
 * Two dates that answer different things ("down since Saturday", "fixed by Tuesday") both stand.
 */
function laterReplacesEarlier(sentences: readonly Sentence[], facts: readonly Fact[]): { settled: Fact[]; rejected: Fact[] } {
  const settled: Fact[] = []
  const rejected: Fact[] = []
  for (const kind of ['date', 'time'] as const) {
    const ofKind = facts.filter((fact) => fact.kind === kind)
    for (const fact of ofKind) {
      const later = ofKind.filter(
        (other) =>
          other.sentence > fact.sentence ||
          (other.sentence === fact.sentence && other !== fact && ofKind.indexOf(other) > ofKind.indexOf(fact)),
      )
      const superseded =
        later.some((other) => other.key !== fact.key) &&
        !later.some((other) => other.key === fact.key && other.sentence > replyTurnEnd(sentences, fact.sentence))
      const reply = replyTurn(sentences, fact.sentence)
      const turnedDown =
        REFUSAL.test(sentences[fact.sentence]!.text) ||
        reply.some((index) => REFUSAL.test(sentences[index]!.text) || SWITCH.test(sentences[index]!.text)) ||
        ofKind.some((other) => reply.includes(other.sentence) && other.key !== fact.key)
      ;(superseded && turnedDown ? rejected : settled).push(fact)
    }
    // Once turned down, every earlier mention of that value is the old one too ("She's booked for Wednesday at four").
    const last = ofKind.at(-1)?.key
    const given = new Set(rejected.filter((fact) => fact.kind === kind).map((fact) => fact.key))
    for (const fact of [...settled]) {
      if (fact.kind === kind && given.has(fact.key) && fact.key !== last) {
        settled.splice(settled.indexOf(fact), 1)
        rejected.push(fact)
      }
    }
  }
  return { settled, rejected }
}

/** Questions of the few sentences before `index`, nearest first: what a bare read-back answers. */
function askedBefore(sentences: readonly Sentence[], index: number): string[] {
  return sentences
    .slice(Math.max(0, index - 3), index)
    .filter((sentence) => sentence.isQuestion)
    .map((sentence) => sentence.text)
    .reverse()
}

/** The sentences of the next speaker turn after `index`'s turn. */
function replyTurn(sentences: readonly Sentence[], index: number): number[] {
  const turn = sentences[index]!.turn
  const next = sentences.find((sentence) => sentence.turn > turn)?.turn
  return next === undefined ? [] : sentences.filter((sentence) => sentence.turn === next).map((sentence) => sentence.index)
}

function replyTurnEnd(sentences: readonly Sentence[], index: number): number {
  return replyTurn(sentences, index).at(-1) ?? index
}

function readNames(
  sentences: readonly Sentence[],
  roles: readonly (Role | undefined)[],
): { facts: Fact[]; caller: string | undefined; people: string[] } {
  const facts: Fact[] = []
  let caller: string | undefined
  const people: string[] = []
  const add = (text: string, sentence: number, asCaller: boolean) => {
    // "أنا اسمي منى": the second cue is not part of the name.
    const name = text.trim().replace(/^(?:اسمي|إسمي|my name is)\s+/iu, '')
    if (!name || name.split(/\s+/).some((word) => NOT_A_NAME.has(word.toLowerCase()))) return
    const at = Math.max(0, sentences[sentence]!.text.indexOf(name))
    facts.push({ kind: 'name', text: name, key: plainKey(name), sentence, start: at, end: at + name.length })
    if (asCaller) caller ??= name
    else if (!people.includes(name)) people.push(name)
  }
  for (const sentence of sentences) {
    const role = roles[sentence.index]
    for (const match of sentence.text.matchAll(EN_SELF_INTRODUCTION)) add(match[1]!, sentence.index, role === 'caller')
    for (const match of sentence.text.matchAll(AR_SELF_INTRODUCTION)) add(match[1]!, sentence.index, role === 'caller')
    for (const match of sentence.text.matchAll(EN_TITLED)) add(match[1]!, sentence.index, false)
    // A title before a word with the article names a department ("دكتورة الجلدية"), not a person.
    for (const match of sentence.text.matchAll(AR_TITLED)) if (!/\sال/.test(match[1]!)) add(match[1]!, sentence.index, false)
    // A short reply to "your name?" is a name.
    const previous = sentences[sentence.index - 1]
    const firstClause = sentence.text.split(/[,،]/)[0]!
    if (
      role === 'caller' &&
      previous &&
      previous.turn !== sentence.turn &&
      NAME_QUESTION.test(previous.text) &&
      firstClause.split(/\s+/).length <= 3 &&
      !sentence.isQuestion
    ) {
      const reply = firstClause.replace(/[.!]+$/, '').replace(/^(?:it's|my name is|اسمي|باسم)\s+/i, '')
      if (!/\d/.test(reply) && !/^(?:yes|no|ok|okay|نعم|لا|اي|إيه|ايوه)\b/i.test(reply)) add(reply, sentence.index, true)
    }
  }
  return { facts, caller, people }
}

/**
 * A quantity as the number and the content words it counts: trailing function words dropped
 * ("one building with" → "one building"); a bare number only when it is long enough to be a
 * value ("850", "تمنمية وخمسين"), not "one" or "two".
 */
function countedWords(match: string): string {
  const words = match
    .trim()
    .replace(/^and\s+/i, '')
    .replace(/[.,،]+$/, '')
    .split(/\s+/)
  while (words.length > 1 && isFunctionWord(words.at(-1)!)) words.pop()
  const text = words.join(' ')
  // A year ("in 2021, …") dates something; it counts nothing. Nor does "one" ("one of the trials", "إحدى التجارب").
  const justOne =
    ONE.has(normaliseArabic(words[0]!.toLowerCase())) &&
    !/^(?:hundred|thousand|million|and|half|مئة|مية|مائة|ألف|الف)/i.test(words[1] ?? '')
  if (/^(?:19|20)\d{2}$/.test(words[0]!) || justOne) return ''
  if (words.length === 1 || words.slice(1).every(isFunctionWord)) return /\d{2}|و\S/.test(text) ? text : ''
  return text
}

const ONE = new Set(['one', 'a', 'واحد', 'واحدة', 'إحدى', 'احدى', 'أحد', 'احد'].map(normaliseArabic))

const isFunctionWord = (word: string) => {
  const lower = word.toLowerCase().replace(/[.,،]+$/, '')
  return /[^\p{L}\p{M}]/u.test(lower) || (isArabicWord(lower) ? isArabicStopWord(normaliseArabic(lower)) : isEnglishStopWord(lower))
}
