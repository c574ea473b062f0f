import { AI_PART_LIMITS, type AiPart } from '../../shared/api/ai-parts'

/** One message of an OpenAI-style chat completion request. */
export interface ChatMessage {
  role: 'system' | 'user'
  content: string
}

/** What each part must look like, told to the model in the words of the contract and the platform limits. */
const PART_INSTRUCTIONS: Record<AiPart, string> = {
  introduction: 'an opening paragraph of 3 to 5 sentences that introduces the text',
  titles: '3 to 5 distinct candidate titles, one per line, numbered "1. "',
  summary: 'a concise summary paragraph of the main points',
  webArticleSEOFriendly:
    'a search-friendly Markdown article: an H1 title (# ) containing the main keyword, an introduction, an H2 section (## ) per main topic, and a conclusion',
  keyTopicsWithBullets: 'the key topics, each a numbered line followed by 2 to 4 bullet lines starting with "- "',
  keywords: '8 to 12 keywords or key phrases that characterise the text, comma-separated on one line',
  threadsByInstagram: `one Threads post of at most ${AI_PART_LIMITS.threadsPost} characters, with a few hashtags`,
  faq: '3 to 6 question-and-answer pairs drawn from the text, each a "Q: " line then an "A: " line (the labels in the output language), pairs separated by a blank line',
  facebookPost: 'a friendly Facebook post that ends with a question to the audience, with 2 or 3 hashtags',
  youtubeDescription: `a YouTube description of at most ${AI_PART_LIMITS.youtubeDescription} characters: a summary, an "In this video" bullet list, keywords and 3 hashtags`,
  twitterThread: `a numbered thread ("1/N ..."), each tweet at most ${AI_PART_LIMITS.tweet} characters including its number, tweets separated by a blank line, hashtags in the last tweet`,
  linkedInPost: `a LinkedIn post of at most ${AI_PART_LIMITS.linkedInPost} characters: a hook line, short paragraphs, key takeaways, a question to the reader and 3 to 5 hashtags`,
}

const LANGUAGE_NAMES = { en: 'English', ar: 'Arabic (Modern Standard Arabic)' } as const

/**
 * The chat messages that ask a model for exactly `parts` as one JSON object, written in `lang`.
 * The instructions are English (what small local models follow best); the output language is
 * stated twice because models drift towards the instruction language.
 */
export function buildChatMessages(input: { text: string; title?: string }, parts: readonly AiPart[], lang: 'en' | 'ar'): ChatMessage[] {
  const language = LANGUAGE_NAMES[lang]
  const system = [
    'You write publishing content from a source text (a call or meeting transcript, a translation, or a script).',
    'Answer with one JSON object and nothing else: no Markdown fence, no comment.',
    `Its keys are exactly: ${parts.join(', ')}. Every value is a single string (use \\n for line breaks).`,
    ...parts.map((part) => `- "${part}": ${PART_INSTRUCTIONS[part]}.`),
    `Write every value in ${language}, the language of the source text, including headings and labels.`,
    'Use only facts from the source text.',
  ].join('\n')
  const user = [
    input.title ? `Title: ${input.title}` : '',
    `Source text (${language}):`,
    '"""',
    input.text.trim(),
    '"""',
    `Answer in ${language}, as the JSON object described.`,
  ]
    .filter(Boolean)
    .join('\n')
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ]
}

/**
 * The chat messages that ask a model for custom parts, each from the user's own instruction,
 * as one JSON object keyed part1, part2, … (names users give need not be valid or distinct keys).
 */
export function buildCustomChatMessages(
  input: { text: string; title?: string },
  parts: readonly { aiPart: string; language: 'en' | 'ar'; prompt: string }[],
): ChatMessage[] {
  const system = [
    'You write publishing content from a source text (a call or meeting transcript, a translation, or a script).',
    'Answer with one JSON object and nothing else: no Markdown fence, no comment.',
    `Its keys are exactly: ${parts.map((_, index) => `part${index + 1}`).join(', ')}. Every value is a single string (use \\n for line breaks).`,
    ...parts.map(
      (part, index) =>
        `- "part${index + 1}" (${JSON.stringify(part.aiPart)}), written in ${LANGUAGE_NAMES[part.language]}: ${part.prompt.replace(/\s+/g, ' ').trim()}`,
    ),
    'Use only facts from the source text.',
  ].join('\n')
  const user = [
    input.title ? `Title: ${input.title}` : '',
    'Source text:',
    '"""',
    input.text.trim(),
    '"""',
    'Answer as the JSON object described.',
  ]
    .filter(Boolean)
    .join('\n')
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ]
}
