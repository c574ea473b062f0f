import { useT } from '../../i18n/use-t'
import { checkOutcomeShapeText } from '../../lib/outcome-shape-text'
import { readableAt } from '../../lib/readable-errors'
import { useAppStore } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'
import { CodeTextarea } from '../../ui/code-textarea'

const EXAMPLE = `{
  "type": "object",
  "properties": {
    "resolved": { "type": "boolean" },
    "summary": { "type": "string" }
  },
  "required": ["resolved"]
}`

/** The outcome result shape as JSON, checked with the service's own schema as the operator types. */
export function OutcomeShapeEditor({
  id,
  value,
  onChange,
  describedBy,
}: {
  id: string
  value: string
  onChange(text: string): void
  describedBy?: string
}) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const check = checkOutcomeShapeText(value)
  const statusId = `${id}-check`
  return (
    <div className="shape-editor">
      <CodeTextarea
        id={id}
        rows={10}
        value={value}
        placeholder={EXAMPLE}
        invalid={!check.ok}
        describedBy={[describedBy, statusId].filter(Boolean).join(' ')}
        onChange={onChange}
      />
      <div id={statusId} className={check.ok ? 'shape-status ok' : 'shape-status bad'} aria-live="polite">
        {check.ok ? (check.shape === null ? t('agent.shapeNone') : t('agent.shapeValid')) : readableAt(check.path, check.message, locale)}
      </div>
      {value.trim() === '' ? (
        <button type="button" className="button ghost" onClick={() => onChange(EXAMPLE)}>
          {t('agent.shapeInsertExample')}
        </button>
      ) : null}
    </div>
  )
}
