import { useEffect, useState } from 'react'
import type { VoiceAgentTemplate } from '../../../../shared/api/voice-agents'
import { isOperatorError } from '../../api/operator-error'
import { useT } from '../../i18n/use-t'
import { errorText } from '../../lib/readable-errors'
import { fieldErrorLinesOf } from '../../lib/field-errors'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectLocale, selectTemplates } from '../../store/selectors'
import { TextField } from '../../ui/field'
import { Icon } from '../../ui/icon'
import { LoadError } from '../../ui/load-error'
import { DialogActions, ModalDialog } from '../../ui/modal-dialog'
import { SubmitForm } from '../../ui/submit-form'

/** Ready-made agents to start from: clone one under a name, then edit the copy. */
export function TemplatesScreen() {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const store = useStoreApi()
  const call = useCall()
  const templates = useAppStore(selectTemplates)
  const [lang, setLang] = useState<'all' | 'ar' | 'en'>('all')
  const [cloning, setCloning] = useState<VoiceAgentTemplate | null>(null)
  const [name, setName] = useState('')
  const [errors, setErrors] = useState<string[]>([])
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    void store.getState().loadTemplates()
  }, [store])

  const startClone = (template: VoiceAgentTemplate) => {
    setCloning(template)
    setName(t('templates.copyName', { name: template.agentName }))
    setErrors([])
  }

  const clone = async () => {
    if (!cloning) return
    setBusy(true)
    try {
      const agent = await call('agents.clone', { sourceId: cloning.id, agentName: name.trim() })
      store.getState().upsertAgent(agent)
      setCloning(null)
      store.getState().openAgent(agent.id)
      store.getState().toast('success', t('templates.cloned', { name: agent.agentName }))
    } catch (error) {
      setErrors(
        isOperatorError(error) && error.details.length > 0 ? fieldErrorLinesOf(error.details, locale, {}) : [errorText(error, locale)],
      )
    } finally {
      setBusy(false)
    }
  }

  const shown = templates.items.filter((template) => lang === 'all' || template.lang === lang)
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>{t('templates.title')}</h1>
          <p className="muted">{t('templates.intro')}</p>
        </div>
        <div className="segmented" role="radiogroup" aria-label={t('templates.filterLang')}>
          {(['all', 'en', 'ar'] as const).map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={lang === value}
              className={lang === value ? 'on' : ''}
              onClick={() => setLang(value)}
            >
              {value === 'all' ? t('common.all') : t(value === 'ar' ? 'lang.ar' : 'lang.en')}
            </button>
          ))}
        </div>
      </header>
      {templates.error && !templates.loading ? (
        <LoadError error={templates.error} onRetry={() => void store.getState().loadTemplates()} />
      ) : null}
      {templates.loading && templates.items.length === 0 ? <p className="muted">{t('common.loading')}</p> : null}
      <ul className="gallery" aria-label={t('templates.title')}>
        {shown.map((template) => (
          <li key={template.id} className="card template-card">
            <div className="template-icon" aria-hidden="true">
              <Icon name={template.icon} size={22} />
            </div>
            <h2 className="template-name" dir="auto">
              {template.agentName}
            </h2>
            <p className="template-meta">
              <span className="tag">{t(template.lang === 'ar' ? 'lang.ar' : 'lang.en')}</span>
              <bdi>{template.voice}</bdi>
            </p>
            <p className="template-description" dir="auto">
              {template.description}
            </p>
            <p className="template-greeting" dir="auto">
              “{template.greetingMessage}”
            </p>
            <button
              type="button"
              className="button primary"
              onClick={() => startClone(template)}
              aria-label={t('templates.cloneNamed', { name: template.agentName })}
            >
              {t('templates.clone')}
            </button>
          </li>
        ))}
      </ul>
      <ModalDialog
        open={cloning !== null}
        title={t('templates.cloneTitle', { name: cloning?.agentName ?? '' })}
        onClose={() => setCloning(null)}
        actions={
          <DialogActions
            onCancel={() => setCloning(null)}
            label={t('templates.cloneAndEdit')}
            form="clone-form"
            disabled={busy || name.trim() === ''}
          />
        }
      >
        <SubmitForm id="clone-form" onSubmit={() => void clone()}>
          <TextField label={t('templates.newName')} errors={errors} data-autofocus maxLength={100} value={name} onChange={setName} />
        </SubmitForm>
      </ModalDialog>
    </div>
  )
}
