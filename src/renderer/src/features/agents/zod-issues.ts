import type { z } from 'zod'

type Issue = z.core.$ZodIssue

const pathOf = (path: readonly PropertyKey[]) => path.map(String).join('.')

/** One issue in words; a value that fits none of a union's shapes says what each shape wanted. */
function describe(issue: Issue, prefix: readonly PropertyKey[]): string {
  const path = [...prefix, ...issue.path]
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const shapes = issue.errors.map((branch) => branch.map((inner) => describe(inner, path)).join('; '))
    return `${path.length === 0 ? '' : `${pathOf(path)}: `}${issue.message}, either ${shapes.join(', or ')}`
  }
  return path.length === 0 ? issue.message : `${pathOf(path)}: ${issue.message}`
}

/** Each issue of a refused value, where it is (`scenarios.0.caller.say`) and why, one line each. */
export function zodIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => describe(issue, []))
}
