import { AI_PART_LIMITS } from '../../shared/api/ai-parts'
import type { AnalysedContent } from './content-analysis'
import { keywordDisplays, leadingKeywords, titleCandidates, topicHeading } from './long-form-parts'
import type { Phrasebook } from './phrasebook'
import { codePointLength, composeWithinLimit, fitToLength, hashtagsFor } from './text-fitting'

/**
 * Writers of the social posts, each in its platform's form and within its limit
 * (AI_PART_LIMITS, counted in code points). Substance comes from the summary sentences, so
 * every post carries the text's main points; the phrasebook supplies hooks, questions and
 * calls to action; hashtags come from the keywords.
 */

const MAX_THREAD_SENTENCES = 5

/**
 * A numbered thread ("1/6 …"): an opening, one tweet per summary sentence (up to five), and a
 * closing tweet with the key themes and hashtags. Tweets are separated by a blank line; each,
 * numbering included, fits AI_PART_LIMITS.tweet.
 */
export function writeTwitterThread(content: AnalysedContent, book: Phrasebook): string {
  const keywords = leadingKeywords(content)
  const hashtags = hashtagsFor(keywords, book.lang, 3).join(' ')
  const bodies = [
    book.threadOpening(keywords.slice(0, 2)),
    ...content.summaryIndexes.slice(0, MAX_THREAD_SENTENCES).map((index) => content.line(index)),
    [book.threadClosing(keywords.slice(0, 3)), hashtags].filter(Boolean).join(' '),
  ]
  return bodies
    .map((body, i) => {
      const prefix = `${i + 1}/${bodies.length} `
      return prefix + fitToLength(body, AI_PART_LIMITS.tweet - codePointLength(prefix))
    })
    .join('\n\n')
}

/** One Threads post: the most central sentence as the hook, one or two more, a question, hashtags. */
export function writeThreadsPost(content: AnalysedContent, book: Phrasebook): string {
  const keywords = leadingKeywords(content)
  const [hook, ...rest] = postSentences(content, 3)
  return composeWithinLimit(
    {
      head: [fitToLength(hook!, 200)],
      body: rest,
      tail: [book.audienceQuestion(keywords[0]!), hashtagsFor(keywords, book.lang, 3).join(' ')],
    },
    '\n\n',
    AI_PART_LIMITS.threadsPost,
  )
}

/**
 * A LinkedIn post: a hook line, short paragraphs (one sentence each), key takeaways per topic,
 * a question to the network and hashtags.
 */
export function writeLinkedInPost(content: AnalysedContent, book: Phrasebook): string {
  const keywords = leadingKeywords(content)
  const [hook, ...paragraphs] = postSentences(content, 4)
  return composeWithinLimit(
    {
      head: [hook!],
      body: [...paragraphs, [book.linkedInTakeawaysHeading, ...takeawayLines(content, book, '→')].join('\n')],
      tail: [book.linkedInClosing(keywords[0]!), hashtagsFor(keywords, book.lang, 5).join(' ')],
    },
    '\n\n',
    AI_PART_LIMITS.linkedInPost,
  )
}

/** A friendly Facebook post: a greeting, what stood out, a question to the audience. */
export function writeFacebookPost(content: AnalysedContent, book: Phrasebook): string {
  const keywords = leadingKeywords(content)
  return composeWithinLimit(
    {
      head: [book.facebookOpening(keywords.slice(0, 2))],
      body: postSentences(content, 3).map((sentence) => `👉 ${sentence}`),
      tail: [book.facebookClosing(keywords[0]!), hashtagsFor(keywords, book.lang, 3).join(' ')],
    },
    '\n\n',
    AI_PART_LIMITS.facebookPost,
  )
}

/**
 * A YouTube description: title and summary first (what shows above "more"), an "In this video"
 * list per topic, the keywords, a call to action and hashtags (YouTube shows the first three).
 */
export function writeYoutubeDescription(content: AnalysedContent, book: Phrasebook): string {
  const keywords = leadingKeywords(content)
  const summary = content.summaryIndexes
    .slice(0, 3)
    .map((index) => content.line(index))
    .join(' ')
  return composeWithinLimit(
    {
      head: [titleCandidates(content, book)[0]!, fitToLength(summary, 1_500)],
      body: [
        [book.youtubeInThisVideo, ...takeawayLines(content, book, '•')].join('\n'),
        `${book.youtubeKeywordsLabel} ${keywordDisplays(content).join(book.keywordSeparator)}`,
        book.youtubeCallToAction,
      ],
      tail: [hashtagsFor(keywords, book.lang, 3).join(' ')],
    },
    '\n\n',
    AI_PART_LIMITS.youtubeDescription,
  )
}

/** The summary sentences, most central first, topped up from the ranking when the summary is short. */
function postSentences(content: AnalysedContent, count: number): string[] {
  const inSummary = new Set(content.summaryIndexes)
  const ordered = [
    ...content.ranking.order.filter((index) => inSummary.has(index)),
    ...content.ranking.order.filter((index) => !inSummary.has(index)),
  ]
  return ordered.slice(0, Math.max(1, Math.min(count, content.sentences.length))).map((index) => content.line(index))
}

/** One line per topic ("→ Heat Pump: …"), topped up with summary sentences to at least three lines. */
function takeawayLines(content: AnalysedContent, book: Phrasebook, marker: string): string[] {
  const lines = content.topics.map(
    (topic) => `${marker} ${topicHeading(topic, book)}: ${fitToLength(content.line(topic.bulletIndexes[0]!), 140)}`,
  )
  const quoted = new Set(content.topics.map((topic) => topic.bulletIndexes[0]!))
  for (const index of content.summaryIndexes) {
    if (lines.length >= 3) break
    if (!quoted.has(index)) lines.push(`${marker} ${fitToLength(content.line(index), 140)}`)
  }
  return lines
}
