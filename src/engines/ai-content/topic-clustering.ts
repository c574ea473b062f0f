import type { Keyword } from './keyword-extraction'
import type { SentenceRanking } from './sentence-ranking'
import type { Sentence } from './text-analysis'

/** A group of keywords that occur in the same sentences, with the sentences that best illustrate it. */
export interface Topic {
  /** Its keywords, the one that founded it first. */
  keywords: Keyword[]
  /** 1 to 4 sentence indexes, in the order of the text. */
  bulletIndexes: number[]
}

/** A keyword joins a topic when their sentence sets overlap at least this much (Jaccard). */
const JOIN_OVERLAP = 0.3
const MAX_KEYWORDS_PER_TOPIC = 3
const MAX_BULLETS = 4

/**
 * Clusters keywords by co-occurrence: each keyword, best first, joins the topic whose sentences
 * overlap its own most (Jaccard, so a keyword that is everywhere does not swallow the rest) or
 * founds a new topic while there is room. Each topic then takes up to four sentences (see
 * chooseBullets). A topic left with fewer than two is dropped when others have enough, so every
 * topic has something to say.
 */
export function clusterTopics(keywords: readonly Keyword[], sentences: readonly Sentence[], ranking: SentenceRanking): Topic[] {
  const maxTopics = Math.max(1, Math.min(4, Math.floor(sentences.length / 4)))
  const groups: { keywords: Keyword[]; sentences: Set<number> }[] = []
  for (const keyword of keywords) {
    let best: (typeof groups)[number] | undefined
    let bestOverlap = 0
    for (const group of groups) {
      const overlap = jaccard(keyword.sentenceIndexes, group.sentences)
      if (overlap > bestOverlap) [best, bestOverlap] = [group, overlap]
    }
    const fits = best && best.keywords.length < MAX_KEYWORDS_PER_TOPIC
    if (best && fits && bestOverlap >= JOIN_OVERLAP) join(best, keyword)
    else if (groups.length < maxTopics) groups.push({ keywords: [keyword], sentences: new Set(keyword.sentenceIndexes) })
    else if (best && fits && bestOverlap > 0.1) join(best, keyword)
  }

  const bulletSets = chooseBullets(groups, sentences, ranking)
  const topics = groups.map((group, i) => ({ keywords: group.keywords, bulletIndexes: bulletSets[i]! }))
  const substantial = topics.filter((topic) => topic.bulletIndexes.length >= 2)
  if (substantial.length > 0) return substantial
  const withAny = topics.filter((topic) => topic.bulletIndexes.length > 0)
  if (withAny.length > 0) return withAny.slice(0, 1)
  // Nothing qualified (a text of one short sentence): one topic on the best sentences.
  return keywords.length > 0 ? [{ keywords: keywords.slice(0, 1), bulletIndexes: ranking.order.slice(0, 2).sort((a, b) => a - b) }] : []
}

/**
 * Gives each sentence to the one topic it is most about, so no sentence is quoted under two
 * topics: affinity is the sum over the topic's keywords in the sentence of 1 / (sentences with
 * that keyword), so a specific keyword ("soil moisture", in 2 sentences) outweighs a pervasive
 * one ("water", in 12). Each topic then keeps its best-ranked sentences, in text order.
 */
function chooseBullets(
  groups: readonly { keywords: Keyword[]; sentences: Set<number> }[],
  sentences: readonly Sentence[],
  ranking: SentenceRanking,
): number[][] {
  const owner = new Map<number, { topic: number; affinity: number }>()
  groups.forEach((group, topic) => {
    const affinities = new Map<number, number>()
    for (const keyword of group.keywords) {
      for (const index of keyword.sentenceIndexes) affinities.set(index, (affinities.get(index) ?? 0) + 1 / keyword.sentenceIndexes.length)
    }
    for (const [index, affinity] of affinities) {
      const sentence = sentences[index]!
      if (sentence.isQuestion || sentence.isRepeat || sentence.wordCount < 5) continue
      const current = owner.get(index)
      if (!current || affinity > current.affinity) owner.set(index, { topic, affinity })
    }
  })
  const bullets: number[][] = groups.map(() => [])
  for (const [index, { topic }] of owner) bullets[topic]!.push(index)
  return bullets.map((indexes) =>
    indexes
      .sort((a, b) => ranking.scores[b]! - ranking.scores[a]! || a - b)
      .slice(0, MAX_BULLETS)
      .sort((a, b) => a - b),
  )
}

function join(group: { keywords: Keyword[]; sentences: Set<number> }, keyword: Keyword): void {
  group.keywords.push(keyword)
  for (const index of keyword.sentenceIndexes) group.sentences.add(index)
}

function jaccard(indexes: readonly number[], set: ReadonlySet<number>): number {
  let shared = 0
  for (const index of indexes) if (set.has(index)) shared++
  return shared / (indexes.length + set.size - shared)
}
