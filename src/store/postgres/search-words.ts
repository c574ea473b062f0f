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

/** A search term: a word, matched as a word or a word's start (`prefix`), or as a whole word only. */
export interface SearchTerm {
  word: string
  prefix: boolean
}

/**
 * The terms of a search, each to be found in the lexemes as a word or a word's start. A single
 * letter matches as a word only: as a prefix it would match most of the index (SQLite's
 * matchQuery does the same).
 */
export function jobSearchTerms(words: string[]): SearchTerm[] {
  return words
    .flatMap((word) => searchWords(fold(word)))
    .map(cut)
    .map((word) => ({ word, prefix: [...word].length > 1 }))
}

const quote = (lexeme: string) => `'${lexeme.replace(/['\\]/g, (char) => `\\${char}`)}'`

/**
 * The tsquery (its text form, for a `::tsquery` cast) that holds when every term is in the
 * lexemes. A prefix term listed in `expansions` is written as the words it stands for (every
 * word with that start: see the migration 0007-job-words), which GIN answers faster than a
 * prefix and the same way; one not listed stays a prefix ('word':*).
 */
export function jobSearchQuery(words: string[], expansions: ReadonlyMap<string, readonly string[]> = new Map()): string {
  return jobSearchTerms(words)
    .map(({ word, prefix }) => {
      if (!prefix) return quote(word)
      const expanded = expansions.get(word)
      if (!expanded || expanded.length === 0) return `${quote(word)}:*`
      const [only] = expanded
      return only !== undefined && expanded.length === 1 ? quote(only) : `(${expanded.map(quote).join(' | ')})`
    })
    .join(' & ')
}
