import { useT } from '../../i18n/use-t'
import { placeholderState, splitPlaceholders } from '../../../../shared/text/placeholders'
import { Icon } from '../../ui/icon'

/**
 * The text as a conversation would start with it: filled placeholders marked (hover shows the
 * name), unfilled ones flagged as written. `dir="auto"` so Arabic reads right to left.
 */
export function PlaceholderPreview({ template, params, label }: { template: string; params: Record<string, string>; label: string }) {
  const t = useT()
  const segments = splitPlaceholders(template, params)
  return (
    <div className="preview" role="group" aria-label={label}>
      <div className="preview-title">{label}</div>
      <p className="preview-text" dir="auto">
        {segments.length === 0 ? <span className="muted">{t('agent.previewEmpty')}</span> : null}
        {segments.map((segment, index) =>
          segment.kind === 'text' ? (
            <span key={index}>{segment.text}</span>
          ) : segment.state === 'filled' ? (
            <mark key={index} className="ph ph-filled" title={`{{${segment.name}}}`}>
              {segment.value}
            </mark>
          ) : segment.state === 'empty' ? (
            <mark key={index} className="ph ph-missing" title={t('agent.placeholderEmpty', { name: segment.name })}>
              {segment.raw}
            </mark>
          ) : (
            <mark key={index} className="ph ph-missing" title={t('agent.placeholderMissing', { name: segment.name })}>
              {segment.raw}
            </mark>
          ),
        )}
      </p>
    </div>
  )
}

/** The placeholders a template uses, each marked filled or missing; a missing one can be added as a param. */
export function PlaceholderChips({
  template,
  params,
  onAdd,
}: {
  template: string
  params: Record<string, string>
  onAdd(name: string): void
}) {
  const t = useT()
  const names = [...new Set(splitPlaceholders(template).flatMap((segment) => (segment.kind === 'placeholder' ? [segment.name] : [])))]
  if (names.length === 0) return null
  return (
    <ul className="chips" aria-label={t('agent.placeholdersUsed')}>
      {names.map((name) => {
        const state = placeholderState(params, name)
        const filled = state === 'filled'
        return (
          <li key={name} className={`chip ${filled ? 'chip-ok' : 'chip-missing'}`}>
            {filled ? <Icon name="check" size={12} /> : null}
            <code dir="ltr">{`{{${name}}}`}</code>
            {/* In words too, not only in colour: "missing value" is shown, "has a value" is read out. */}
            {filled ? (
              <span className="visually-hidden">{t('agent.placeholderHasValue')}</span>
            ) : (
              <span className="chip-state">{state === 'empty' ? t('agent.placeholderEmptyValue') : t('agent.placeholderNoValue')}</span>
            )}
            {state !== 'missing' ? null : (
              <button type="button" className="chip-action" onClick={() => onAdd(name)} aria-label={t('agent.addParamFor', { name })}>
                {t('agent.addParam')}
              </button>
            )}
          </li>
        )
      })}
    </ul>
  )
}
