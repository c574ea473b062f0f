import type { FormHTMLAttributes, Ref } from 'react'

interface SubmitFormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> {
  ref?: Ref<HTMLFormElement>
  /** Runs on Enter or the submit button; the page is never sent (the form only gathers fields). */
  onSubmit(): void
}

/**
 * A form whose submit is handled in the UI: the browser's own submission (a page load) is
 * prevented, then `onSubmit` runs. Every other attribute (`noValidate`, `id`, labels) is the form's.
 */
export function SubmitForm({ onSubmit, children, ...form }: SubmitFormProps) {
  return (
    <form
      {...form}
      onSubmit={(event) => {
        event.preventDefault()
        onSubmit()
      }}
    >
      {children}
    </form>
  )
}
