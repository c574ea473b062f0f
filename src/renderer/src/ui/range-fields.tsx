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
  // Each end bounds the other's picker; "to" carries the backward range's error.
  const ends = [
    { end: 'from', value: from, bounds: { max: to || undefined } },
    {
      end: 'to',
      value: to,
      bounds: { min: from || undefined, 'aria-invalid': backwards ? true : undefined, 'aria-describedby': backwards ? errorId : undefined },
    },
  ] as const
  return (
    <>
      {ends.map(({ end, value, bounds }) => (
        <label key={end} className="inline-field">
          <span>{labels[end]}</span>
          <input
            className="input"
            type={type}
            step={type === 'datetime-local' ? 1 : undefined}
            value={value}
            {...bounds}
            onChange={(event) => onChange(end, event.target.value)}
          />
        </label>
      ))}
      {backwards ? (
        <span id={errorId} className="field-error inline" role="alert">
          {backwards}
        </span>
      ) : null}
    </>
  )
}
