import { useT } from '../../i18n/use-t'
import { checkOutcomeShapeText } from '../../lib/outcome-shape-text'

const EXAMPLE = `{
  "type": "object",
  "properties": {
    "resolved": { "type": "boolean" },
    "summary": { "type": "string" }
  },
  "required": ["resolved"]
}`

/** The outcome result shape as JSON, checked with the service's own schema as the operator types. */
export function OutcomeShapeEditor({ id, value, onChange, describedBy }: { id: string; value: string; onChange(text: string): void; describedBy?: string }) {
  const t = useT()
  const check = checkOutcomeShapeText(value)
  const statusId = `${id}-check`
  return (
    <div className="shape-editor">
      <textarea
        id={id}
        className="input mono"
        dir="ltr"
        rows={10}
        spellCheck={false}
        value={value}
        placeholder={EXAMPLE}
        aria-invalid={!check.ok || undefined}
        aria-describedby={[describedBy, statusId].filter(Boolean).join(' ')}
        onChange={(event) => onChange(event.target.value)}
      />
      <div id={statusId} className={check.ok ? 'shape-status ok' : 'shape-status bad'} aria-live="polite">
        {check.ok ? (
          check.shape === null ? (
            t('agent.shapeNone')
          ) : (
            t('agent.shapeValid')
          )
        ) : (
          <>
            <strong>{check.path ? t('agent.shapeErrorAt', { path: check.path }) : t('agent.shapeErrorJson')}</strong> <span dir="ltr">{check.message}</span>
          </>
        )}
      </div>
      {value.trim() === '' ? (
        <button type="button" className="button ghost" onClick={() => onChange(EXAMPLE)}>
          {t('agent.shapeInsertExample')}
        </button>
      ) : null}
    </div>
  )
}
