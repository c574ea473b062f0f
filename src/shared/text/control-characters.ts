/**
 * C0 and C1 control characters and DEL. No one types them into a search box, and SQLite's
 * LIKE stops reading a pattern at NUL (so `%\0x%` would match everything): a search that
 * holds one matches nothing instead.
 */
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/

export function holdsControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text)
}

/** U+0000 ends a C string: names holding it are cut short in logs, terminals and native APIs. */
export function holdsNul(text: string): boolean {
  return text.includes('\u0000')
}
