import type { DialogueAgent, DialogueOutcome } from './dialogue-engine'
import { bestValidPartial, validateOutcome } from './outcome-validation'
import { slotId, type Slot } from './slot-plan'
import type { SlotValue } from './value-extraction'

/**
 * The offline session's outcome: its slots' values nested back into the agent's outcome shape,
 * each coerced to its declared type, then the best valid part of it. The session owns the
 * dialogue; this file only turns what it gathered into the result the call ends with.
 */

/** What a session gathered, as the outcome needs it. */
export interface GatheredFacts {
  readonly values: ReadonlyMap<string, SlotValue>
  /** Fields asked at least once. */
  readonly asked: ReadonlySet<string>
  readonly callerTurns: number
  /** The read-back was confirmed. */
  readonly confirmed: boolean
  /** The call ended before the read-back was confirmed. */
  readonly endedEarly: boolean
}

/** The fields filled so far, each only in a value its shape accepts; nothing inferred (that is for the end). */
export function outcomeSoFar(
  shape: DialogueAgent['outcomeShape'],
  slots: readonly Slot[],
  values: ReadonlyMap<string, SlotValue>,
): DialogueOutcome {
  if (!shape) return { result: null, complete: true }
  const raw: Record<string, unknown> = {}
  for (const slot of slots) {
    const id = slotId(slot)
    if (values.has(id)) place(raw, slot, values.get(id))
  }
  const result = bestValidPartial(shape, raw) ?? {}
  return { result, complete: validateOutcome(shape, result).valid }
}

/** The outcome at the end of the call: what was said, what follows from the call itself, and what is missing. */
export function finalOutcome(shape: DialogueAgent['outcomeShape'], slots: readonly Slot[], facts: GatheredFacts): DialogueOutcome {
  if (!shape) return { result: null, complete: true }
  const raw: Record<string, unknown> = {}
  for (const slot of slots) {
    const id = slotId(slot)
    let value: unknown = facts.values.has(id) ? facts.values.get(id) : inferredValue(slot, facts)
    // A field asked and left unanswered is empty where the shape says empty means "not given".
    if (value === undefined && slot.emptyAllowed && slot.required && facts.asked.has(id)) value = slot.shape.type === 'array' ? [] : ''
    if (value !== undefined) place(raw, slot, value)
  }
  dropIncompleteOptionalObjects(shape, raw)
  const result = bestValidPartial(shape, raw) ?? {}
  const { valid, errors } = validateOutcome(shape, result)
  if (shape.type !== 'object' || !shape.properties || Object.keys(shape.properties).length === 0) return { result, complete: valid }
  const problems = errors.map((error) => error.replace(/^\/ must have required property '(.+)'$/, 'missing required field $1'))
  return valid ? { result, complete: true } : { result, complete: false, problems }
}

/** The value, coerced, at the slot's path in `raw` (nothing when it cannot take the field's type). */
function place(raw: Record<string, unknown>, slot: Slot, value: unknown): void {
  const coerced = coerce(slot, value)
  if (coerced === undefined) return
  let node = raw
  for (const key of slot.path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>
  node[slot.key] = coerced
}

/** A field the call itself answers: reached, the call's status, a neutral sentiment, a category that follows from a score. */
function inferredValue(slot: Slot, facts: GatheredFacts): unknown {
  const members = slot.members.filter((member): member is string => typeof member === 'string')
  const pick = (pattern: RegExp) => members.find((member) => pattern.test(member))
  switch (slot.inferred) {
    case 'reached':
      return facts.callerTurns > 0
    case 'call-status':
      if (facts.confirmed) return pick(/confirm|complet|logged|created|promise|interview_requested|^request/) ?? members[0]
      if (facts.endedEarly || facts.callerTurns > 0) return pick(/incomplete|partial|no_commitment|hung_up/)
      return undefined
    case 'sentiment':
      return pick(/^neutral$/) ?? members[Math.floor((members.length - 1) / 2)]
    case 'derived': {
      // NPS categories follow from the score the caller gave.
      const score = [...facts.values.entries()].find(([id]) => /nps/i.test(id))?.[1]
      if (typeof score === 'number' && members.includes('promoter')) return score >= 9 ? 'promoter' : score >= 7 ? 'passive' : 'detractor'
      return pick(/not_answered|unknown|none/)
    }
    default:
      return undefined
  }
}

/** A value in the field's declared type, or undefined when it cannot be one. */
function coerce(slot: Slot, value: unknown): unknown {
  const type = slot.shape.type
  if (type === 'array') {
    const items: unknown[] = Array.isArray(value) ? value : [value]
    const itemType = slot.shape.items?.type
    return items.map((item) => (itemType === 'string' ? String(item) : itemType === 'integer' ? Math.round(Number(item)) : item))
  }
  if (type === 'string') return typeof value === 'string' ? value : String(value)
  if (type === 'integer' || type === 'number') {
    const number = typeof value === 'number' ? value : Number(String(value).replace(/[^\d.-]/g, ''))
    if (!Number.isFinite(number)) return undefined
    return type === 'integer' ? Math.round(number) : number
  }
  if (type === 'boolean') return typeof value === 'boolean' ? value : undefined
  return value
}

/** Optional nested objects that lack their own required fields are left out rather than made invalid. */
function dropIncompleteOptionalObjects(shape: DialogueAgent['outcomeShape'], value: Record<string, unknown>): void {
  if (!shape?.properties) return
  const required = new Set(shape.required ?? [])
  for (const [key, child] of Object.entries(shape.properties)) {
    const nested = value[key]
    if (child.type !== 'object' || typeof nested !== 'object' || nested === null) continue
    dropIncompleteOptionalObjects(child, nested as Record<string, unknown>)
    const missing = (child.required ?? []).some((name) => !(name in nested))
    if (missing && !required.has(key)) delete value[key]
  }
}
