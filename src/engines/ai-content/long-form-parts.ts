import type { AnalysedContent } from './content-analysis'
import type { CardLine, Phrasebook } from './phrasebook'
import type { Fact, FactKind } from './call-card'
import type { IdentifierLabel } from './card-patterns'
import { summaryRuledOut } from './content-analysis'
import { quotesRejected, SWITCH } from './call-card'
import { normaliseArabic } from './arabic-normalisation'
import { isGreetingWord } from './stop-words'
import { LIST_MARKER } from './text-analysis'
import type { Keyword } from './keyword-extraction'
import type { Topic } from './topic-clustering'

/**
 * Writers of the reading parts: summary, keywords, titles, introduction, key topics, FAQ and the
 * SEO article. Each takes the analysed text and the phrasebook of its language and returns a
 * non-empty string. Sentences are quoted from the source (tidied, never reworded); the
 * phrasebook supplies the connecting words.
 */

/** The call card's facts first, then the chosen sentences in the order of the text, as one paragraph. */
export function writeSummary(content: AnalysedContent, book: Phrasebook): string {
  return [book.cardLead(cardLine(content, book)), ...content.summaryIndexes.map((index) => content.line(index))].filter(Boolean).join(' ')
}

const MAX_CARD_VALUES = 3

/** Distinct values of one kind, as written, first mention first; an Arabic ب or ل fused to a number dropped (بمئتين ريال → مئتين ريال). */
function valuesOf(facts: readonly Fact[], kind: FactKind, limit = MAX_CARD_VALUES): string[] {
  const seen = new Map<string, string>()
  for (const fact of facts)
    if (fact.kind === kind && !seen.has(fact.key)) seen.set(fact.key, fact.text.replace(/^[بل](?=\p{Script=Arabic}{3})/u, ''))
  return [...seen.values()].slice(0, limit)
}

/** What the card puts first: who called, what was settled and when, who else, amounts, references; for a text without turns, its figures. */
export function cardLine(content: AnalysedContent, book: Phrasebook): CardLine {
  const { card } = content
  const rejectedKeys = new Set(card.rejected.map((fact) => `${fact.kind} ${fact.key}`))
  const facts = card.facts.filter((fact) => !rejectedKeys.has(`${fact.kind} ${fact.key}`))
  const whenSentence = card.commitment
  const conversation = card.roles.some((role) => role !== undefined)
  // A call settles one date and time; a text's dates are its facts, its times mostly opening hours.
  const when = conversation
    ? whenSentence === undefined
      ? []
      : facts.filter((fact) => fact.sentence === whenSentence && (fact.kind === 'date' || fact.kind === 'time'))
    : textWhen(facts, card.targets)
  return {
    ...(card.callerName ? { caller: card.callerName } : {}),
    ...(when.length > 0 ? { when: book.joinWhen([...new Set(when.map((fact) => fact.text))], conversation) } : {}),
    // The caller addressed by title ("أستاذ طارق") is the caller again.
    people: card.people
      .filter((person) => !card.callerName || !person.split(/\s+/).includes(card.callerName.split(/\s+/)[0]!))
      .filter((person) => /\S\s\S/.test(person))
      .slice(0, MAX_CARD_VALUES),
    amounts: valuesOf(facts, 'amount'),
    identifiers: identifierGroups(facts),
    figures: conversation ? [] : valuesOf(facts, 'quantity', 4),
  }
}

/**
 * A text's dates: those it moved something to come first ("moves to March 17"), else its first
 * two; a time said with the first date joins it ("tomorrow between ten and twelve").
 */
function textWhen(facts: readonly Fact[], targets: readonly Fact[]): Fact[] {
  const dates = facts.filter((fact) => fact.kind === 'date')
  const moved = dates.filter((fact) => targets.includes(fact))
  const chosen = moved.length > 0 ? moved.slice(0, 2) : dates.slice(0, 2)
  const first = chosen[0]
  const time = first && facts.find((fact) => fact.kind === 'time' && fact.sentence === first.sentence && fact.start > first.start)
  return time ? [first, time, ...chosen.slice(1)] : chosen
}

/** Identifiers by what they are (plate, order, booking, phone…), each label once, in order of first mention. */
function identifierGroups(facts: readonly Fact[]): [IdentifierLabel, string[]][] {
  const groups = new Map<IdentifierLabel, string[]>()
  for (const value of valuesOf(facts, 'identifier', 2 * MAX_CARD_VALUES)) {
    const label = facts.find((fact) => fact.kind === 'identifier' && fact.text === value)?.label ?? 'reference'
    groups.set(label, [...(groups.get(label) ?? []), value])
  }
  return [...groups.entries()]
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
  const when = cardLine(content, book).when
  const [first, ...others] = book.titles(keywords.slice(0, 3))
  const candidates = [
    ...(when ? [book.titleWithWhen(keywords[0]!, when)] : []),
    commitmentHeadline(content),
    first!,
    headlineFrom(content),
    ...others,
  ]
  if (content.title) candidates.splice(2, 0, book.titleFromSourceTitle(content.title, keywords[0]!))
  // The text's own opening line is where it starts, not what it is about.
  const opening = (content.sentences[0]?.text ?? '').replace(/[.!?؟…]+$/u, '').toLowerCase()
  const distinct: string[] = []
  for (const candidate of candidates) {
    if (candidate && candidate.toLowerCase() !== opening && !distinct.some((title) => title.toLowerCase() === candidate.toLowerCase()))
      distinct.push(candidate)
  }
  // A text of one short sentence has nothing else to name it by.
  return distinct.length > 0 ? distinct.slice(0, 5) : [candidates.find(Boolean)!]
}

