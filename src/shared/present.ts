/**
 * For a value the code's own logic guarantees (an index inside its array, a key just checked, a
 * field the caller validated), where the type cannot say so. Instead of `value!`: when the
 * guarantee breaks, the error names what was missing rather than failing later on `undefined`.
 */

/** A value the code guaranteed was missing: a bug in the code, never bad input. */
export class MissingValueError extends Error {
  override name = 'MissingValueError'
}

/** The value, or a MissingValueError that says which value (`what`) was missing. */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new MissingValueError(`${what} is missing`)
  return value
}
