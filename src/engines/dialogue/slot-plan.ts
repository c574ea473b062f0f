import type { OutcomeShape } from '../../shared/api/outcome-shape'

/**
 * An agent's outcome shape turned into the fields a call asks for, in the order it asks them:
 * required ones first, then optional ones that say what they are (a description or an enum).
 * Nested objects are flattened into their leaves (`unitPreferences.bedrooms`); arrays of
 * strings become list fields. Some fields are never asked because the caller cannot answer
 * them ("how the call ended", "the caller's mood", "was the caller reached"): the engine fills
 * them itself when the outcome is written.
 */

export type SlotKind =
  'name' | 'email' | 'phone' | 'date' | 'time' | 'datetime' | 'integer' | 'number' | 'boolean' | 'enum' | 'text' | 'list' | 'enum-list'

/** Fields the engine fills itself rather than asks. */
export type InferredRole = 'call-status' | 'sentiment' | 'reached' | 'derived'

export interface Slot {
  /** Property names from the root: ['unitPreferences', 'bedrooms']. */
  path: string[]
  /** The last property name. */
  key: string
  shape: OutcomeShape
  kind: SlotKind
  /** Required at every level from the root. */
  required: boolean
  /** The key in words: preferredDate → "preferred date". */
  label: string
  /** Enum members, for enum and enum-list fields. */
  members: (string | number | boolean | null)[]
  /** Set for fields the engine fills itself. */
  inferred?: InferredRole
  /** The description allows an empty string (or empty list) when the caller gives nothing. */
  emptyAllowed: boolean
}

/** `preferredDate` → "preferred date", `new_booking` → "new booking", `npsScore` → "nps score". */
export function humanise(key: string): string {
  return key
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
}

const CALL_STATUS = /how the call ended|how far the survey got|ما انتهت إليه المكالمة/i
const SENTIMENT = /\bmood\b|sentiment|حالة (العميل|النزيل)|تقييم جدية/i
const DERIVED = /derived from/i
const REACHED_KEY = /reached/i

function inferredRole(key: string, shape: OutcomeShape): InferredRole | undefined {
  const description = shape.description ?? ''
  if (shape.type === 'boolean' && REACHED_KEY.test(key)) return 'reached'
  if (shape.type !== 'string' || !shape.enum) return undefined
  if (CALL_STATUS.test(description)) return 'call-status'
  if (SENTIMENT.test(description) || /sentiment/i.test(key)) return 'sentiment'
  if (DERIVED.test(description)) return 'derived'
  return undefined
}

function classify(key: string, shape: OutcomeShape): SlotKind {
  const words = `${humanise(key)} ${shape.description ?? ''}`.toLowerCase()
  if (shape.type === 'array') return shape.items?.enum ? 'enum-list' : 'list'
  if (shape.enum) return 'enum'
  if (shape.type === 'boolean') return 'boolean'
  if (shape.type === 'integer') return 'integer'
  if (shape.type === 'number') return 'number'
  const keyWords = humanise(key).split(' ')
  if (keyWords.includes('email') || /\bemail\b|البريد الإلكتروني/.test(words)) return 'email'
  if (keyWords.some((w) => w === 'phone' || w === 'mobile') || /رقم (الهاتف|الجوال|الموبايل)/.test(words)) return 'phone'
  if (keyWords.at(-1) === 'name' || /^(full )?name$/.test(humanise(key))) return 'name'
  const hasDate = keyWords.includes('date') || /yyyy-mm-dd/.test(words)
  const hasTime = keyWords.at(-1) === 'time' || /hh:mm/.test(words)
  if (hasDate && hasTime) return 'datetime'
  if (keyWords.includes('date') && keyWords.includes('time')) return 'datetime'
  if (hasDate) return 'date'
  if (hasTime) return 'time'
  return 'text'
}

/** Whether an empty string or list is an answer the shape's author expects. */
function allowsEmpty(shape: OutcomeShape): boolean {
  if (shape.type === 'array') return true
  return /empty string|نص فارغ|if none|if not given/i.test(shape.description ?? '')
}

/** The fields of a shape, in asking order. Empty when the shape is null, not an object, or has no properties. */
export function planSlots(shape: OutcomeShape | null): Slot[] {
  if (!shape || shape.type !== 'object' || !shape.properties) return []
  const all: Slot[] = []
  const visit = (node: OutcomeShape, path: string[], parentRequired: boolean) => {
    const required = new Set(node.required ?? [])
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const childPath = [...path, key]
      const isRequired = parentRequired && required.has(key)
      if (child.type === 'object') {
        // An optional object without a description says nothing worth asking about.
        if (isRequired || child.description) visit(child, childPath, isRequired)
        continue
      }
      if (child.type === 'null') continue
      if (child.type === 'array' && !['string', 'number', 'integer'].includes(child.items?.type ?? '')) continue
      if (!isRequired && !child.description && !child.enum) continue
      const kind = classify(key, child)
      all.push({
        path: childPath,
        key,
        shape: child,
        kind,
        required: isRequired,
        label: humanise(key),
        members: (kind === 'enum-list' ? child.items?.enum : child.enum) ?? [],
        inferred: inferredRole(key, child),
        emptyAllowed: allowsEmpty(child),
      })
    }
  }
  visit(shape, [], true)
  // Stable: required first, each group in the shape's own order.
  return [...all.filter((slot) => slot.required), ...all.filter((slot) => !slot.required)]
}

/** The slot's key path as one string: "unitPreferences.bedrooms". */
export const slotId = (slot: Slot) => slot.path.join('.')
