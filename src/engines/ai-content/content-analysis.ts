import { normaliseArabic } from './arabic-normalisation'
import { isGreetingWord } from './stop-words'
import { ALTERNATIVES, quotesRejected, readCallCard, SWITCH, type CallCard } from './call-card'
import { withoutStrikes } from './value-replacement'
import { extractKeywords, type Keyword } from './keyword-extraction'
import { rankSentences, type SentenceRanking } from './sentence-ranking'
import { LIST_MARKER, splitText, tidySentence, type Lang, type Sentence } from './text-analysis'
import { clusterTopics, type Topic } from './topic-clustering'

/** Whether the source reads as people talking (a call, an interview) or as written text; only changes wording. */
export type SourceKind = 'conversation' | 'text'

/** Everything the part writers need, computed once per text. */
export interface AnalysedContent {
  lang: Lang
  kind: SourceKind
  /** The source job's title, when it looks like words rather than a file name. */
  title: string | undefined
  sentences: Sentence[]
  /** Best first; never empty. */
  keywords: Keyword[]
  ranking: SentenceRanking
  /** At least one. */
  topics: Topic[]
  /** Who speaks and what the text settles (see call-card.ts); read before any part is written. */
  card: CallCard
  /** The summary's sentence indexes, in the order of the text. */
  summaryIndexes: number[]
  /** Sentence `index` made presentable on its own (see tidySentence), without the spans that only name a given-up value. */
  line(index: number): string
}

const KEYWORD_LIMIT = 10
/** A summary line this similar to one already chosen repeats it. */
const REDUNDANT_SIMILARITY = 0.5

/** First and second person words, as matching keys: a text full of them is people talking. */
const PERSONAL_WORDS = new Set([
  'i',
  'you',
  'we',
  'me',
  'my',
  'your',
  'our',
  'us',
  "i'm",
  "we're",
  "you're",
  "i've",
  "we've",
  "you've",
  "i'll",
  "we'll",
  "you'll",
  "i'd",
  "we'd",
  ...['أنا', 'نحن', 'أنت', 'أنتم', 'أنتن', 'أنتي', 'لنا', 'لكم', 'عندنا', 'عندكم', 'لدينا', 'لديكم'].map(normaliseArabic),
])

/**
 * Analyses a text once: sentences, keywords, sentence ranking, topics and the summary choice.
 * Throws when the text has no words to write about.
 */
export function analyseContent(text: string, lang: Lang, title?: string): AnalysedContent {
  const split = splitText(text)
  const sentences = split.sentences
  if (sentences.length === 0) throw new Error('The source text has no words to write about')
  const card = readCallCard(sentences, split.hasSpeakerLabels)
  markScheduleWords(sentences, card)
  const { keywords, termWeights } = extractKeywords(sentences, KEYWORD_LIMIT)
  const ranking = rankSentences(sentences, termWeights)
  const topics = clusterTopics(keywords, sentences, ranking)
  const lines = new Map<number, string>()
  const kind: SourceKind = split.hasSpeakerLabels || personalShare(sentences) >= 0.03 ? 'conversation' : 'text'
  return {
    lang,
    kind,
    card,
    title: usableTitle(title, text),
    sentences,
    keywords,
    ranking,
    topics,
    summaryIndexes: chooseSummary(sentences, ranking, card, isPointList(text)),
    line(index) {
      let line = lines.get(index)
      if (line === undefined) {
        // A bullet ("- ", "• ") is layout of the source, not part of the sentence.
        line = tidySentence(withoutStrikes(sentences[index]!.text, card.strikes.get(index)).replace(/^[-*•]\s+/, ''))
        lines.set(index, line)
      }
      return line
    },
  }
}

/** About √n sentences (1 for 2–3, 3 for 9, 6 for 36), at most 7, always fewer than the text has. */
function summaryLength(sentenceCount: number): number {
  if (sentenceCount <= 1) return 1
  return Math.max(1, Math.min(7, sentenceCount - 1, Math.round(Math.sqrt(sentenceCount))))
}

