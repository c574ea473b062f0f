/*
 * A long text cut into pieces a language model can translate one by one, and put back
 * together around them: line breaks and the spaces between pieces are kept as they were, only
 * the pieces are translated. Lines are always pieces of their own (so a translation keeps the
 * text's lines); a line over the budget is cut between sentences, a sentence over it between
 * words, and a word over it (a URL, a run without spaces) by characters.
 */

export interface TextPieces {
  /** What to translate, in order; none is empty or only spaces, none is longer than the budget. */
  readonly pieces: readonly string[]
  /** The text again with each piece replaced by its translation (same count and order as `pieces`). */
  join(translations: readonly string[]): string
}

interface Part {
  text: string
  translate: boolean
}

const LINE_BREAKS = /(\s*\n\s*)/
/** After a sentence's end (Latin and Arabic punctuation), the spaces before the next one. */
const SENTENCE_GAPS = /((?<=[.!?…؟])\s+)/
const WORD_GAPS = /(\s+)/

/** Cuts `text` into pieces of at most `maxCharacters` characters (code points). */
export function splitIntoPieces(text: string, maxCharacters: number): TextPieces {
  if (!Number.isInteger(maxCharacters) || maxCharacters < 1)
    throw new RangeError(`maxCharacters must be a positive integer, not ${maxCharacters}`)
  const parts: Part[] = []
  text.split(LINE_BREAKS).forEach((token, index) => {
    if (index % 2 === 1) return keep(parts, token)
    const start = token.length - token.trimStart().length
    const body = token.trim()
    keep(parts, token.slice(0, start))
    if (body) cut(body, maxCharacters, 0, parts)
    keep(parts, token.slice(start + body.length))
  })
  const pieces = parts.filter((part) => part.translate).map((part) => part.text)
  return {
    pieces,
    join(translations) {
      if (translations.length !== pieces.length)
        throw new RangeError(`${pieces.length} translations were expected, not ${translations.length}`)
      let next = 0
      return parts.map((part) => (part.translate ? translations[next++]! : part.text)).join('')
    },
  }
}

function keep(parts: Part[], text: string): void {
  if (text) parts.push({ text, translate: false })
}

function lengthOf(text: string): number {
  return [...text].length
}

/** Packs `text` greedily into pieces, cutting at sentence gaps, then word gaps, then anywhere. */
function cut(text: string, max: number, level: number, parts: Part[]): void {
  if (lengthOf(text) <= max) {
    parts.push({ text, translate: true })
    return
  }
  const gaps = [SENTENCE_GAPS, WORD_GAPS][level]
  if (!gaps) {
    const characters = [...text]
    for (let start = 0; start < characters.length; start += max)
      parts.push({ text: characters.slice(start, start + max).join(''), translate: true })
    return
  }
  const tokens = text.split(gaps)
  let current = tokens[0]!
  for (let index = 2; index < tokens.length; index += 2) {
    const gap = tokens[index - 1]!
    const token = tokens[index]!
    if (lengthOf(current + gap + token) <= max) {
      current += gap + token
      continue
    }
    cut(current, max, level + 1, parts)
    keep(parts, gap)
    current = token
  }
  cut(current, max, level + 1, parts)
}
