import { useId, type ReactNode } from 'react'

interface FieldProps {
  label: string
  /** Shown under the control; also its accessible description. */
  hint?: ReactNode
  errors?: readonly string[]
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode
  className?: string
}

/** A label, its control, a hint and the errors that concern it, wired for assistive technology. */
export function Field({ label, hint, errors, children, className }: FieldProps) {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const invalid = (errors?.length ?? 0) > 0
  const describedBy = [hint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, describedBy, invalid })}
      {hint ? (
        <div id={hintId} className="field-hint">
          {hint}
        </div>
      ) : null}
      {invalid ? (
        <div id={errorId} className="field-error" role="alert">
          {errors!.map((error, index) => (
            <div key={index}>{error}</div>
          ))}
        </div>
      ) : null}
    </div>
  )
}

/** Errors for a group of controls (a fieldset) rather than one input. */
export function FieldErrors({ errors }: { errors?: readonly string[] }) {
  if (!errors || errors.length === 0) return null
  return (
    <div className="field-error" role="alert">
      {errors.map((error, index) => (
        <div key={index}>{error}</div>
      ))}
    </div>
  )
}