/** Share of a short text's sentences a fact-led summary may quote: facts spread over most of a five-line article. */
const FACT_SHARE = 0.6
/** A call repeats itself (offers, read-backs, courtesies): half its sentences hold what it settles. */
const CALL_SHARE = 0.5
const MAX_SUMMARY_SENTENCES = 7
/** Notes laid out as points ("1. …", "ثانيًا: …"): each point is a decision or an owner, so most of them are kept. */
const POINT_SHARE = 0.8
const MIN_POINTS = 3

/** Whether a text is laid out as numbered or bulleted points, like meeting notes. */
function isPointList(text: string): boolean {
  return text.split('\n').filter((line) => LIST_MARKER.test(line.trim()) || /^\s*[-*•]\s/.test(line)).length >= MIN_POINTS
}

/**
 * The summary's sentences, in text order: those that carry the card's facts first (the
 * commitment, why the caller called, objections, next steps, amounts, identifiers, figures),
 * then the best-ranked, skipping near-repeats (maximal marginal relevance). A sentence that
 * states a date or time given up, switches away from an option, or only greets is never chosen.
 */
function chooseSummary(sentences: readonly Sentence[], ranking: SentenceRanking, card: CallCard, pointList: boolean): number[] {
  // A name counts where it is news (the caller's own), not in the agent's "this is Karen" opener.
  const factsIn = new Map<number, number>()
  for (const fact of card.facts)
    if (fact.kind !== 'name' || card.roles[fact.sentence] !== 'agent') factsIn.set(fact.sentence, (factsIn.get(fact.sentence) ?? 0) + 1)
  const ruledOut = summaryRuledOut(sentences, card)
  // A caller's reply to the agent's question is what the call was asking for ("About a hundred and twenty people").
  const answersAgent = (index: number) =>
    index > 0 &&
    card.roles[index] === 'caller' &&
    card.roles[index - 1] === 'agent' &&
    sentences[index - 1]!.isQuestion &&
    !sentences[index]!.isQuestion
  const weight = (index: number) =>
    2 * (factsIn.get(index) ?? 0) +
    (index === card.commitment ? 3 : 0) +
    (index === card.reason ? 3 : 0) +
    (card.decisions.includes(index) ? 3 : 0) +
    (card.agreed.includes(index) ? 3 : 0) +
    (answersAgent(index) ? 1 : 0) +
    (card.objections.includes(index) ? 2 : 0) +
    (card.nextSteps.includes(index) ? 1 : 0) +
    (ranking.scores[index] ?? 0) -
    (sentences[index]!.isQuestion && index !== card.commitment && !card.agreed.includes(index) ? 2 : 0)
  const factual = sentences.filter((sentence) => !ruledOut.has(sentence.index) && weight(sentence.index) >= 2).length
  // In a call, the sentences with facts; a text without turns spreads its facts over most of its lines.
  const conversation = card.roles.some((role) => role !== undefined)
  const share = Math.ceil(sentences.length * (conversation ? CALL_SHARE : pointList ? POINT_SHARE : FACT_SHARE))
  // A request the agent granted ("Could you put a cot in the room?" → "Of course") is a commitment of its own: room is made for it.
  const granted = conversation ? card.agreed.filter((index) => !ruledOut.has(index)).length : 0
  const wanted = Math.min(
    MAX_SUMMARY_SENTENCES,
    Math.max(summaryLength(sentences.length), !conversation || factual >= share ? share : Math.max(factual, share - 1)) + granted,
  )
  const order = sentences
    .map((sentence) => sentence.index)
    .filter((index) => !ruledOut.has(index))
    .sort((a, b) => weight(b) - weight(a) || a - b)
  const chosen: number[] = []
  const skipped: number[] = []
  for (const index of order) {
    if (chosen.length >= wanted) break
    const repeats = chosen.some((other) => ranking.similarity(index, other) > REDUNDANT_SIMILARITY)
    if (repeats || (sentences[index]!.wordCount < 5 && !factsIn.has(index) && !card.decisions.includes(index))) skipped.push(index)
    else chosen.push(index)
  }
  for (const index of skipped) if (chosen.length < wanted) chosen.push(index)
  if (chosen.length === 0) chosen.push(ranking.order.find((index) => !sentences[index]!.isRepeat) ?? 0)
  return chosen.sort((a, b) => a - b)
}

