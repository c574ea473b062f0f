import { isDeepStrictEqual } from 'node:util'
import type { FieldDiff, Matcher, ScenarioExpectation } from '../../shared/api/test-suites'

/*
 * Scoring a scenario (docs/api.md, "Test suites and runs"): the expectation against what the
 * call produced, field by field. Pure: no clock but the call's own date, no I/O.
 */

/** What a call produced, as the runner read it from the conversation. */
export interface CallProduct {
  outcome: unknown
  endReason: string | null
  /** Agent and caller turns of the transcript. */
  turns: number
  /** Event types of the agent webhooks the call queued. */
  webhooks: readonly string[]
  /** The call's date (its start): `{ date }` matchers count from it, in the service's local time. */
  callDate: Date
}

export interface Score {
  pass: boolean
  fields: FieldDiff[]
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']

function isoDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days, 12)
}

/**
 * A relative day as YYYY-MM-DD: `today±N`, `tomorrow`, and a weekday, which (with or without
 * "next", as the offline dialogue reads it) is the first such day after the call's date.
 */
export function resolveRelativeDate(expression: string, callDate: Date): string {
  const text = expression.trim().toLowerCase()
  if (text === 'tomorrow') return isoDate(addDays(callDate, 1))
  const offset = /^today([+-]\d+)?$/.exec(text)
  if (offset) return isoDate(addDays(callDate, Number(offset[1] ?? 0)))
  const weekday = WEEKDAYS.indexOf(text.replace(/^next /, ''))
  if (weekday < 0) throw new Error(`Not a relative date: ${expression}`)
  return isoDate(addDays(callDate, (weekday - callDate.getDay() + 7) % 7 || 7))
}

/** The value at a dotted path (`unit.bedrooms`); undefined when any step is missing. */
export function valueAt(value: unknown, path: string): unknown {
  let here: unknown = value
  for (const step of path.split('.')) {
    if (here === null || typeof here !== 'object' || !Object.hasOwn(here, step)) return undefined
    here = (here as Record<string, unknown>)[step]
  }
  return here
}

/** Empty strings and lists count as not given: the outcome writes those for what the caller never said. */
function isPresent(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false
  return !(Array.isArray(value) && value.length === 0)
}

/** A number the outcome wrote as text ("4") equals the literal 4, and the other way round. */
function sameLiteral(expected: unknown, got: unknown): boolean {
  if (isDeepStrictEqual(expected, got)) return true
  if (typeof expected === 'number' && typeof got === 'string') return got.trim() !== '' && Number(got) === expected
  if (typeof expected === 'string' && typeof got === 'number') return expected.trim() !== '' && Number(expected) === got
  if (typeof expected === 'string' && typeof got === 'string') return expected.trim().toLowerCase() === got.trim().toLowerCase()
  return false
}

/** Whether `got` satisfies `matcher`; dates resolve against the call's date. */
export function matches(matcher: Matcher, got: unknown, callDate: Date): boolean {
  if (matcher === null || typeof matcher !== 'object' || Array.isArray(matcher)) return sameLiteral(matcher, got)
  if ('present' in matcher) return isPresent(got)
  if ('absent' in matcher) return !isPresent(got)
  if ('oneOf' in matcher) return matcher.oneOf.some((option) => sameLiteral(option, got))
  if ('pattern' in matcher)
    return typeof got === 'string' || typeof got === 'number' ? new RegExp(matcher.pattern, 'u').test(String(got)) : false
  if ('date' in matcher) return typeof got === 'string' && got.slice(0, 10) === resolveRelativeDate(matcher.date, callDate)
  // A time the outcome wrote as HH:MM, HH:MM:SS or inside a datetime.
  return typeof got === 'string' && new RegExp(`(^|T|\\s)${matcher.time}(:00)?($|[^\\d])`).test(got)
}

/** How a matcher reads in a diff: dates resolved, so the diff says which day was meant. */
function expectedOf(matcher: Matcher, callDate: Date): unknown {
  if (matcher !== null && typeof matcher === 'object' && !Array.isArray(matcher) && 'date' in matcher)
    return { date: matcher.date, is: resolveRelativeDate(matcher.date, callDate) }
  return matcher
}

/**
 * Scores a call against its expectation: one diff per outcome field, then `endReason`,
 * `maxTurns` (field `turns`) and `webhooks` (one diff per event type). An empty expectation passes.
 */
export function scoreCall(expectation: ScenarioExpectation, product: CallProduct): Score {
  const fields: FieldDiff[] = []
  for (const [field, matcher] of Object.entries(expectation.outcome ?? {})) {
    const got = valueAt(product.outcome, field)
    fields.push({ field, expected: expectedOf(matcher, product.callDate), got, pass: matches(matcher, got, product.callDate) })
  }
  if (expectation.endReason !== undefined)
    fields.push({
      field: 'endReason',
      expected: expectation.endReason,
      got: product.endReason,
      pass: expectation.endReason === product.endReason,
    })
  if (expectation.maxTurns !== undefined)
    fields.push({
      field: 'turns',
      expected: { atMost: expectation.maxTurns },
      got: product.turns,
      pass: product.turns <= expectation.maxTurns,
    })
  for (const event of expectation.webhooks ?? []) {
    const seen = product.webhooks.includes(event)
    fields.push({ field: `webhooks.${event}`, expected: 'sent', got: seen ? 'sent' : 'not sent', pass: seen })
  }
  return { pass: fields.every((diff) => diff.pass), fields }
}

/** Nearest-rank percentile of `values` (0 < q ≤ 1); null when there are none. */
export function percentile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? null
}
