interface RangeFieldsProps {
  /** Days (`date`) or moments to the second (`datetime-local`). */
  type: 'date' | 'datetime-local'
  labels: { from: string; to: string }
  from: string
  to: string
  onChange(end: 'from' | 'to', value: string): void
  /** Said beside the fields while "to" is before "from" (the caller keeps such a range to itself). */
  backwards: string | undefined
  /** The error's element id, unique in the page. */
  errorId: string
}

/** A "from" and a "to" field of a list's filters: each bounds the other's picker, and a backward range is said in place. */
export function RangeFields({ type, labels, from, to, onChange, backwards, errorId }: RangeFieldsProps) {
  return (
    <>
      <label className="inline-field">
        <span>{labels.from}</span>
        <input
          className="input"
          type={type}
          step={type === 'datetime-local' ? 1 : undefined}
          value={from}
          max={to || undefined}
          onChange={(event) => onChange('from', event.target.value)}
        />
      </label>
      <label className="inline-field">
        <span>{labels.to}</span>
        <input
          className="input"
          type={type}
          step={type === 'datetime-local' ? 1 : undefined}
          value={to}
          min={from || undefined}
          aria-invalid={backwards ? true : undefined}
          aria-describedby={backwards ? errorId : undefined}
          onChange={(event) => onChange('to', event.target.value)}
        />
      </label>
      {backwards ? (
        <span id={errorId} className="field-error inline" role="alert">
          {backwards}
        </span>
      ) : null}
    </>
  )
}
