import { setImmediate as nextTurn } from 'node:timers/promises'
import { AI_PARTS, type AiPart } from '../../shared/api/ai-parts'
import { countScriptLetters } from './arabic-normalisation'
import type { CustomContentInput, CustomPartWritten } from './custom-part-types'
import { analyseContent, type AnalysedContent } from './content-analysis'
import { writeFaq, writeIntroduction, writeKeyTopics, writeKeywords, writeSeoArticle, writeSummary, writeTitles } from './long-form-parts'
import { phrasebookFor, type Phrasebook } from './phrasebook'
import { writeFacebookPost, writeLinkedInPost, writeThreadsPost, writeTwitterThread, writeYoutubeDescription } from './social-posts'

export interface AiContentInput {
  /** The source job's text: a transcript, a translation or a TTS text. Must not be blank. */
  text: string
  /** The parts to write; duplicates are ignored. At least one. */
  parts: AiPart[]
  /** 'en' | 'ar'; detected from the text when absent. Every part is written in this language. */
  lang?: 'en' | 'ar'
  /** The source job's title, if any. */
  title?: string
}

/** Exactly the requested parts, each a non-empty string. */
export type AiContentResult = Partial<Record<AiPart, string>>

/** Writes AI content from a text. Rejects with a clear Error on bad input or failure, with an AbortError when `signal` aborts. */
export interface AiContentEngine {
  readonly name: string
  generate(input: AiContentInput, signal?: AbortSignal): Promise<AiContentResult>
  /**
   * Custom parts from the user's instructions, by a model that can follow them. Engines without
   * it (offline) get the nearest built-in part with what of the instruction can be followed
   * (custom-parts.ts, writeCustomPartsOffline).
   */
  generateCustom?(input: CustomContentInput, signal?: AbortSignal): Promise<CustomPartWritten[]>
}

/** Share of Arabic letters among Arabic and Latin letters from which a text counts as Arabic. */
const ARABIC_SHARE = 0.4

/**
 * 'ar' when Arabic letters make up at least 40% of the Arabic and Latin letters, else 'en'.
 * The threshold is below half because Arabic transcripts often quote Latin names and terms.
 */
export function detectLanguage(text: string): 'en' | 'ar' {
  const { arabic, latin } = countScriptLetters(text)
  return arabic > 0 && arabic / (arabic + latin) >= ARABIC_SHARE ? 'ar' : 'en'
}

type PartWriter = (content: AnalysedContent, book: Phrasebook) => string

const WRITERS: Record<AiPart, PartWriter> = {
  introduction: writeIntroduction,
  titles: writeTitles,
  summary: writeSummary,
  webArticleSEOFriendly: writeSeoArticle,
  keyTopicsWithBullets: writeKeyTopics,
  keywords: writeKeywords,
  threadsByInstagram: writeThreadsPost,
  faq: writeFaq,
  facebookPost: writeFacebookPost,
  youtubeDescription: writeYoutubeDescription,
  twitterThread: writeTwitterThread,
  linkedInPost: writeLinkedInPost,
}

/**
 * The offline engine: deterministic, no model and no network. It analyses the text once
 * (sentences, keywords, sentence centrality, topics), then writes each part from sentences of
 * the source and fixed wording in the source's language (English or Arabic). Between parts it
 * yields to the event loop and checks `signal`, so a timeout or shutdown stops it promptly.
 */
export function createOfflineAiContentEngine(): AiContentEngine {
  return {
    name: 'offline',
    async generate(input, signal) {
      throwIfAborted(signal)
      const parts = requestedParts(input.parts)
      if (!input.text.trim()) throw new Error('The source text is empty: there is nothing to write AI content from')
      const lang = input.lang ?? detectLanguage(input.text)
      const content = analyseContent(input.text, lang, input.title)
      const book = phrasebookFor(lang)
      const result: AiContentResult = {}
      for (const part of parts) {
        await nextTurn()
        throwIfAborted(signal)
        const written = WRITERS[part](content, book).trim()
        // Every writer falls back to something; an empty part would be a bug here, not a property of the text.
        if (!written) throw new Error(`The offline engine wrote nothing for ${part}`)
        result[part] = written
      }
      return result
    },
  }
}

/** The parts asked for, without duplicates; throws on none or on an unknown name. */
export function requestedParts(parts: readonly string[]): AiPart[] {
  if (parts.length === 0) throw new Error('Ask for at least one AI-content part')
  const unknown = parts.filter((part) => !(AI_PARTS as readonly string[]).includes(part))
  if (unknown.length > 0) throw new Error(`Unknown AI-content part: ${unknown.join(', ')} (known: ${AI_PARTS.join(', ')})`)
  return [...new Set(parts as AiPart[])]
}

/**
 * Throws when `signal` has aborted: its reason when that is an Error (AbortSignal.timeout gives
 * a TimeoutError), otherwise an Error named AbortError, so callers can tell a stop from a failure.
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return
  if (signal.reason instanceof Error) throw signal.reason
  throw abortError()
}

/** An Error named AbortError, like the one fetch rejects with. */
export function abortError(message = 'The AI-content generation was aborted'): Error {
  const error = new Error(message)
  error.name = 'AbortError'
  return error
}
