import { z } from 'zod'
import type { TimedSegment, TranslationLanguage } from '../../shared/api/translation-jobs'
import { abortReason, chatServer, snippet, type ChatServer } from '../model-server/chat-server'
import { splitIntoPieces } from './translation-pieces'

/** From what (null: the model tells) into what. Codes as jobs store them (`ar`, `en`, or a transcription's language). */
export interface TranslationLanguages {
  from: string | null
  to: TranslationLanguage
}

export interface TranslationRun {
  signal?: AbortSignal
  /** Told after each request that moved the work on: how many strings are translated of how many. */
  onProgress?: (done: number, total: number) => Promise<void> | void
}

/**
 * Translates through a language model. Rejects with an Error whose message says what went wrong
 * (never the API key); a caller's abort rejects with the abort's reason.
 */
export interface TranslationEngine {
  readonly name: string
  /** The same segments, in the same order, each with its own start and end and its text translated. */
  translateSegments(segments: readonly TimedSegment[], languages: TranslationLanguages, run?: TranslationRun): Promise<TimedSegment[]>
  /** A text of any length, translated piece by piece; its line breaks are kept. */
  translateText(text: string, languages: TranslationLanguages, run?: TranslationRun): Promise<string>
}

export interface OpenAiCompatibleTranslationOptions {
  /** The API root, e.g. http://127.0.0.1:11434/v1 (Ollama). */
  baseUrl: string
  model: string
  /** Sent as `Authorization: Bearer <apiKey>` when given; never appears in an error message. */
  apiKey?: string
  /** Each request's time limit. Default 120 s: local models on a laptop are slow. */
  timeoutMs?: number
  /** At most this many strings in one request (default 40). */
  batchSize?: number
  /** At most about this many characters in one request (default 6,000; one longer string goes alone). */
  batchCharacters?: number
  /** A plain text is cut into pieces of at most this many characters (default 1,500). */
  pieceCharacters?: number
}

const DEFAULTS = { timeoutMs: 120_000, batchSize: 40, batchCharacters: 6_000, pieceCharacters: 1_500 }

const LANGUAGE_NAMES: Record<string, string> = { ar: 'Arabic', en: 'English' }

const ChatCompletionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
})

/** The model's words did not hold the translations asked for: worth asking again, unlike a server error. */
class MalformedAnswer extends Error {}

/**
 * Translation through an OpenAI-compatible chat-completions server. Strings go in batches, as a
 * JSON array the model answers with an array of the same length. A batch whose answer is malformed
 * (not JSON, too few or too many items, an empty item) is asked once more, then string by string;
 * so no string is ever dropped, merged or made up. Server failures (unreachable, no answer in
 * time, an error status) end the work at once.
 */
export function createOpenAiCompatibleTranslationEngine(options: OpenAiCompatibleTranslationOptions): TranslationEngine {
  const chat = chatServer(options)
  const settings = {
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    batchSize: options.batchSize ?? DEFAULTS.batchSize,
    batchCharacters: options.batchCharacters ?? DEFAULTS.batchCharacters,
  }
  const pieceCharacters = options.pieceCharacters ?? DEFAULTS.pieceCharacters

  const translateStrings = async (strings: readonly string[], languages: TranslationLanguages, run: TranslationRun): Promise<string[]> => {
    const translated = [...strings]
    // Blank strings (a segment of silence) are kept as they are, not sent.
    const wanted = strings.flatMap((text, index) => (text.trim() ? [index] : []))
    let done = 0
    for (const batch of batchesOf(wanted, (index) => strings[index]!, settings)) {
      const answers = await translateBatch(
        chat,
        batch.map((index) => strings[index]!),
        languages,
        settings.timeoutMs,
        run.signal,
      )
      batch.forEach((index, position) => (translated[index] = answers[position]!))
      done += batch.length
      await run.onProgress?.(done, wanted.length)
    }
    return translated
  }

  return {
    name: 'openai-compatible',
    async translateSegments(segments, languages, run = {}) {
      const texts = await translateStrings(
        segments.map((segment) => segment.text),
        languages,
        run,
      )
      return segments.map((segment, index) => ({ start: segment.start, end: segment.end, text: texts[index]! }))
    },
    async translateText(text, languages, run = {}) {
      const { pieces, join } = splitIntoPieces(text, pieceCharacters)
      return join(await translateStrings(pieces, languages, run))
    },
  }
}

/** Consecutive groups of at most `batchSize` items and about `batchCharacters` characters. */
function batchesOf(
  indexes: readonly number[],
  textOf: (index: number) => string,
  limits: { batchSize: number; batchCharacters: number },
): number[][] {
  const batches: number[][] = []
  let current: number[] = []
  let characters = 0
  for (const index of indexes) {
    const length = textOf(index).length
    if (current.length > 0 && (current.length >= limits.batchSize || characters + length > limits.batchCharacters)) {
      batches.push(current)
      current = []
      characters = 0
    }
    current.push(index)
    characters += length
  }
  if (current.length > 0) batches.push(current)
  return batches
}

