import type { ErrorDetail } from '../../../shared/api/errors'

/** Where an error detail points, without its transport prefix: `body.x`, `changes.x`, `input.x` all name `x`. */
export function fieldPathOf(path: string): string {
  if (path === 'input' || path === 'body' || path === 'changes') return ''
  return path.replace(/^(body|query|params|input)\./, '').replace(/^changes\./, '')
}

/**
 * Groups error details by the top-level field they concern (`webhookAuth.authSecret` -> `webhookAuth`),
 * so each message can be shown beside its field. Details with no field go under ''.
 */
export function fieldErrorsOf(details: readonly ErrorDetail[]): Record<string, string[]> {
  const byField: Record<string, string[]> = {}
  for (const detail of details) {
    const path = fieldPathOf(detail.path)
    const field = path.split('.')[0] ?? ''
    const rest = path.slice(field.length + 1)
    const message = rest ? `${rest}: ${detail.message}` : detail.message
    ;(byField[field] ??= []).push(message)
  }
  return byField
}
