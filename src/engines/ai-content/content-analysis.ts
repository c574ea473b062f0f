import { normaliseArabic } from './arabic-normalisation'
import { extractKeywords, type Keyword } from './keyword-extraction'
import { rankSentences, type SentenceRanking } from './sentence-ranking'
import { splitText, tidySentence, type Lang, type Sentence } from './text-analysis'
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
  /** The summary's sentence indexes, in the order of the text. */
  summaryIndexes: number[]
  /** Sentence `index` made presentable on its own (see tidySentence). */
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
  const { keywords, termWeights } = extractKeywords(sentences, KEYWORD_LIMIT)
  const ranking = rankSentences(sentences, termWeights)
  const topics = clusterTopics(keywords, sentences, ranking)
  const lines = new Map<number, string>()
  return {
    lang,
    kind: split.hasSpeakerLabels || personalShare(sentences) >= 0.03 ? 'conversation' : 'text',
    title: usableTitle(title),
    sentences,
    keywords,
    ranking,
    topics,
    summaryIndexes: chooseSummary(sentences, ranking),
    line(index) {
      let line = lines.get(index)
      if (line === undefined) {
        line = tidySentence(sentences[index]!.text)
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

/** Best-ranked sentences, skipping near-repeats of those already chosen (maximal marginal relevance), in text order. */
function chooseSummary(sentences: readonly Sentence[], ranking: SentenceRanking): number[] {
  const wanted = summaryLength(sentences.length)
  const chosen: number[] = []
  const skipped: number[] = []
  for (const index of ranking.order) {
    if (chosen.length >= wanted) break
    if (sentences[index]!.isRepeat) continue
    const repeats = chosen.some((other) => ranking.similarity(index, other) > REDUNDANT_SIMILARITY)
    if (repeats || sentences[index]!.wordCount < 5) skipped.push(index)
    else chosen.push(index)
  }
  for (const index of skipped) if (chosen.length < wanted) chosen.push(index)
  return chosen.sort((a, b) => a - b)
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

/** A title worth reusing: has two or more words and is not a file name ("call-0412.wav"). */
function usableTitle(title: string | undefined): string | undefined {
  const trimmed = title?.replace(/\s+/g, ' ').trim()
  if (!trimmed || /\.[a-z0-9]{2,4}$/i.test(trimmed) || trimmed.split(' ').filter((word) => /\p{L}{2,}/u.test(word)).length < 2) return undefined
  return trimmed
}
