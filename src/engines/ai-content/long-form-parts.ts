import type { AnalysedContent } from './content-analysis'
import type { Phrasebook } from './phrasebook'
import { normaliseArabic } from './arabic-normalisation'
import type { Keyword } from './keyword-extraction'
import type { Topic } from './topic-clustering'

/**
 * Writers of the reading parts: summary, keywords, titles, introduction, key topics, FAQ and the
 * SEO article. Each takes the analysed text and the phrasebook of its language and returns a
 * non-empty string. Sentences are quoted from the source (tidied, never reworded); the
 * phrasebook supplies the connecting words.
 */

/** Extractive summary: the chosen sentences, in the order of the text, as one paragraph. */
export function writeSummary(content: AnalysedContent): string {
  return content.summaryIndexes.map((index) => content.line(index)).join(' ')
}

/** The keywords, best first, on one line. */
export function writeKeywords(content: AnalysedContent, book: Phrasebook): string {
  return keywordDisplays(content).join(book.keywordSeparator)
}

/** 3 to 5 numbered candidate titles, one per line. */
export function writeTitles(content: AnalysedContent, book: Phrasebook): string {
  return titleCandidates(content, book)
    .map((title, i) => `${i + 1}. ${title}`)
    .join('\n')
}

/**
 * Distinct titles, best first; the first always contains the top keyword (the SEO article's H1
 * relies on it). Besides keyword templates, a short central sentence can make a headline.
 */
export function titleCandidates(content: AnalysedContent, book: Phrasebook): string[] {
  const keywords = leadingKeywords(content)
  const [first, ...others] = book.titles(keywords.slice(0, 3))
  const candidates = [first!, headlineFrom(content), ...others]
  if (content.title) candidates.splice(2, 0, book.titleFromSourceTitle(content.title, keywords[0]!))
  const distinct: string[] = []
  for (const candidate of candidates) {
    if (candidate && !distinct.some((title) => title.toLowerCase() === candidate.toLowerCase())) distinct.push(candidate)
  }
  return distinct.slice(0, 5)
}

/** The opening paragraph: what the text is about, its two most central sentences, what follows. */
export function writeIntroduction(content: AnalysedContent, book: Phrasebook): string {
  const central = content.ranking.order
    .filter((index) => !content.sentences[index]!.isQuestion && !content.sentences[index]!.isRepeat)
    .slice(0, 2)
    .sort((a, b) => a - b)
  return [
    book.introOpening(content.kind, leadingKeywords(content).slice(0, 4)),
    ...central.map((index) => content.line(index)),
    book.introClosing(content.topics.map((topic) => topic.keywords[0]!.display)),
  ].join(' ')
}

/** Numbered topics, each with its sentences as "- " bullets. */
export function writeKeyTopics(content: AnalysedContent, book: Phrasebook): string {
  return content.topics.map((topic, i) => [`${i + 1}. ${topicHeading(topic, book)}`, ...topic.bulletIndexes.map((index) => `- ${content.line(index)}`)].join('\n')).join('\n\n')
}

const MAX_FAQ = 5
const MAX_QUESTIONS_FROM_TEXT = 3

/**
 * 3 to 5 question-and-answer pairs (fewer only when the text has too little to answer with).
 * Questions the text itself asks, answered by the next speaker turn, come first: in interviews
 * and calls they are the real FAQ. Then an overview question and questions about the top
 * keywords, each answered by the best sentence on it that no other answer used.
 */
export function writeFaq(content: AnalysedContent, book: Phrasebook): string {
  const pairs: { question: string; answer: string }[] = []
  const usedAnswers = new Set<number>()
  const { sentences, ranking } = content

  const asked = sentences
    .filter((sentence) => sentence.isQuestion && !sentence.isRepeat && sentence.tokens.some((token) => !token.stop) && sentence.wordCount >= 4)
    .map((question) => ({ question, answer: answerTo(content, question.index) }))
    .filter((pair): pair is { question: typeof pair.question; answer: number[] } => pair.answer.length > 0)
    .sort((a, b) => ranking.scores[b.answer[0]!]! - ranking.scores[a.answer[0]!]! || a.question.index - b.question.index)
    .slice(0, MAX_QUESTIONS_FROM_TEXT)
    .sort((a, b) => a.question.index - b.question.index)
  for (const { question, answer } of asked) {
    pairs.push({ question: content.line(question.index), answer: answer.map((index) => content.line(index)).join(' ') })
    for (const index of answer) usedAnswers.add(index)
  }

  const answerable = (index: number) => !sentences[index]!.isQuestion && !sentences[index]!.isRepeat && sentences[index]!.wordCount >= 4
  // The overview is answered by the two most central sentences no reply used, in text order.
  const overview = ranking.order
    .filter((index) => answerable(index) && !usedAnswers.has(index))
    .slice(0, 2)
    .sort((a, b) => a - b)
  if (overview.length > 0) {
    pairs.unshift({ question: book.faqOverviewQuestion(content.kind), answer: overview.map((index) => content.line(index)).join(' ') })
    for (const index of overview) usedAnswers.add(index)
  }
  let template = 0
  for (const keyword of content.keywords) {
    if (pairs.length >= MAX_FAQ) break
    const best = [...keyword.sentenceIndexes].filter((index) => answerable(index) && !usedAnswers.has(index)).sort((a, b) => ranking.scores[b]! - ranking.scores[a]! || a - b)[0]
    if (best === undefined) continue
    const ask = book.faqKeywordQuestions[template++ % book.faqKeywordQuestions.length]!
    pairs.push({ question: ask(keyword.display), answer: content.line(best) })
    usedAnswers.add(best)
  }
  if (pairs.length === 0) {
    // A text too short to answer anything twice still gets its overview.
    pairs.push({ question: book.faqOverviewQuestion(content.kind), answer: content.line(ranking.order[0]!) })
  }
  return pairs.map(({ question, answer }) => `${book.faqLabels.question}: ${question}\n${book.faqLabels.answer}: ${answer}`).join('\n\n')
}

