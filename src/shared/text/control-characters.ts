/**
 * C0 and C1 control characters and DEL. No one types them into a search box, and SQLite's
 * LIKE stops reading a pattern at NUL (so `%\0x%` would match everything): a search that
 * holds one matches nothing instead.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/
// eslint-disable-next-line no-control-regex -- the same class, for runs of them
const CONTROL_CHARACTER_RUNS = /[\u0000-\u001F\u007F-\u009F]+/g

export function holdsControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text)
}

/** The text with each run of control characters (line breaks and NUL too) turned into one space. */
export function controlCharactersAsSpaces(text: string): string {
  return text.replace(CONTROL_CHARACTER_RUNS, ' ')
}

/** U+0000 ends a C string: names holding it are cut short in logs, terminals and native APIs. */
export function holdsNul(text: string): boolean {
  return text.includes('\u0000')
}
