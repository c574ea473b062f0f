import secureJson from 'secure-json-parse'
import { ServiceError } from '../ops/service-error'

/** Deeper bodies are refused before validation, so no schema ever recurses without bound. */
export const MAX_BODY_DEPTH = 64

function depthExceeds(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]]
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!
    if (typeof node !== 'object' || node === null) continue
    if (depth > limit) return true
    for (const child of Object.values(node)) pending.push([child, depth + 1])
  }
  return false
}

/**
 * Parses a JSON body. Malformed JSON and `__proto__`/`constructor.prototype` keys are an
 * INVALID_JSON error; an empty body counts as no body, so optional bodies may be left out.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined
  let value: unknown
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' })
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'it holds a forbidden __proto__ or constructor.prototype key'
    throw new ServiceError('INVALID_JSON', `The request body is not valid JSON: ${reason}`)
  }
  if (depthExceeds(value, MAX_BODY_DEPTH)) {
    throw new ServiceError('VALIDATION_ERROR', `The request body is nested deeper than ${MAX_BODY_DEPTH} levels`, [
      { path: 'body', message: `Nested deeper than ${MAX_BODY_DEPTH} levels` },
    ])
  }
  return value
}