/** The one or two sentences after a question, from the next turn when the text has turns. */
function answerTo(content: AnalysedContent, questionIndex: number): number[] {
  const question = content.sentences[questionIndex]!
  const answer: number[] = []
  for (let index = questionIndex + 1; index < content.sentences.length && answer.length < 2; index++) {
    const sentence = content.sentences[index]!
    if (sentence.isQuestion) break
    // Stay within one turn: the answer is the reply, not what follows it.
    if (answer.length > 0 && sentence.turn !== content.sentences[answer[0]!]!.turn) break
    if (answer.length === 1 && content.sentences[answer[0]!]!.wordCount >= 12) break
    answer.push(index)
  }
  const first = answer[0] === undefined ? undefined : content.sentences[answer[0]]
  if (!first || first.wordCount < 4) return []
  // In a labelled or multi-turn conversation, an answer from the asker's own turn is not a reply.
  const multiTurn = content.kind === 'conversation' && content.sentences.some((sentence) => sentence.turn !== question.turn)
  if (multiTurn && first.turn === question.turn) return []
  return answer
}

/**
 * A Markdown article: H1 title with the top keyword, the introduction, one H2 section per topic,
 * key takeaways (summary sentences the sections did not already quote), and a conclusion.
 */
export function writeSeoArticle(content: AnalysedContent, book: Phrasebook): string {
  const quoted = new Set(content.topics.flatMap((topic) => topic.bulletIndexes))
  const takeaways = content.summaryIndexes.filter((index) => !quoted.has(index))
  const keywords = leadingKeywords(content)
  const closingSentence = content.summaryIndexes.at(-1) ?? content.ranking.order[0]!
  const sections = [
    `# ${titleCandidates(content, book)[0]}`,
    writeIntroduction(content, book),
    ...content.topics.flatMap((topic) => [`## ${topicHeading(topic, book)}`, topic.bulletIndexes.map((index) => content.line(index)).join(' ')]),
    ...(takeaways.length >= 2 ? [`## ${book.keyTakeawaysHeading}`, takeaways.map((index) => `- ${content.line(index)}`).join('\n')] : []),
    `## ${book.conclusionHeading}`,
    `${book.conclusion(content.kind, keywords.slice(0, 3))} ${content.line(closingSentence)}`,
  ]
  return sections.join('\n\n')
}

/** A topic's heading: its first one or two keywords. */
export function topicHeading(topic: Topic, book: Phrasebook): string {
  const [first, ...others] = topic.keywords
  const second = others.find((keyword) => !isWithin(keyword, first!) && !isWithin(first!, keyword))
  return book.joinList([first!, ...(second ? [second] : [])].map((keyword) => book.headingCase(keyword.display)))
}

/** All keywords as shown, best first. */
export function keywordDisplays(content: AnalysedContent): string[] {
  return content.keywords.map((keyword) => keyword.display)
}

/**
 * The keywords as shown, best first, leaving out any whose words all appear in a better one
 * ("water" after "water use"): for lists inside sentences, titles and hashtags, where the
 * repeat would read as a stutter.
 */
export function leadingKeywords(content: AnalysedContent): string[] {
  const kept: Keyword[] = []
  for (const keyword of content.keywords) if (!kept.some((better) => isWithin(keyword, better))) kept.push(keyword)
  return kept.map((keyword) => keyword.display)
}

/** True when every word of `keyword` is a word of `other`. */
function isWithin(keyword: Keyword, other: Keyword): boolean {
  return keyword.wordKeys.every((word) => other.wordKeys.includes(word))
}

/** Words that make a poor start for a headline: pronouns and connectives point back to context the reader lacks. */
const WEAK_OPENERS = new Set([
  'i',
  'we',
  'you',
  'they',
  'he',
  'she',
  'it',
  'this',
  'that',
  'these',
  'those',
  'there',
  'so',
  'and',
  'but',
  'or',
  'because',
  'then',
  ...['أنا', 'نحن', 'أنت', 'هو', 'هي', 'هم', 'هذا', 'هذه', 'لكن', 'ولكن', 'ثم', 'لذلك', 'كما'].map(normaliseArabic),
])

/** A short, self-contained central sentence about the top keyword, as a headline (no final stop). */
function headlineFrom(content: AnalysedContent): string {
  const top = new Set(content.keywords[0]?.wordKeys ?? [])
  const index = content.ranking.order.slice(0, 12).find((candidate) => {
    const sentence = content.sentences[candidate]!
    const opener = sentence.tokens[0]!
    return (
      !sentence.isQuestion &&
      sentence.wordCount >= 5 &&
      sentence.wordCount <= 12 &&
      // An Arabic sentence opening with the conjunction و or ف continues the one before it.
      !/^[وف]/.test(content.line(candidate)) &&
      !WEAK_OPENERS.has(opener.key) &&
      !WEAK_OPENERS.has(normaliseArabic(opener.written)) &&
      sentence.tokens.some((token) => top.has(token.key))
    )
  })
  return index === undefined ? '' : content.line(index).replace(/[.!…]+$/u, '')
}
