import { useState } from 'react'
import { useT } from '../i18n/use-t'
import { Icon } from './icon'

/** Copies `text`; says so for a moment (and to screen readers). `label` names what is copied. */
export function CopyButton({ text, label, compact = false }: { text: string; label: string; compact?: boolean }) {
  const t = useT()
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
    } catch {
      // Clipboard refused (no focus, permissions): select-and-copy fallback.
      const area = document.createElement('textarea')
      area.value = text
      document.body.append(area)
      area.select()
      document.execCommand('copy')
      area.remove()
    }
    setCopied(true)
    setTimeout(() => setCopied(false), 1_500)
  }
  return (
    <button
      type="button"
      className={compact ? 'button icon-button' : 'button'}
      onClick={() => void copy()}
      aria-label={t('copy.label', { what: label })}
      title={t('copy.label', { what: label })}
    >
      <Icon name={copied ? 'check' : 'copy'} size={16} />
      {compact ? null : <span>{copied ? t('copy.done') : t('copy.copy')}</span>}
      <span className="visually-hidden" role="status">
        {copied ? t('copy.done') : ''}
      </span>
    </button>
  )
}
