import type { JobType } from '../../shared/api/jobs'

/**
 * The local price table, in credits (docs/api.md, "Prices"). VoiceDesk charges nothing;
 * credits let a client written for the cloud service see realistic, positive costs.
 */
export const PRICES = {
  /** TTS: per started block of 100 characters of text. */
  ttsPer100Characters: 1,
  /** AI content: per part asked for. */
  aiContentPerPart: 2,
  /** Transcription and translation: per started minute of media. */
  transcriptionPerMinute: 3,
  translationPerMinute: 4,
  /** Translation of a text (no media): per started block of 1,000 characters of the source text. */
  translationPer1000Characters: 2,
  /** Conversations: per started minute of call. */
  conversationPerMinute: 5,
} as const

export function ttsCost(text: string): number {
  return Math.max(1, Math.ceil([...text].length / 100)) * PRICES.ttsPer100Characters
}

export function aiContentCost(parts: number): number {
  return Math.max(1, parts) * PRICES.aiContentPerPart
}

export function mediaCost(type: Extract<JobType, 'TRANSCRIPTION' | 'TRANSLATION'>, seconds: number): number {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  return minutes * (type === 'TRANSCRIPTION' ? PRICES.transcriptionPerMinute : PRICES.translationPerMinute)
}

/** A translation whose source has no media: by the length of the source text (code points). */
export function translationTextCost(text: string): number {
  return Math.max(1, Math.ceil([...text].length / 1_000)) * PRICES.translationPer1000Characters
}

/** A call of `seconds` (one minute's price before it started). */
export function conversationCost(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60)) * PRICES.conversationPerMinute
}
