/**
 * After a refused save: scrolls to the first field in error (in reading order) and puts the
 * focus in its control, so the operator lands on what to fix.
 */
export function focusFirstError(container: HTMLElement | null): void {
  if (!container) return
  const error = container.querySelector<HTMLElement>('.field-error')
  if (!error) return
  const group = error.closest<HTMLElement>('.field, fieldset') ?? error
  const control = group.querySelector<HTMLElement>('[aria-invalid="true"], input:not([type="hidden"]), select, textarea, button')
  group.scrollIntoView({ block: 'center' })
  control?.focus({ preventScroll: true })
}
