import { z } from 'zod'

/** The parts an AI-content job can write, in the order the contract lists them. */
export const AI_PARTS = [
  'introduction',
  'titles',
  'summary',
  'webArticleSEOFriendly',
  'keyTopicsWithBullets',
  'keywords',
  'threadsByInstagram',
  'faq',
  'facebookPost',
  'youtubeDescription',
  'twitterThread',
  'linkedInPost',
] as const

export const AiPartSchema = z.enum(AI_PARTS)
export type AiPart = z.infer<typeof AiPartSchema>

/** Platform limits the generated posts respect. */
export const AI_PART_LIMITS = {
  /** Each tweet of the thread. */
  tweet: 280,
  threadsPost: 500,
  linkedInPost: 3_000,
  facebookPost: 63_206,
  youtubeDescription: 5_000,
} as const
