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

/** A sentence's weighted words as parallel arrays, term ids ascending, so two vectors meet in one merge pass. */
interface SentenceVector {
  ids: Int32Array
  weights: Float64Array
  norm: number
}

/**
 * Most sentences taken into the similarity graph. The graph costs O(n²); beyond a few hundred
 * sentences the ones far from the centroid would not be chosen anyway.
 */
const MAX_GRAPH_SENTENCES = 200
const DAMPING = 0.85
const ITERATIONS = 30
/** Total change in rank below which the power iteration has converged. */
const CONVERGED = 1e-6

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
  const termIds = new Map<string, number>()
  const vectors = sentences.map((sentence) => vectorOf(sentence, termWeights, termIds))
  const centroid = new Float64Array(termIds.size)
  for (const vector of vectors) vector.ids.forEach((id, k) => (centroid[id]! += vector.weights[k]!))
  const centroidNorm = euclideanNorm(centroid)
  const centrality = vectors.map((vector) => {
    if (vector.norm === 0 || centroidNorm === 0) return 0
    let dot = 0
    vector.ids.forEach((id, k) => (dot += vector.weights[k]! * centroid[id]!))
    return dot / (vector.norm * centroidNorm)
  })

  const graphMembers = sentences
    .filter((sentence) => !sentence.isRepeat)
    .map((sentence) => sentence.index)
    .sort((a, b) => centrality[b]! - centrality[a]! || a - b)
    .slice(0, MAX_GRAPH_SENTENCES)
  const textRank = textRankOf(graphMembers, vectors, sentences.length)

  const maxCentrality = largest(centrality)
  const maxTextRank = largest(textRank)
  const scores = sentences.map((sentence, i) => {
    if (sentence.isRepeat) return 0
    const blended = 0.55 * (centrality[i]! / maxCentrality) + 0.45 * (textRank[i]! / maxTextRank)
    return blended * lengthFactor(sentence.wordCount) * (sentence.isQuestion ? 0.5 : 1) * standAloneFactor(sentence)
  })
  const order = sentences.map((sentence) => sentence.index).sort((a, b) => scores[b]! - scores[a]! || a - b)
  return { scores, order, similarity: (a, b) => cosine(vectors[a]!, vectors[b]!) }
}

function vectorOf(sentence: Sentence, termWeights: ReadonlyMap<string, number>, termIds: Map<string, number>): SentenceVector {
  const byId = new Map<number, number>()
  for (const token of sentence.tokens) {
    if (token.stop) continue
    let id = termIds.get(token.key)
    if (id === undefined) termIds.set(token.key, (id = termIds.size))
    byId.set(id, (byId.get(id) ?? 0) + (termWeights.get(token.key) ?? 0))
  }
  const ids = Int32Array.from(byId.keys()).sort()
  const weights = Float64Array.from(ids, (id) => byId.get(id)!)
  return { ids, weights, norm: euclideanNorm(weights) }
}

function euclideanNorm(values: Float64Array): number {
  let sum = 0
  for (const value of values) sum += value * value
  return Math.sqrt(sum)
}

function cosine(a: SentenceVector, b: SentenceVector): number {
  if (a.norm === 0 || b.norm === 0) return 0
  let dot = 0
  for (let i = 0, j = 0; i < a.ids.length && j < b.ids.length;) {
    const x = a.ids[i]!
    const y = b.ids[j]!
    if (x === y) dot += a.weights[i++]! * b.weights[j++]!
    else if (x < y) i++
    else j++
  }
  return dot / (a.norm * b.norm)
}

/** PageRank over the similarity graph of `members` (a flat n×n matrix); sentences outside the graph score 0. */
function textRankOf(members: readonly number[], vectors: readonly SentenceVector[], total: number): number[] {
  const n = members.length
  const similarities = new Float64Array(n * n)
  const outWeight = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const a = vectors[members[i]!]!
    for (let j = i + 1; j < n; j++) {
      const similarity = cosine(a, vectors[members[j]!]!)
      if (similarity === 0) continue
      similarities[i * n + j] = similarity
      similarities[j * n + i] = similarity
      outWeight[i] = outWeight[i]! + similarity
      outWeight[j] = outWeight[j]! + similarity
    }
  }
  let rank = new Float64Array(n).fill(1 / Math.max(n, 1))
  let next = new Float64Array(n)
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    next.fill((1 - DAMPING) / Math.max(n, 1))
    for (let j = 0; j < n; j++) {
      const weight = outWeight[j]!
      if (weight === 0) continue
      const share = (DAMPING * rank[j]!) / weight
      const row = j * n
      for (let i = 0; i < n; i++) next[i] = next[i]! + similarities[row + i]! * share
    }
    let change = 0
    for (let i = 0; i < n; i++) change += Math.abs(next[i]! - rank[i]!)
    ;[rank, next] = [next, rank]
    if (change < CONVERGED) break
  }
  const scores = new Array<number>(total).fill(0)
  members.forEach((member, i) => {
    // A sentence sharing no words with any other keeps only the teleport share; treat it as unconnected.
    scores[member] = outWeight[i] === 0 ? 0 : rank[i]!
  })
  return scores
}

/** The largest value, at least a tiny positive number so it can divide; a loop, since spreading a huge array into Math.max overflows the stack. */
function largest(values: readonly number[]): number {
  let max = Number.EPSILON
  for (const value of values) if (value > max) max = value
  return max
}

function lengthFactor(words: number): number {
  if (words < 5) return 0.25
  if (words < 8) return 0.6
  if (words > 40) return 0.75
  return 1
}

/** Words of greeting and thanks, as matching keys. */
const PHATIC = new Set([
  'welcome',
  'thank',
  'thanks',
  'hello',
  'goodbye',
  'bye',
  'joining',
  ...['شكرا', 'مرحبا', 'أهلا', 'السلام', 'وداعا'].map(normaliseArabic),
])
/** Openers that refer to an earlier sentence, as matching keys. */
const ANAPHORIC = new Set([
  'it',
  'this',
  'that',
  'these',
  'those',
  'they',
  'he',
  'she',
  ...['هذا', 'هذه', 'ذلك', 'هو', 'هي', 'هم'].map(normaliseArabic),
])

function standAloneFactor(sentence: Sentence): number {
  if (sentence.tokens.some((token) => PHATIC.has(token.key))) return 0.4
  return ANAPHORIC.has(sentence.tokens[0]!.key) ? 0.8 : 1
}
