import type { z } from 'zod'

/**
 * Reads a JSON column and re-validates it: stored payloads are data, and a row written
 * by another build (or by hand) must fail loudly here rather than deep inside a handler.
 */
export function readJsonColumn<T extends z.ZodType>(schema: T, text: string, column: string): z.infer<T> {
  const result = schema.safeParse(JSON.parse(text))
  if (!result.success) throw new Error(`Stored ${column} is not valid: ${result.error.message}`)
  return result.data
}

/** Escapes LIKE wildcards so a search for `50%` finds the text `50%`. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
}
