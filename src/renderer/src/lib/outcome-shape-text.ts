import { OutcomeResponseShapeSchema, type OutcomeShape } from '../../../shared/api/outcome-shape'

export type OutcomeShapeCheck = { ok: true; shape: OutcomeShape | null } | { ok: false; path: string; message: string }

/**
 * Checks the text of the outcome-shape editor as the operator types, with the very schema the
 * service uses. Empty text means "no shape" (null). The path names where the problem is, as
 * `properties.name.type`; an empty path is the whole document.
 */
export function checkOutcomeShapeText(text: string): OutcomeShapeCheck {
  if (text.trim() === '') return { ok: true, shape: null }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, path: '', message: error instanceof Error ? error.message : String(error) }
  }
  const result = OutcomeResponseShapeSchema.safeParse(value)
  if (result.success) return { ok: true, shape: result.data }
  // zod reports at least one issue on failure; its first is the one the editor points at.
  const issue = result.error.issues[0]
  return { ok: false, path: issue?.path.map(String).join('.') ?? '', message: issue?.message ?? result.error.message }
}

/** Pretty JSON for the editor; '' for no shape. */
export function outcomeShapeToText(shape: unknown): string {
  return shape === null || shape === undefined ? '' : JSON.stringify(shape, null, 2)
}
