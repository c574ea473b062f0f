/** How long a refused form waits for its errors to be drawn before it gives up on moving the focus. */
const ERRORS_DRAWN_WITHIN_MS = 1_000

/**
 * After a refused save: scrolls to the first field in error (in reading order) and puts the
 * focus in its control, so the operator lands on what to fix. Callers ask in the frame after
 * setting the errors; a busy renderer may draw that frame before React has committed them, so
 * when none is shown yet it waits (briefly) for the first to appear.
 */
export function focusFirstError(container: HTMLElement | null): void {
  if (!container || focusIn(container)) return
  const observer = new MutationObserver(() => {
    if (!focusIn(container)) return
    observer.disconnect()
    clearTimeout(giveUp)
  })
  observer.observe(container, { childList: true, subtree: true, characterData: true })
  const giveUp = setTimeout(() => observer.disconnect(), ERRORS_DRAWN_WITHIN_MS)
}

/** Focuses the first field in error; false when the container shows none. */
function focusIn(container: HTMLElement): boolean {
  const error = container.querySelector<HTMLElement>('.field-error')
  if (!error) return false
  const group = error.closest<HTMLElement>('.field, fieldset') ?? error
  const control = group.querySelector<HTMLElement>('[aria-invalid="true"], input:not([type="hidden"]), select, textarea, button')
  group.scrollIntoView({ block: 'center' })
  control?.focus({ preventScroll: true })
  return true
}