/** Openers a commitment sentence starts with that a headline drops ("Great, you're booked…" → "Booked…"). */
const COMMITMENT_OPENER =
  /^(?:(?:great|lovely|perfect|done|okay|ok|right|sure|thanks|thank you|تمام|طيب|حاضر|خلاص|ممتاز)\b[,،.!]?\s+)*(?:(?:you're|you are|we're|we are|i've|we've|it's|it is|it'll be|it will be|she's|he's|she is|he is)\s+)?/i

/** The sentence that states the main commitment, as a headline: its first clause, openers and pronouns dropped, no final stop. */
function commitmentHeadline(content: AnalysedContent): string {
  const index = content.card.commitment
  if (index === undefined || !headlineMaterial(content, index)) return ''
  const clause = withoutListMarker(content.line(index)).split(/(?<=\S)[,،;؛]\s+(?=(?:and|but|the|و|ف)\b|\p{Script=Arabic})/u)[0]!
  const headline = clause
    .replace(COMMITMENT_OPENER, '')
    .replace(/[.!…]+$/u, '')
    .trim()
  const words = headline.split(/\s+/).length
  if (FIRST_PERSON.test(headline)) return ''
  return words >= 3 && words <= 14 ? headline.charAt(0).toUpperCase() + headline.slice(1) : ''
}

/** The opening paragraph: what the text is about, its two most central sentences, what follows. */
export function writeIntroduction(content: AnalysedContent, book: Phrasebook): string {
  const ruledOut = summaryRuledOut(content.sentences, content.card)
  const central = content.ranking.order
    .filter((index) => !content.sentences[index]!.isQuestion && !ruledOut.has(index))
    .slice(0, 2)
    .sort((a, b) => a - b)
  return [
    book.cardLead(cardLine(content, book)),
    book.introOpening(content.kind, leadingKeywords(content).slice(0, 4)),
    ...central.map((index) => content.line(index)),
    book.introClosing(content.topics.map((topic) => topic.keywords[0]!.display)),
  ].join(' ')
}

