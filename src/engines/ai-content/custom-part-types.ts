import type { AiPart } from '../../shared/api/ai-parts'

/** One custom part as asked: a name, a language, and the user's instruction. */
export interface CustomPartRequest {
  aiPart: string
  language?: 'ar' | 'en'
  prompt: string
}

/** What was written for a custom part, and honestly how. */
export interface CustomPartWritten {
  aiPart: string
  language: 'ar' | 'en'
  prompt: string
  content: string
  engine: string
  /** The built-in part the offline engine wrote it as; null when a model wrote it from the instruction. */
  basedOn: AiPart | null
  honoured: string[]
  notHonoured: string[]
}

export interface CustomContentInput {
  text: string
  title?: string
  parts: readonly CustomPartRequest[]
}
