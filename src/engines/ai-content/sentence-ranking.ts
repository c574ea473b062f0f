import { normaliseArabic } from './arabic-normalisation'
import type { Sentence } from './text-analysis'

/** How central each sentence is to the text. */
export interface SentenceRanking {
  /** Score per sentence index, 0 to 1; higher is more representative. */
  scores: number[]
  /** Sentence indexes, best first (ties: earlier first). */
  order: number[]
  /** Cosine similarity (0 to 1) of two sentences' weighted word vectors. */
  similarity(a: number, b: number): number
}

interface SentenceVector {
  weights: Map<string, number>
  norm: number
}

/**
 * Most sentences taken into the similarity graph. The graph costs O(n²); beyond a few hundred
 * sentences the ones far from the centroid would not be chosen anyway.
 */
const MAX_GRAPH_SENTENCES = 200
const DAMPING = 0.85
const ITERATIONS = 30

/**
 * Ranks sentences by two measures of centrality, blended:
 * - closeness to the text's centroid (the sum of all sentence vectors), linear in the text;
 * - TextRank: PageRank over the sentence-similarity graph, for the best MAX_GRAPH_SENTENCES.
 * Word vectors use `termWeights`, so everyday words count little and stop words not at all.
 * Very short sentences, rambling ones, questions, greetings and thanks ("Thanks for joining us")
 * and sentences opening on a pronoun that points back ("It does drop…") are held back: they make
 * poor stand-alone summary lines. A repeat of an earlier sentence scores 0.
 */
export function rankSentences(sentences: readonly Sentence[], termWeights: ReadonlyMap<string, number>): SentenceRanking {
  const vectors = sentences.map((sentence) => vectorOf(sentence, termWeights))
  const centroid = new Map<string, number>()
  for (const vector of vectors) for (const [key, weight] of vector.weights) centroid.set(key, (centroid.get(key) ?? 0) + weight)
  const centroidVector: SentenceVector = { weights: centroid, norm: normOf(centroid) }
  const centrality = vectors.map((vector) => cosine(vector, centroidVector))

  const graphMembers = sentences
    .map((sentence) => sentence.index)
    .sort((a, b) => centrality[b]! - centrality[a]! || a - b)
    .slice(0, MAX_GRAPH_SENTENCES)
  const textRank = textRankOf(graphMembers, vectors, sentences.length)

  const maxCentrality = Math.max(...centrality, Number.EPSILON)
  const maxTextRank = Math.max(...textRank, Number.EPSILON)
  const scores = sentences.map((sentence, i) => {
    const blended = 0.55 * (centrality[i]! / maxCentrality) + 0.45 * (textRank[i]! / maxTextRank)
    if (sentence.isRepeat) return 0
    return blended * lengthFactor(sentence.wordCount) * (sentence.isQuestion ? 0.5 : 1) * standAloneFactor(sentence)
  })
  const order = sentences.map((sentence) => sentence.index).sort((a, b) => scores[b]! - scores[a]! || a - b)
  return { scores, order, similarity: (a, b) => cosine(vectors[a]!, vectors[b]!) }
}

function vectorOf(sentence: Sentence, termWeights: ReadonlyMap<string, number>): SentenceVector {
  const weights = new Map<string, number>()
  for (const token of sentence.tokens) {
    if (token.stop) continue
    weights.set(token.key, (weights.get(token.key) ?? 0) + (termWeights.get(token.key) ?? 0))
  }
  return { weights, norm: normOf(weights) }
}

function normOf(weights: ReadonlyMap<string, number>): number {
  let sum = 0
  for (const weight of weights.values()) sum += weight * weight
  return Math.sqrt(sum)
}

function cosine(a: SentenceVector, b: SentenceVector): number {
  if (a.norm === 0 || b.norm === 0) return 0
  const [small, large] = a.weights.size <= b.weights.size ? [a, b] : [b, a]
  let dot = 0
  for (const [key, weight] of small.weights) dot += weight * (large.weights.get(key) ?? 0)
  return dot / (a.norm * b.norm)
}

/** PageRank over the similarity graph of `members`; sentences outside the graph score 0. */
function textRankOf(members: readonly number[], vectors: readonly SentenceVector[], total: number): number[] {
  const n = members.length
  const similarities: Float64Array[] = members.map(() => new Float64Array(n))
  const outWeight = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const similarity = cosine(vectors[members[i]!]!, vectors[members[j]!]!)
      similarities[i]![j] = similarity
      similarities[j]![i] = similarity
      outWeight[i]! += similarity
      outWeight[j]! += similarity
    }
  }
  let rank = new Float64Array(n).fill(1 / Math.max(n, 1))
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const next = new Float64Array(n).fill((1 - DAMPING) / Math.max(n, 1))
    for (let j = 0; j < n; j++) {
      if (outWeight[j] === 0) continue
      const share = (DAMPING * rank[j]!) / outWeight[j]!
      const row = similarities[j]!
      for (let i = 0; i < n; i++) next[i]! += row[i]! * share
    }
    rank = next
  }
  const scores = new Array<number>(total).fill(0)
  members.forEach((member, i) => {
    // A sentence sharing no words with any other keeps only the teleport share; treat it as unconnected.
    scores[member] = outWeight[i] === 0 ? 0 : rank[i]!
  })
  return scores
}

function lengthFactor(words: number): number {
  if (words < 5) return 0.25
  if (words < 8) return 0.6
  if (words > 40) return 0.75
  return 1
}

/** Words of greeting and thanks, as matching keys. */
const PHATIC = new Set(['welcome', 'thank', 'thanks', 'hello', 'goodbye', 'bye', 'joining', ...['شكرا', 'مرحبا', 'أهلا', 'السلام', 'وداعا'].map(normaliseArabic)])
/** Openers that refer to an earlier sentence, as matching keys. */
const ANAPHORIC = new Set(['it', 'this', 'that', 'these', 'those', 'they', 'he', 'she', ...['هذا', 'هذه', 'ذلك', 'هو', 'هي', 'هم'].map(normaliseArabic)])

function standAloneFactor(sentence: Sentence): number {
  if (sentence.tokens.some((token) => PHATIC.has(token.key))) return 0.4
  return ANAPHORIC.has(sentence.tokens[0]!.key) ? 0.8 : 1
}
