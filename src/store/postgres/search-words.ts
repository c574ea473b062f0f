import { searchWords } from '../records'

/**
 * The words a job is found by, and the tsquery of a search, as SQLite's FTS5 index matches them
 * (unicode61, remove_diacritics 2): letters and digits, lower-cased, Latin accents dropped (é is
 * e), everything else a separator. The application splits the words itself and stores them as
 * bare lexemes (array_to_tsvector): PostgreSQL's text-search parser would keep `a.b`, `x-y` or
 * an e-mail address as tokens of their own, and its notion of a letter follows the database's
 * locale, so searches would differ from SQLite's and from one database to the next.
 */

/** A lexeme longer than this is cut (PostgreSQL refuses lexemes over 2 KiB); a search word is cut alike. */
const MAX_WORD = 200

function fold(text: string): string {
  // Combining Diacritical Marks only: Arabic marks (hamza, harakat) stay, as in FTS5.
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
}

function cut(word: string): string {
  return [...word].slice(0, MAX_WORD).join('')
}

/** The distinct words of a job's title and text, for its search column. */
export function jobSearchLexemes(title: string, text: string | null): string[] {
  return [...new Set(searchWords(fold(`${title} ${text ?? ''}`)).map(cut))]
}

/**
 * The tsquery (its text form, for a `::tsquery` cast) that holds when every word is in the
 * lexemes, as a word or a word's start. A single letter matches as a word only: as a prefix it
 * would match most of the index (SQLite's matchQuery does the same).
 */
export function jobSearchQuery(words: string[]): string {
  const terms = words.flatMap((word) => searchWords(fold(word))).map(cut)
  return terms.map((term) => `'${term.replace(/['\\]/g, (char) => `\\${char}`)}'${[...term].length > 1 ? ':*' : ''}`).join(' & ')
}
