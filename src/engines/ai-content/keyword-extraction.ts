import { isArabicWord } from './arabic-normalisation'
import { isArabicCommonStem, isEnglishCommonWord } from './stop-words'
import type { Sentence, Token } from './text-analysis'

/** A word or phrase that characterises the text. */
export interface Keyword {
  /** Matching keys of its words, joined by one space. */
  key: string
  /** The matching keys of its words. */
  wordKeys: string[]
  /** As the text most often writes it. */
  display: string
  score: number
  /** Occurrences in the text. */
  count: number
  /** Sentences it occurs in, ascending. */
  sentenceIndexes: number[]
}

export interface KeywordAnalysis {
  /** Best first, at most `limit`, never empty for a text with words. */
  keywords: Keyword[]
  /** Weight of every content word key, for comparing sentences. */
  termWeights: Map<string, number>
}

/** Counts of one word or phrase. */
interface Tally {
  wordKeys: string[]
  count: number
  sentenceIndexes: number[]
  displays: Map<string, number>
  /** Occurrences as a speaker's name (see Token.speakerMention). */
  speakerMentions: number
}

/** Longest phrase considered; longer ones are rare in speech and mostly accidental. */
const MAX_PHRASE_WORDS = 4
/** A phrase that only ever occurs once is usually an accident of word order, not a term. */
const MIN_PHRASE_COUNT = 2
/** A phrase mostly seen inside a longer one is a fragment of it ("source heat" in "air source heat pump"). */
const FRAGMENT_SHARE = 0.6

/**
 * Keywords by TF-IDF-style scoring for a single document: a term weighs more the more
 * sentences it appears in (spread matters more than repetition within one sentence), less when it
 * is an everyday word (the general-frequency baseline of stop-words.ts), a little more when long.
 * Phrases of 2–4 adjacent content words that recur are candidates too;
 * a word is then scored on the occurrences its best phrase does not explain, so "heat pump"
 * does not also bring "heat" and "pump". Linear in the number of words.
 */
export function extractKeywords(sentences: readonly Sentence[], limit: number): KeywordAnalysis {
  const words = new Map<string, Tally>()
  const phrases = new Map<string, Tally>()
  for (const sentence of sentences) {
    if (sentence.isRepeat) continue
    const tokens = sentence.tokens
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!
      if (token.stop) continue
      tally(words, [token.key], token.display, sentence.index, token.speakerMention)
      // Every run of 2..4 adjacent content words (no punctuation between them) ending here.
      let start = i
      while (start > 0 && i - start + 1 < MAX_PHRASE_WORDS && !tokens[start]!.breakBefore && !tokens[start - 1]!.stop) {
        start--
        const run = tokens.slice(start, i + 1)
        tally(
          phrases,
          run.map((t) => t.key),
          phraseDisplay(run),
          sentence.index,
        )
      }
    }
  }

  const termWeights = new Map<string, number>()
  for (const [key, word] of words) termWeights.set(key, rarity(key) * lengthWeight(key) * (1 + Math.log(word.count)))

  const candidates: Keyword[] = []
  const recurring = [...phrases.entries()].filter(([, phrase]) => phrase.count >= MIN_PHRASE_COUNT)
  const containedIn = longestContainingCounts(recurring.map(([, phrase]) => phrase))
  /** Largest count of a kept phrase containing each word. */
  const explainedByPhrase = new Map<string, number>()
  for (const [key, phrase] of recurring) {
    if ((containedIn.get(key) ?? 0) >= FRAGMENT_SHARE * phrase.count) continue
    const meanWeight = phrase.wordKeys.reduce((sum, word) => sum + rarity(word) * lengthWeight(word), 0) / phrase.wordKeys.length
    const score = spread(phrase) * meanWeight * (1 + 0.3 * (phrase.wordKeys.length - 1)) * 1.25
    candidates.push(toKeyword(key, phrase, score))
    for (const word of phrase.wordKeys) explainedByPhrase.set(word, Math.max(explainedByPhrase.get(word) ?? 0, phrase.count))
  }
  for (const [key, word] of words) {
    if (word.speakerMentions * 2 >= word.count) continue
    const unexplained = word.count - (explainedByPhrase.get(key) ?? 0)
    if (unexplained <= 0) continue
    const share = unexplained / word.count
    candidates.push(toKeyword(key, word, spread(word) * share * rarity(key) * lengthWeight(key)))
  }
  // Ties: the earlier term, then code-unit order (not localeCompare, whose order depends on the machine's locale data).
  candidates.sort(
    (a, b) => b.score - a.score || a.sentenceIndexes[0]! - b.sentenceIndexes[0]! || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  )

  const keywords = selectDistinct(candidates, words, limit)
  return { keywords: keywords.length > 0 ? keywords : fallbackKeywords(sentences), termWeights }
}

function tally(into: Map<string, Tally>, wordKeys: string[], display: string, sentenceIndex: number, speakerMention = false): void {
  const key = wordKeys.join(' ')
  let entry = into.get(key)
  if (!entry) {
    entry = { wordKeys, count: 0, sentenceIndexes: [], displays: new Map(), speakerMentions: 0 }
    into.set(key, entry)
  }
  entry.count++
  if (entry.sentenceIndexes.at(-1) !== sentenceIndex) entry.sentenceIndexes.push(sentenceIndex)
  entry.displays.set(display, (entry.displays.get(display) ?? 0) + 1)
  if (speakerMention) entry.speakerMentions++
}