/** Sentences a summary must not quote: repeats, greetings only, a given-up date or time, a switch away from an option, an offer of alternatives the call moved past. */
export function summaryRuledOut(sentences: readonly Sentence[], card: CallCard): Set<number> {
  // A sentence that moves a value ("from March 3 to March 17") is quoted with the old value cut out.
  const out = new Set<number>(card.rejected.map((fact) => fact.sentence).filter((index) => quotesRejected(card, index)))
  const conversation = card.roles.some((role) => role !== undefined)
  for (const sentence of sentences) {
    if (sentence.isRepeat || sentence.tokens.every((token) => token.stop)) out.add(sentence.index)
    // The agent's opener ("Swift Parcel, this is Omar", "أهلًا بك في …") names who answers, not what the call is about.
    const factKinds = new Set(card.facts.filter((fact) => fact.sentence === sentence.index).map((fact) => fact.kind))
    const opener =
      card.roles[sentence.index] === 'agent' &&
      [...factKinds].every((kind) => kind === 'name') &&
      (factKinds.size > 0 || sentence.tokens.some((token) => isGreetingWord(token.written.toLowerCase())))
    if (opener && sentence.index <= 2) out.add(sentence.index)
    // A sentence whose content words are only names ("Hello Nina, it is Oliver Grant") is in the card already.
    const nameWords = new Set(
      card.facts.filter((fact) => fact.kind === 'name' && fact.sentence === sentence.index).flatMap((fact) => fact.text.split(/\s+/)),
    )
    if (nameWords.size > 0 && sentence.tokens.every((token) => token.stop || nameWords.has(token.written))) out.add(sentence.index)
    // The caller's bare name in reply to "your name?" is in the card already.
    if (card.callerName && sentence.text.replace(/[.!،,]+$/, '').trim() === card.callerName) out.add(sentence.index)
    if (!conversation || sentence.index === card.commitment) continue
    if (SWITCH.test(sentence.text)) out.add(sentence.index)
    const offersAlternatives = card.roles[sentence.index] === 'agent' && ALTERNATIVES.test(sentence.text)
    if (offersAlternatives && card.commitment !== undefined && sentence.index < card.commitment) out.add(sentence.index)
  }
  return out
}

/**
 * Words of a date or time ("Saturday", "quarter past", "الساعة") are the card's facts, not what
 * a text is about: they become stop words so keywords, hashtags and topic titles name the topic.
 */
function markScheduleWords(sentences: readonly Sentence[], card: CallCard): void {
  for (const fact of card.facts) {
    if (fact.kind !== 'date' && fact.kind !== 'time') continue
    const words = new Set(fact.text.split(/\s+/).map((word) => normaliseArabic(word.toLowerCase())))
    for (const token of sentences[fact.sentence]!.tokens) if (words.has(normaliseArabic(token.written.toLowerCase()))) token.stop = true
  }
}

function personalShare(sentences: readonly Sentence[]): number {
  let personal = 0
  let total = 0
  for (const sentence of sentences) {
    for (const token of sentence.tokens) {
      total++
      if (PERSONAL_WORDS.has(token.key)) personal++
    }
  }
  return total === 0 ? 0 : personal / total
}

/**
 * A title worth reusing: has two or more words, is not a file name ("call-0412.wav") and is not
 * just the text's opening cut short (a TTS job's title is its text's first 60 characters).
 */
function usableTitle(title: string | undefined, text: string): string | undefined {
  const trimmed = title?.replace(/\s+/g, ' ').trim()
  if (!trimmed || /\.[a-z0-9]{2,4}$/i.test(trimmed) || trimmed.split(' ').filter((word) => /\p{L}{2,}/u.test(word)).length < 2)
    return undefined
  if (text.replace(/\s+/g, ' ').trim().startsWith(trimmed.replace(/…$/u, '').trimEnd())) return undefined
  return trimmed
}