/** Numbered topics, each with its sentences as "- " bullets. */
export function writeKeyTopics(content: AnalysedContent, book: Phrasebook): string {
  return content.topics
    .map((topic, i) =>
      [`${i + 1}. ${topicHeading(topic, book)}`, ...topic.bulletIndexes.map((index) => `- ${content.line(index)}`)].join('\n'),
    )
    .join('\n\n')
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

  const card = content.card
  const rejectedSentences = new Set(card.rejected.map((fact) => fact.sentence).filter((index) => quotesRejected(card, index)))
  // A question holding a greeting or a vocative ("Hi Karen, can you…") or a slot given up is no FAQ.
  const asked = sentences
    .filter(
      (sentence) =>
        sentence.isQuestion &&
        !sentence.isRepeat &&
        !rejectedSentences.has(sentence.index) &&
        !SWITCH.test(sentence.text) &&
        !sentence.tokens.some((token) => token.speakerMention || isGreetingWord(token.written.toLowerCase())) &&
        sentence.tokens.some((token) => !token.stop) &&
        sentence.wordCount >= 4,
    )
    .map((question) => ({ question, answer: answerTo(content, question.index) }))
    .filter((pair): pair is { question: typeof pair.question; answer: number[] } => pair.answer.length > 0)
    .sort((a, b) => ranking.scores[b.answer[0]!]! - ranking.scores[a.answer[0]!]! || a.question.index - b.question.index)
    .slice(0, MAX_QUESTIONS_FROM_TEXT)
    .sort((a, b) => a.question.index - b.question.index)
  for (const { question, answer } of asked) {
    pairs.push({ question: content.line(question.index), answer: answer.map((index) => content.line(index)).join(' ') })
    for (const index of answer) usedAnswers.add(index)
  }

  const ruledOut = summaryRuledOut(sentences, content.card)
  const answerable = (index: number) => !sentences[index]!.isQuestion && !ruledOut.has(index) && sentences[index]!.wordCount >= 4
  // The card's facts keep the sentences that state them for their own questions (below).
  const facts = factAnswers(content).filter(([, index]) => index !== undefined && answerable(index) && !usedAnswers.has(index))
  const reserved = new Set(facts.map(([, index]) => index))
  // The overview is answered by the two most central sentences no reply used, in text order.
  const overview = ranking.order
    .filter((index) => answerable(index) && !usedAnswers.has(index) && !reserved.has(index))
    .slice(0, 2)
    .sort((a, b) => a - b)
  if (overview.length > 0) {
    pairs.unshift({ question: book.faqOverviewQuestion(content.kind), answer: overview.map((index) => content.line(index)).join(' ') })
    for (const index of overview) usedAnswers.add(index)
  }
  // Then what the card knows, each answered by the sentence that states it.
  for (const [topic, index] of facts) {
    if (pairs.length >= MAX_FAQ) break
    if (index === undefined || usedAnswers.has(index)) continue
    pairs.push({ question: book.factQuestions[topic], answer: content.line(index) })
    usedAnswers.add(index)
  }
  // Only a text with too few questions and facts falls back to asking about its keywords.
  let template = 0
  for (const keyword of content.keywords) {
    if (pairs.length >= 3) break
    const best = [...keyword.sentenceIndexes]
      .filter((index) => answerable(index) && !usedAnswers.has(index))
      .sort((a, b) => ranking.scores[b]! - ranking.scores[a]! || a - b)[0]
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

/** Identifiers that answer no "What is the reference number?": how to reach someone, or the car itself. */
const NOT_A_REFERENCE = new Set<IdentifierLabel | undefined>(['plate', 'phone', 'email'])

/** Sentences that state what the card knows, one per kind of fact, in the order an FAQ asks. */
function factAnswers(content: AnalysedContent): [keyof Phrasebook['factQuestions'], number | undefined][] {
  const { card } = content
  const firstWith = (kind: FactKind) =>
    card.facts.find((fact) => fact.kind === kind && !card.rejected.includes(fact) && !NOT_A_REFERENCE.has(fact.label))?.sentence
  const conversation = card.roles.some((role) => role !== undefined)
  return [
    ['reason', card.reason],
    ['decision', card.decisions.at(-1)],
    ['when', card.commitment],
    ['amount', firstWith('amount')],
    ['identifier', firstWith('identifier')],
    ['objection', card.objections[0]],
    ['nextStep', card.nextSteps.filter((index) => index !== card.commitment).at(-1)],
    ...(conversation ? [] : ([['figures', firstWith('quantity')]] as [keyof Phrasebook['factQuestions'], number | undefined][])),
  ]
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
    ...content.topics.flatMap((topic) => [
      `## ${topicHeading(topic, book)}`,
      topic.bulletIndexes.map((index) => content.line(index)).join(' '),
    ]),
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

/** A short, self-contained central sentence of a written text about the top keyword, as a headline (no final stop). */
function headlineFrom(content: AnalysedContent): string {
  // In a call or a message, every sentence is someone's words to someone: the commitment and the topic name it.
  if (content.kind !== 'text') return ''
  const top = new Set(content.keywords[0]?.wordKeys ?? [])
  const index = content.ranking.order.slice(0, 12).find((candidate) => {
    const sentence = content.sentences[candidate]!
    const opener = sentence.tokens[0]!
    return (
      headlineMaterial(content, candidate) &&
      !PERSONAL_OPENERS.test(content.line(candidate)) &&
      sentence.wordCount >= 5 &&
      sentence.wordCount <= 12 &&
      // An Arabic sentence opening with the conjunction و or ف continues the one before it.
      !/^[وف]/.test(content.line(candidate)) &&
      !WEAK_OPENERS.has(opener.key) &&
      !WEAK_OPENERS.has(normaliseArabic(opener.written)) &&
      // Greetings and the person addressed ("هلا يا سعود، …") make no headline.
      !sentence.tokens.some((token) => token.speakerMention || isGreetingWord(token.written.toLowerCase())) &&
      sentence.tokens.some((token) => top.has(token.key))
    )
  })
  return index === undefined ? '' : withoutListMarker(content.line(index)).replace(/[.!…]+$/u, '')
}

const withoutListMarker = (line: string) => line.replace(LIST_MARKER, '')
/** A sentence that speaks to or as someone ("I", "we", "أنا", "احنا"): a quote, not a headline. */
const PERSONAL_OPENERS =
  /^(?:i|i'm|i've|i'd|we|we're|we've|you|you're|my|our|your|please)\b|^(?:أنا|انا|احنا|إحنا|نحن|انت|إنت|أنت|انتي|إنتي|ياريت|يا ريت|لو سمحت)(?![\p{L}])/iu

/**
 * Whether a sentence can give a headline: not a question, not a "Label: …" line of notes
 * ("Present: …", "الحضور: …"; a list marker is fine), and, in a call or a message, not the
 * words of one speaker to another (first or second person).
 */
function headlineMaterial(content: AnalysedContent, index: number): boolean {
  const sentence = content.sentences[index]!
  const line = withoutListMarker(content.line(index))
  return !sentence.isQuestion && !/^[^\s:]+(?:\s[^\s:]+)?:\s/u.test(line)
}

/** The speaker's own words ("I paid…", "أنا دافعة…", "عايزة فلوسي"): a quote, not a headline. */
const FIRST_PERSON =
  /\b(?:i|i'm|i've|i'd|i'll|me|my|we|we're|we've|we'll|our|us)\b|(?<![\p{L}])(?:أنا|انا|احنا|إحنا|نحن|عندي|بدي|أبي|ابي|أبغى|ابغى|عايز|عايزة|ياريت|يا ريت)(?![\p{L}])/iu