/** A phrase is shown as written, except that its first Arabic word drops a fused particle (والري بالتنقيط → الري بالتنقيط). */
function phraseDisplay(run: readonly Token[]): string {
  return run.map((token, i) => (i === 0 ? token.display : token.written)).join(' ')
}

/** Sentences count fully, extra repeats inside one sentence a little; dampened so one dominant term does not drown the rest. */
function spread(entry: Tally): number {
  const sentences = entry.sentenceIndexes.length
  return (sentences + 0.3 * (entry.count - sentences)) ** 0.7
}

function rarity(wordKey: string): number {
  return (isArabicWord(wordKey) ? isArabicCommonStem(wordKey) : isEnglishCommonWord(wordKey)) ? 0.3 : 1
}

/** Longer words tend to be more specific ("insulation" against "cost"). */
function lengthWeight(wordKey: string): number {
  const letters = [...wordKey].length
  if (isArabicWord(wordKey)) return letters >= 4 ? 1.1 : 1
  return letters >= 7 ? 1.15 : letters <= 3 ? 0.85 : 1
}

/** For each phrase key, the largest count of a recurring phrase one word longer that starts or ends with it. */
function longestContainingCounts(phrases: readonly Tally[]): Map<string, number> {
  const counts = new Map<string, number>()
  const note = (keys: string[], count: number) => {
    const key = keys.join(' ')
    counts.set(key, Math.max(counts.get(key) ?? 0, count))
  }
  for (const phrase of phrases) {
    if (phrase.wordKeys.length < 3) continue
    note(phrase.wordKeys.slice(1), phrase.count)
    note(phrase.wordKeys.slice(0, -1), phrase.count)
  }
  return counts
}

function toKeyword(key: string, entry: Tally, score: number): Keyword {
  return { key, wordKeys: entry.wordKeys, display: displayOf(entry), score, count: entry.count, sentenceIndexes: entry.sentenceIndexes }
}

/**
 * The most frequent written form; for English, a plural form when the text uses one, since
 * keywords are set into sentences and headings where "heat pumps" reads better than "heat pump".
 */
function displayOf(entry: Tally): string {
  const lastKey = entry.wordKeys.at(-1)!
  if (!isArabicWord(lastKey)) {
    const plurals = new Map([...entry.displays].filter(([display]) => display.toLowerCase().endsWith('s') && !lastKey.endsWith('s')))
    if (plurals.size > 0) return mostFrequent(plurals)
  }
  return mostFrequent(entry.displays)
}

/** Ties go to the longer form, usually the plural (المزارعين over المزارع), for the reason displayOf gives. */
function mostFrequent(displays: Map<string, number>): string {
  let best = ''
  let bestCount = -1
  for (const [display, count] of displays) {
    if (count > bestCount || (count === bestCount && display.length > best.length)) {
      best = display
      bestCount = count
    }
  }
  return best
}

/**
 * The best `limit` candidates without repeating themselves: a word is left out when a chosen
 * phrase accounts for half or more of its occurrences, and a phrase chosen later removes such words.
 */
function selectDistinct(candidates: readonly Keyword[], words: Map<string, Tally>, limit: number): Keyword[] {
  const chosen: Keyword[] = []
  const isExplainedBy = (word: Keyword, phrase: Keyword) =>
    phrase.wordKeys.length > 1 && phrase.wordKeys.includes(word.key) && (words.get(word.key)?.count ?? 0) < 2 * phrase.count
  const overlaps = (a: Keyword, b: Keyword) => ` ${a.key} `.includes(` ${b.key} `) || ` ${b.key} `.includes(` ${a.key} `)
  const seenDisplays = new Set<string>()
  for (const candidate of candidates) {
    if (chosen.length >= limit) break
    if (seenDisplays.has(candidate.display.toLowerCase())) continue
    if (candidate.wordKeys.length === 1) {
      if (chosen.some((phrase) => isExplainedBy(candidate, phrase))) continue
    } else {
      for (let i = chosen.length - 1; i >= 0; i--) if (isExplainedBy(chosen[i]!, candidate)) chosen.splice(i, 1)
      // Two phrases that overlap word for word ("heat pump" and "heat pump installation") keep the better one.
      if (chosen.some((other) => other.wordKeys.length > 1 && overlaps(other, candidate))) continue
    }
    chosen.push(candidate)
    seenDisplays.add(candidate.display.toLowerCase())
  }
  return chosen
}

/** For texts made only of function words ("It is what it is."): their longest, most frequent words. */
function fallbackKeywords(sentences: readonly Sentence[]): Keyword[] {
  const counts = new Map<string, { display: string; count: number; sentenceIndexes: number[] }>()
  for (const sentence of sentences) {
    for (const token of sentence.tokens) {
      const entry = counts.get(token.key) ?? { display: token.display, count: 0, sentenceIndexes: [] }
      entry.count++
      if (entry.sentenceIndexes.at(-1) !== sentence.index) entry.sentenceIndexes.push(sentence.index)
      counts.set(token.key, entry)
    }
  }
  return [...counts.entries()]
    .sort(([a, x], [b, y]) => y.count * [...y.display].length - x.count * [...x.display].length || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, 5)
    .map(([key, entry]) => ({
      key,
      wordKeys: [key],
      display: entry.display,
      score: entry.count,
      count: entry.count,
      sentenceIndexes: entry.sentenceIndexes,
    }))
}
