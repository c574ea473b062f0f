import Ajv, { type ValidateFunction } from 'ajv'
import type { OutcomeShape } from '../../shared/api/outcome-shape'

/*
 * An outcome checked against the agent's `outcomeShape`. The shape is already a strict subset of
 * JSON Schema (type, enum, properties, required, items, description), so ajv reads it as it is:
 * no type coercion ("42" is not an integer), every problem reported. Properties the shape does not
 * declare are allowed, as JSON Schema allows them; `bestValidPartial` leaves them out.
 */

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false })
const compiled = new WeakMap<OutcomeShape, ValidateFunction>()

function validatorFor(shape: OutcomeShape): ValidateFunction {
  let validate = compiled.get(shape)
  if (!validate) {
    validate = ajv.compile(shape)
    compiled.set(shape, validate)
  }
  return validate
}

/** Whether `value` fits the shape, and if not each problem as `<path> <what is wrong>` (path `/` for the whole value). */
export function validateOutcome(shape: OutcomeShape, value: unknown): { valid: boolean; errors: string[] } {
  const validate = validatorFor(shape)
  if (validate(value)) return { valid: true, errors: [] }
  const errors = (validate.errors ?? []).map((error) => {
    const allowed =
      error.keyword === 'enum'
        ? `: ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
        : ''
    return `${error.instancePath || '/'} ${error.message ?? 'is invalid'}${allowed}`
  })
  return { valid: false, errors: [...new Set(errors)] }
}

/**
 * What can be kept of `value`: every part that fits its place in the shape, the rest dropped
 * (an object keeps its declared properties that fit, even when required ones are then missing;
 * an array keeps the items that fit). When nothing fits: `{}` for an object shape, `[]` for an
 * array shape, else null.
 */
export function bestValidPartial(shape: OutcomeShape, value: unknown): unknown {
  const kept = keep(shape, value)
  if (kept !== undefined) return kept
  if (shape.type === 'object') return {}
  if (shape.type === 'array') return []
  return null
}

/** The part of `value` that fits `shape`, or undefined when none does. */
function keep(shape: OutcomeShape, value: unknown): unknown {
  let kept: unknown
  if (shape.type === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
    const source = value as Record<string, unknown>
    const result: Record<string, unknown> = {}
    for (const [name, child] of Object.entries(shape.properties ?? {})) {
      if (!Object.hasOwn(source, name)) continue
      const part = keep(child, source[name])
      if (part !== undefined) result[name] = part
    }
    kept = result
  } else if (shape.type === 'array') {
    if (!Array.isArray(value)) return undefined
    kept = shape.items ? value.map((item) => keep(shape.items!, item)).filter((item) => item !== undefined) : value
  } else {
    kept = fitsScalar(shape.type, value) ? value : undefined
  }
  if (kept === undefined) return undefined
  if (shape.enum && !shape.enum.some((member) => member === kept)) return undefined
  return kept
}

function fitsScalar(type: OutcomeShape['type'], value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'null':
      return value === null
    default:
      return false
  }
}
