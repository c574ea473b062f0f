import { likePattern } from '../json-column'

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const LOWER = 'abcdefghijklmnopqrstuvwxyz'

/**
 * SQLite's LIKE, in PostgreSQL: a substring match, case-insensitive for ASCII letters only
 * (ILIKE would fold every script the locale knows), `%`, `_` and `\` matched literally.
 * `column` is an SQL expression, `parameter` the placeholder bound to `likeOperand(search)`.
 */
export function asciiLike(column: string, parameter: string): string {
  return `translate(${column}, '${UPPER}', '${LOWER}') LIKE ${parameter} ESCAPE '\\'`
}

/** The pattern for `asciiLike`: the search lower-cased in ASCII, its wildcards escaped. */
export function likeOperand(search: string): string {
  return likePattern(search.replace(/[A-Z]/g, (char) => char.toLowerCase()))
}