/** One batch: asked twice when the answer is malformed, then each string alone. */
async function translateBatch(
  chat: ChatServer,
  texts: string[],
  languages: TranslationLanguages,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string[]> {
  let lastProblem: MalformedAnswer | undefined
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      return await askModel(chat, texts, languages, timeoutMs, signal)
    } catch (error) {
      if (!(error instanceof MalformedAnswer)) throw error
      lastProblem = error
    }
  }
  if (texts.length === 1) throw chat.fail(`the model did not answer with a translation, twice: ${lastProblem!.message}`)
  const one: string[] = []
  for (const text of texts) {
    try {
      one.push((await askModel(chat, [text], languages, timeoutMs, signal))[0]!)
    } catch (error) {
      if (!(error instanceof MalformedAnswer)) throw error
      throw chat.fail(
        `the model did not answer with a translation, in a batch of ${texts.length} twice nor for one string alone: ${error.message}`,
      )
    }
  }
  return one
}

function instructions(count: number, languages: TranslationLanguages): string {
  const from = languages.from
    ? (LANGUAGE_NAMES[languages.from] ?? `the language coded "${languages.from}"`)
    : 'the language it is written in'
  const to = LANGUAGE_NAMES[languages.to]!
  return [
    `You are a professional translator. Translate from ${from} into ${to}.`,
    `The user sends a JSON object {"texts": [...]} with ${count} string${count === 1 ? '' : 's'}.`,
    `Answer with only a JSON object {"translations": [...]} holding exactly ${count} string${count === 1 ? '' : 's'}: the ${to} translation of each text, in the same order, one for one.`,
    'Never merge, split, drop or add items: translate each item on its own, even when it is part of a sentence.',
    'Keep names, numbers and line breaks. Add no notes, explanations or quotes.',
  ].join('\n')
}

/** One request for `texts`; MalformedAnswer when the model's words are not exactly that many translations. */
async function askModel(
  chat: ChatServer,
  texts: string[],
  languages: TranslationLanguages,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string[]> {
  if (signal?.aborted) throw abortReason(signal, 'The translation was aborted')
  const timeout = AbortSignal.timeout(timeoutMs)
  const body = JSON.stringify({
    model: chat.model,
    messages: [
      { role: 'system', content: instructions(texts.length, languages) },
      { role: 'user', content: JSON.stringify({ texts }) },
    ],
    temperature: 0.2,
    response_format: { type: 'json_object' },
  })
  let status: number
  let statusText: string
  let responseText: string
  try {
    const response = await fetch(chat.endpoint, {
      method: 'POST',
      headers: chat.headers(),
      body,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    })
    status = response.status
    statusText = response.statusText
    responseText = await response.text()
  } catch (error) {
    throw chat.requestFailure(error, { signal, timedOut: timeout.aborted, timeoutMs, abortMessage: 'The translation was aborted' })
  }
  if (status < 200 || status > 299) throw chat.httpFailure(status, statusText, responseText)
  return translationsIn(completionContent(chat, responseText), texts.length)
}

function completionContent(chat: ChatServer, responseText: string): string {
  let parsed: unknown
  try {
    parsed = JSON.parse(responseText)
  } catch {
    throw chat.fail(`the model server at ${chat.server} answered invalid JSON instead of a chat completion: ${snippet(responseText)}`)
  }
  const completion = ChatCompletionSchema.safeParse(parsed)
  if (!completion.success)
    throw chat.fail(`the model server at ${chat.server} answered JSON that is not a chat completion (no choices[0].message.content)`)
  return completion.data.choices[0]!.message.content?.trim() ?? ''
}

/**
 * The translations in the model's message: `{"translations": [...]}`, or (a common habit) the
 * bare array; wrapped in a Markdown fence or a sentence, the outermost brackets are taken.
 */
function translationsIn(content: string, count: number): string[] {
  if (!content) throw new MalformedAnswer('the model answered an empty message')
  const objectAt = content.indexOf('{')
  const arrayAt = content.indexOf('[')
  const isObject = objectAt >= 0 && (arrayAt < 0 || objectAt < arrayAt)
  const [open, close] = isObject ? ['{', '}'] : ['[', ']']
  const start = content.indexOf(open)
  const end = content.lastIndexOf(close)
  let answer: unknown
  try {
    answer = JSON.parse(start >= 0 && end > start ? content.slice(start, end + 1) : content)
  } catch {
    throw new MalformedAnswer(`the model answered invalid JSON: ${snippet(content)}`)
  }
  const list = Array.isArray(answer) ? answer : (answer as { translations?: unknown } | null)?.translations
  if (!Array.isArray(list)) throw new MalformedAnswer(`the model's answer has no "translations" list: ${snippet(content)}`)
  if (list.length !== count)
    throw new MalformedAnswer(
      `the model answered ${list.length} translation${list.length === 1 ? '' : 's'} for ${count} text${count === 1 ? '' : 's'}`,
    )
  const blank = list.findIndex((item) => typeof item !== 'string' || !item.trim())
  if (blank >= 0)
    throw new MalformedAnswer(
      `the model's translation number ${blank + 1} is not a non-empty text: ${snippet(JSON.stringify(list[blank]) ?? 'undefined')}`,
    )
  return (list as string[]).map((item) => item.trim())
}
