import type { ReactNode } from 'react'
import { TextField } from './field'

export interface CodeTextareaProps {
  id: string
  value: string
  rows: number
  /** The ids of what describes the field (its hint, its errors); empty parts are dropped. */
  describedBy?: string
  invalid?: boolean
  placeholder?: string
  onChange(value: string): void
}

/**
 * A field of JSON or other code: monospaced, left to right in either direction of writing (an
 * Arabic page would mirror its braces), and never spell-checked.
 */
export function CodeTextarea({ id, value, rows, describedBy, invalid, placeholder, onChange }: CodeTextareaProps) {
  return (
    <textarea
      id={id}
      className="input mono"
      dir="ltr"
      rows={rows}
      spellCheck={false}
      value={value}
      placeholder={placeholder}
      aria-describedby={describedBy || undefined}
      aria-invalid={invalid || undefined}
      onChange={(event) => onChange(event.target.value)}
    />
  )
}

interface CodeFieldProps {
  label: string
  hint?: ReactNode
  errors?: readonly string[]
  rows: number
  value: string
  onChange(value: string): void
}

/** A labelled field of JSON or other code, written as a CodeTextarea is: monospaced, left to right, not spell-checked. */
export function CodeField(props: CodeFieldProps) {
  return <TextField {...props} inputClassName="mono" dir="ltr" spellCheck={false} />
}
