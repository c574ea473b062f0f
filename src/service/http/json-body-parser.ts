import secureJson from 'secure-json-parse'
import { validationSummary } from '../ops/validation-details'
import { RequestError } from './request-error'

/** Deeper bodies are refused before validation, so no schema ever recurses without bound. */
export const MAX_BODY_DEPTH = 64

/** In unicode mode a surrogate pair is one code point, so this matches lone surrogates only. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u

/**
 * One walk over the parsed body for what JSON.parse lets through but we refuse: nesting
 * beyond MAX_BODY_DEPTH, and lone UTF-16 surrogates (`"\ud800"`), which SQLite would store
 * as replacement characters, so the text read back would differ from the text accepted.
 */
function findBodyProblem(value: unknown): { path: string; message: string } | undefined {
  const pending: [unknown, number, string][] = [[value, 1, 'body']]
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth, path] = next
    if (typeof node === 'string') {
      if (LONE_SURROGATE.test(node)) return { path, message: 'Text holds a lone UTF-16 surrogate' }
      continue
    }
    if (typeof node !== 'object' || node === null) continue
    if (depth > MAX_BODY_DEPTH) return { path: 'body', message: `Nested deeper than ${MAX_BODY_DEPTH} levels` }
    for (const [key, child] of Object.entries(node)) {
      if (LONE_SURROGATE.test(key)) return { path, message: 'A key holds a lone UTF-16 surrogate' }
      pending.push([child, depth + 1, `${path}.${key}`])
    }
  }
  return undefined
}

/**
 * JSON is UTF-8 (RFC 8259). Fatal, so that bytes that are not UTF-8 are refused rather than
 * silently stored as U+FFFD; a leading byte order mark is dropped.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Parses a JSON body. Bytes that are not UTF-8, malformed JSON and `__proto__` /
 * `constructor.prototype` keys are an INVALID_JSON error; an empty body counts as no body,
 * so optional bodies may be left out.
 */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string
  try {
    text = UTF8.decode(bytes)
  } catch {
    throw new RequestError('INVALID_JSON', 'The request body is not valid UTF-8', [
      { path: 'body', message: 'Invalid UTF-8 byte sequence' },
    ])
  }
  if (text.trim() === '') return undefined
  let value: unknown
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' })
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'it holds a forbidden __proto__ or constructor.prototype key'
    throw new RequestError('INVALID_JSON', `The request body is not valid JSON: ${reason}`)
  }
  const problem = findBodyProblem(value)
  if (problem) throw new RequestError('VALIDATION_ERROR', validationSummary('Invalid request', [problem]), [problem])
  return value
}
