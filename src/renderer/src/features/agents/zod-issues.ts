import type { z } from 'zod'

/** Each issue of a refused value, where it is (`scenarios.0.caller.say`) and why, one line each. */
export function zodIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.map(String).join('.')}: ${issue.message}`))
}
