/*
 * How much of its outcome a call found, the same for the jobs monitor's rows (jobs.list) and
 * its detail: an outcome that says nothing is "none" whatever the flags say.
 */

/** How much of its outcome a call found: every required field, some of them, or nothing. */
export const CALL_OUTCOME_STATES = ['complete', 'partial', 'none'] as const
export type CallOutcomeState = (typeof CALL_OUTCOME_STATES)[number]

export interface OutcomeField {
  /** Null for an outcome that is not an object (a string, a number, a list). */
  name: string | null
  value: string
}

/** Null, an empty or blank string, an empty list or object say nothing. */
export function isFilled(value: unknown): boolean {
  if (value === null || value === undefined) return false
  if (typeof value === 'string') return value.trim() !== ''
  if (Array.isArray(value)) return value.some(isFilled)
  if (typeof value === 'object') return Object.values(value).some(isFilled)
  return true
}

/** `outcomeComplete` false (required fields missing) is partial; a filled outcome otherwise complete. */
export function outcomeStateOf(outcomeResult: unknown, outcomeComplete: boolean | null): CallOutcomeState {
  if (!isFilled(outcomeResult)) return 'none'
  return outcomeComplete === false ? 'partial' : 'complete'
}

/** The outcome's first `count` filled fields in their written order, each value on one line, cut to `maxCharacters`. */
export function filledOutcomeFields(outcomeResult: unknown, count: number, maxCharacters: number): OutcomeField[] {
  if (!isFilled(outcomeResult)) return []
  if (typeof outcomeResult !== 'object' || outcomeResult === null || Array.isArray(outcomeResult))
    return [{ name: null, value: shortText(outcomeResult, maxCharacters) }]
  const fields: OutcomeField[] = []
  for (const [name, value] of Object.entries(outcomeResult)) {
    if (fields.length === count) break
    if (isFilled(value)) fields.push({ name, value: shortText(value, maxCharacters) })
  }
  return fields
}

function shortText(value: unknown, maxCharacters: number): string {
  const text =
    typeof value === 'string'
      ? value
      : Array.isArray(value) && value.every((entry) => typeof entry !== 'object')
        ? value.join(', ')
        : JSON.stringify(value)
  const characters = [...text.replace(/\s+/g, ' ').trim()]
  return characters.length <= maxCharacters ? characters.join('') : `${characters.slice(0, maxCharacters - 1).join('')}…`
}
