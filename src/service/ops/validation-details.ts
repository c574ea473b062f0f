import type { ErrorDetail } from '../../shared/api/errors'

/**
 * One zod issue, as either transport meets it: zod's own (IPC validates with the contract's
 * schemas) or rebuilt from the validation error Fastify's zod provider throws (HTTP).
 */
export interface ValidationIssue {
  code: string
  path: readonly PropertyKey[]
  message: string
  /** `unrecognized_keys`: the fields the schema does not know. */
  keys?: readonly string[]
}

/** `body.x.y`, `x.y`, or `root` alone for the value itself. */
export function joinPath(root: string | undefined, path: readonly PropertyKey[] | string): string {
  const rest = typeof path === 'string' ? path : path.map(String).join('.')
  return [root, rest].filter(Boolean).join('.') || 'input'
}

const isMissing = (issue: ValidationIssue) =>
  issue.code === 'invalid_type' && issue.path.length === 0 && /received (undefined|null)/.test(issue.message)

/**
 * zod's issues as the contract's error details, the same on /v1 and over IPC. `root` says
 * where the validated value sits in the caller's words: `body`, `query` or `params` for HTTP,
 * nothing for an operation's input (paths are then relative to it, and the input itself is
 * `input`). Each unknown field is a detail of its own, `Unknown field "x"`; a missing body is
 * `A JSON object body is required`, any other missing root `Required`.
 */
export function validationDetails(issues: readonly ValidationIssue[], root?: string): ErrorDetail[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      return issue.keys.map((key) => ({ path: joinPath(root, [...issue.path, key]), message: `Unknown field "${key}"` }))
    }
    if (isMissing(issue)) return [{ path: joinPath(root, []), message: root === 'body' ? 'A JSON object body is required' : 'Required' }]
    return [{ path: joinPath(root, issue.path), message: issue.message }]
  })
}

/** The one-line message of a refusal: `<lead>: <first path>: <first message> (and n more)`. */
export function validationSummary(lead: string, details: readonly ErrorDetail[]): string {
  const [first] = details
  if (!first) return lead
  return `${lead}: ${first.path}: ${first.message}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}`
}
