import { normaliseSpeechText } from './speech-text'

/** One entry of a voice dictionary: a word (or a few words) and how the voice should say it. */
export interface Pronunciation {
  word: string
  pronunciation: string
}

/** A letter, a combining mark (Arabic vowel signs), a digit or `_`: what a word is made of. */
const WORD_CHARACTER = String.raw`[\p{L}\p{M}\p{N}_]`

/**
 * The text with every whole-word occurrence of an entry's word replaced by its pronunciation,
 * in one pass (a replacement is never replaced again). Words match without regard to case
 * (Unicode case folding; Arabic has none) and only whole: "Rowe" is not replaced inside
 * "Rowena", "سعد" not inside "سعدية" (nor with a clitic: "وسعد"). When words overlap, the
 * longest wins; the same word twice, the first entry. Both sides are compared as the engine
 * reads them (NFC, whitespace as one space), so a word typed with other spacing still matches.
 */
export function applyPronunciations(text: string, entries: readonly Pronunciation[] | undefined): string {
  if (!entries || entries.length === 0 || text === '') return text
  const said = new Map<string, string>()
  for (const entry of entries) {
    const word = normaliseSpeechText(entry.word)
    const key = word.toLowerCase()
    if (word && !said.has(key)) said.set(key, normaliseSpeechText(entry.pronunciation))
  }
  if (said.size === 0) return text
  const words = [...said.keys()].sort((a, b) => b.length - a.length).map(escapeForPattern)
  const pattern = new RegExp(`(?<!${WORD_CHARACTER})(?:${words.join('|')})(?!${WORD_CHARACTER})`, 'giu')
  return text.replace(pattern, (found) => said.get(found.toLowerCase()) ?? found)
}

function escapeForPattern(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
}
