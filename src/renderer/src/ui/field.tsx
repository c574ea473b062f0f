import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes } from 'react'

interface FieldProps {
  /** Words, or markup (a placeholder's `{{name}}` in code). */
  label: ReactNode
  /** Shown under the control; also its accessible description. */
  hint?: ReactNode
  /** The hint is a warning (shown in the warning colour), not an error: the form can still be sent. */
  hintWarns?: boolean
  errors?: readonly string[]
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode
  className?: string
}

/**
 * A label, its control, a hint and the errors that concern it, wired for assistive technology.
 * For a control of its own (a voice picker, a code editor, a file); a plain text field or
 * select is a TextField or a SelectField.
 */
export function Field({ label, hint, hintWarns, errors, children, className }: FieldProps) {
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
        <div id={hintId} className={hintWarns ? 'field-hint warn' : 'field-hint'}>
          {hint}
        </div>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  )
}

/** Errors for a group of controls (a fieldset) rather than one input; `id` lets a control name them. */
export function FieldErrors({ errors, id }: { errors?: readonly string[]; id?: string }) {
  if (!errors || errors.length === 0) return null
  return (
    <div id={id} className="field-error" role="alert">
      {errors.map((error, index) => (
        <div key={index}>{error}</div>
      ))}
    </div>
  )
}

/** What every labelled control of a form says about itself. */
interface LabelledProps {
  label: ReactNode
  hint?: ReactNode
  hintWarns?: boolean
  errors?: readonly string[]
  /** Extra class names of the control, after `input` (`mono`, `narrow`). */
  inputClassName?: string
  /** Extra class names of the field around it (`grow`). */
  className?: string
  /** Said to assistive technology (`aria-required`); the forms show no mark of their own. */
  required?: boolean
}

/** The attributes a form may give its input beyond the ones the field wires itself. */
type NativeInputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'value' | 'onChange' | 'dir' | 'className' | 'required' | 'aria-describedby' | 'aria-invalid' | 'aria-required' | 'children'
>

interface TextFieldProps extends LabelledProps, NativeInputProps {
  value: string
  onChange(value: string): void
  /**
   * `auto` (the default) for what the operator writes in either language: an Arabic name reads
   * right to left in an English page and the other way round. `ltr` for URLs, ids, numbers and
   * keys, which an Arabic page would otherwise mirror. `inherit` takes the page's direction
   * (a number, a passphrase that shows only dots).
   */
  dir?: 'auto' | 'ltr' | 'inherit'
  /** Rows make it a textarea of that height. */
  rows?: number
}

const classOf = (extra: string | undefined) => (extra ? `input ${extra}` : 'input')

/** A labelled text input (or textarea, with `rows`), its hint and errors wired by `aria-describedby`. */
export function TextField({
  label,
  hint,
  hintWarns,
  errors,
  inputClassName,
  className,
  required,
  value,
  onChange,
  dir = 'auto',
  rows,
  ...native
}: TextFieldProps) {
  return (
    <Field label={label} hint={hint} hintWarns={hintWarns} errors={errors} className={className}>
      {({ id, describedBy, invalid }) => {
        const wired = {
          id,
          className: classOf(inputClassName),
          dir: dir === 'inherit' ? undefined : dir,
          value,
          'aria-describedby': describedBy,
          'aria-invalid': invalid || undefined,
          'aria-required': required || undefined,
        }
        return rows === undefined ? (
          <input {...native} {...wired} onChange={(event) => onChange(event.target.value)} />
        ) : (
          // The input attributes a textarea shares (maxLength, placeholder, spellCheck, disabled).
          <textarea
            {...(native as TextareaHTMLAttributes<HTMLTextAreaElement>)}
            {...wired}
            rows={rows}
            onChange={(event) => onChange(event.target.value)}
          />
        )
      }}
    </Field>
  )
}

interface SelectFieldProps extends LabelledProps {
  value: string
  onChange(value: string): void
  /** Left unset, the select takes the page's direction; `ltr` for codes. */
  dir?: 'ltr'
  disabled?: boolean
  /** The options (and option groups). */
  children: ReactNode
}

/** A labelled select, its hint and errors wired by `aria-describedby`. */
export function SelectField({
  label,
  hint,
  errors,
  inputClassName,
  className,
  required,
  value,
  onChange,
  dir,
  disabled,
  children,
}: SelectFieldProps) {
  return (
    <Field label={label} hint={hint} errors={errors} className={className}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          className={classOf(inputClassName)}
          dir={dir}
          value={value}
          disabled={disabled}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          aria-required={required || undefined}
          onChange={(event) => onChange(event.target.value)}
        >
          {children}
        </select>
      )}
    </Field>
  )
}

interface FilterSelectProps {
  label: string
  value: string
  onChange(value: string): void
  children: ReactNode
}

/** A list's filter: a select with its label on one line, among the other filters of a toolbar. */
export function FilterSelect({ label, value, onChange, children }: FilterSelectProps) {
  return (
    <label className="inline-field">
      <span>{label}</span>
      <select className="input" value={value} onChange={(event) => onChange(event.target.value)}>
        {children}
      </select>
    </label>
  )
}

interface CheckProps {
  label: ReactNode
  checked: boolean
  onChange(checked: boolean): void
  /** A radio button of the group `name`; a checkbox without. */
  radio?: { name: string; value?: string }
}

/** A checkbox (or radio button) with its label beside it, the whole line clickable. */
export function Check({ label, checked, onChange, radio }: CheckProps) {
  return (
    <label className="check">
      <input
        type={radio ? 'radio' : 'checkbox'}
        name={radio?.name}
        value={radio?.value}
        checked={checked}
        onChange={(event) => onChange(radio ? true : event.target.checked)}
      />
      <span>{label}</span>
    </label>
  )
}

interface FileFieldProps extends Omit<LabelledProps, 'inputClassName' | 'required'> {
  /** The kinds of file the picker offers (`audio/*,video/*`). */
  accept: string
  disabled?: boolean
  /** The input itself, for the caller to clear it once the file is sent. */
  inputRef?: Ref<HTMLInputElement>
  onChange(file: File | null): void
}

/** A labelled file picker, its hint and errors wired by `aria-describedby`. */
export function FileField({ label, hint, errors, className, accept, disabled, inputRef, onChange }: FileFieldProps) {
  return (
    <Field label={label} hint={hint} errors={errors} className={className}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          ref={inputRef}
          className="input"
          type="file"
          accept={accept}
          disabled={disabled}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onChange={(event) => onChange(event.target.files?.[0] ?? null)}
        />
      )}
    </Field>
  )
}

/** The options of a select, one a value, each said as `label` says it (the value itself by default). */
export function Options({ values, label }: { values: readonly string[]; label?: (value: string) => string }) {
  return values.map((value) => (
    <option key={value} value={value}>
      {label ? label(value) : value}
    </option>
  ))
}

/** The fields of a draft that take any text. */
type TextKeys<Draft> = { [K in keyof Draft]: string extends Draft[K] ? K : never }[keyof Draft]

/**
 * The value, the change and the errors of a draft's text fields, for TextFields:
 * `<TextField label={…} {...bind('webhookUrl')} />`.
 */
export function textBinder<Draft>(
  draft: Draft,
  update: (key: TextKeys<Draft>, value: string) => void,
  errorsOf: (key: TextKeys<Draft>) => readonly string[] | undefined,
) {
  return (key: TextKeys<Draft>) => ({ value: draft[key] as string, onChange: (value: string) => update(key, value), errors: errorsOf(key) })
}
