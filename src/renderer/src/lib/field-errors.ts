import type { ErrorDetail } from '../../../shared/api/errors'
import type { UiLocale } from '../i18n/dictionary'
import { readableAt } from './readable-errors'

/** Where an error detail points, without its transport prefix: `body.x`, `changes.x`, `input.x` all name `x`. */
export function fieldPathOf(path: string): string {
  if (path === 'input' || path === 'body' || path === 'changes') return ''
  return path.replace(/^(body|query|params|input)\./, '').replace(/^changes\./, '')
}

/**
 * Groups error details by the top-level field they concern (`webhookAuth.authSecret` -> `webhookAuth`),
 * so each message can be shown beside its field, as a sentence for people in the UI's language
 * (never zod's wording). Details with no field go under ''.
 */
export function fieldErrorsOf(details: readonly ErrorDetail[], locale: UiLocale): Record<string, string[]> {
  const byField: Record<string, string[]> = {}
  for (const detail of details) {
    const path = fieldPathOf(detail.path)
    const field = path.split('.')[0] ?? ''
    const rest = path.slice(field.length + 1)
    // A bad key of a record is a placeholder name only in params (elsewhere: an outcome property's name).
    const message = detail.message === 'Invalid key in record' && field !== 'params' ? 'Invalid input' : detail.message
    ;(byField[field] ??= []).push(readableAt(rest, message, locale))
  }
  return byField
}

/**
 * The same messages on one line, each after its field's label (`Name: This cannot be empty.`),
 * for forms that show their refusals together rather than beside each field.
 */
export function fieldErrorLinesOf(details: readonly ErrorDetail[], locale: UiLocale, labels: Record<string, string>): string[] {
  return Object.entries(fieldErrorsOf(details, locale)).flatMap(([field, messages]) =>
    messages.map((message) => (labels[field] ? `${labels[field]}: ${message}` : message)),
  )
}
