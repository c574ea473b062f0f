import Ajv, { type ValidateFunction } from 'ajv'
import type { OutcomeShape } from '../../shared/api/outcome-shape'

/**
 * Outcome results checked against their agent's shape with ajv, and cut down to what the shape
 * accepts when a result is only partly right. Shared by the offline and the LLM dialogue engines.
 */

// The shape subset is plain draft-07 JSON Schema; descriptions and the like are not ajv's concern.
const ajv = new Ajv({ allErrors: true, strict: false })
const compiled = new WeakMap<OutcomeShape, ValidateFunction>()

function validatorFor(shape: OutcomeShape): ValidateFunction {
  let validate = compiled.get(shape)
  if (!validate) {
    validate = ajv.compile(shape)
    compiled.set(shape, validate)
  }
  return validate
}

/** Whether `value` fits `shape`, with ajv's messages ("/partySize must be integer"). */
export function validateOutcome(shape: OutcomeShape, value: unknown): { valid: boolean; errors: string[] } {
  const validate = validatorFor(shape)
  const valid = validate(value)
  return { valid, errors: valid ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`.trim()) }
}

function fitsType(shape: OutcomeShape, value: unknown): boolean {
  switch (shape.type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
    case 'array':
      return Array.isArray(value)
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
  }
}

/**
 * The most of `value` that fits `shape`: properties and array items that fail are dropped, the
 * rest kept (recursively); undefined when the value itself has the wrong type or is not one of
 * the enum's members. Required properties that are missing cannot be invented, so the result is
 * valid except for those: callers list them as problems.
 */
export function bestValidPartial(shape: OutcomeShape, value: unknown): unknown {
  if (!fitsType(shape, value)) return undefined
  if (shape.enum && !shape.enum.some((member) => member === value)) return undefined
  if (shape.type === 'array') {
    if (!shape.items) return value
    const items = shape.items
    return (value as unknown[]).map((item) => bestValidPartial(items, item)).filter((item) => item !== undefined)
  }
  if (shape.type === 'object') {
    const result: Record<string, unknown> = {}
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      const childShape = shape.properties?.[key]
      // Properties the shape does not declare are allowed by it: kept as they are.
      const kept = childShape ? bestValidPartial(childShape, child) : child
      if (kept !== undefined) result[key] = kept
    }
    return result
  }
  return value
}
