import { useT } from '../../i18n/use-t'
import type { ParamRow } from '../../lib/agent-draft'
import { isPlaceholderName } from '../../../../shared/text/placeholders'
import { Icon } from '../../ui/icon'

/** Placeholder values as key/value rows. */
export function ParamsEditor({
  rows,
  onChange,
  describedBy,
}: {
  rows: ParamRow[]
  onChange(rows: ParamRow[]): void
  describedBy?: string
}) {
  const t = useT()
  const update = (index: number, row: Partial<ParamRow>) =>
    onChange(rows.map((current, at) => (at === index ? { ...current, ...row } : current)))
  return (
    <div className="rows-editor" aria-describedby={describedBy}>
      {rows.length === 0 ? <p className="muted">{t('agent.noParams')}</p> : null}
      {rows.map((row, index) => {
        const badName = row.key !== '' && !isPlaceholderName(row.key.trim())
        // An empty value fills nothing: a {{name}} using it stays as written.
        const emptyValue = row.key.trim() !== '' && row.value.trim() === ''
        return (
          <div className="row-edit" key={index}>
            <input
              className="input mono"
              dir="ltr"
              value={row.key}
              aria-label={t('agent.paramName', { n: index + 1 })}
              aria-invalid={badName || undefined}
              placeholder={t('agent.paramNamePlaceholder')}
              onChange={(event) => update(index, { key: event.target.value })}
            />
            <input
              className="input"
              dir="auto"
              value={row.value}
              aria-label={t('agent.paramValue', { name: row.key || String(index + 1) })}
              aria-describedby={emptyValue && !badName ? `param-empty-${index}` : undefined}
              placeholder={t('agent.paramValuePlaceholder')}
              onChange={(event) => update(index, { value: event.target.value })}
            />
            <button
              type="button"
              className="button icon-button ghost"
              aria-label={t('agent.removeParam', { name: row.key || String(index + 1) })}
              onClick={() => onChange(rows.filter((_, at) => at !== index))}
            >
              <Icon name="trash" size={16} />
            </button>
            {badName ? <span className="field-error inline">{t('agent.paramNameRule')}</span> : null}
            {emptyValue && !badName ? (
              <span className="field-hint inline warn" id={`param-empty-${index}`}>
                {t('agent.paramEmpty')}
              </span>
            ) : null}
          </div>
        )
      })}
      <button type="button" className="button ghost" onClick={() => onChange([...rows, { key: '', value: '' }])}>
        <Icon name="plus" size={16} />
        <span>{t('agent.addParam')}</span>
      </button>
    </div>
  )
}
