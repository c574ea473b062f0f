import { stripArabicMarks } from './arabic-normalisation'
import type { Lang } from './text-analysis'

/**
 * Length limits of social posts, counted in Unicode code points ([...text].length) so an emoji
 * or an Arabic letter counts once, never as two UTF-16 units.
 */
export function codePointLength(text: string): number {
  let length = 0
  for (const _ of text) length++
  return length
}

/**
 * `text` cut to at most `max` code points: at a word boundary when one is near, with an ellipsis,
 * so a cut is visible and never splits a word or a surrogate pair.
 */
export function fitToLength(text: string, max: number): string {
  if (codePointLength(text) <= max) return text
  if (max <= 1) return [...text].slice(0, Math.max(0, max)).join('')
  const codePoints = [...text]
  const head = codePoints.slice(0, max - 1).join('')
  const endsAtWord = /\s/.test(codePoints[max - 1] ?? ' ')
  const lastSpace = head.lastIndexOf(' ')
  const cut = endsAtWord || lastSpace < head.length * 0.6 ? head : head.slice(0, lastSpace)
  return `${cut.replace(/[\s,،;؛:.\-–—]+$/u, '')}…`
}

/** The blocks of a post: `head` and `tail` always appear (shortened only as a last resort), `body` blocks while they fit. */
export interface PostBlocks {
  head: string[]
  body: string[]
  tail: string[]
}

/**
 * Joins blocks with `separator` within `max` code points. Body blocks are kept in order while
 * they fit; when not even the first fits, it is shortened into the room left, so the post keeps
 * some substance. If head and tail alone are too long, the whole is cut.
 */
export function composeWithinLimit(blocks: PostBlocks, separator: string, max: number): string {
  const assemble = (body: string[]) => [...blocks.head, ...body, ...blocks.tail].filter((block) => block.length > 0).join(separator)
  const fixed = assemble([])
  if (codePointLength(fixed) > max) return fitToLength(fixed, max)
  const body: string[] = []
  for (const block of blocks.body) {
    if (codePointLength(assemble([...body, block])) <= max) body.push(block)
    else if (body.length === 0) {
      const room = max - codePointLength(fixed) - codePointLength(separator)
      if (room >= 40) body.push(fitToLength(block, room))
      break
    } else break
  }
  return assemble(body)
}

/**
 * A hashtag from a keyword: English words run together in CamelCase (#HeatPump); Arabic words
 * joined by underscores (#الري_بالتنقيط), the usual form since Arabic has no capitals.
 * Empty when nothing usable is left.
 */
export function toHashtag(keyword: string, lang: Lang): string {
  const words = stripArabicMarks(keyword)
    .split(/[\s\-–—/]+/)
    .map((word) => word.replace(/[^\p{L}\p{N}_]/gu, ''))
    .filter(Boolean)
  if (words.length === 0 || words.every((word) => /^\p{N}+$/u.test(word))) return ''
  const body = lang === 'ar' ? words.join('_') : words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('')
  return `#${body}`
}

/** Up to `count` distinct hashtags from the best keywords. */
export function hashtagsFor(keywords: readonly string[], lang: Lang, count: number): string[] {
  const tags: string[] = []
  for (const keyword of keywords) {
    const tag = toHashtag(keyword, lang)
    if (tag && !tags.some((other) => other.toLowerCase() === tag.toLowerCase())) tags.push(tag)
    if (tags.length >= count) break
  }
  return tags
}
