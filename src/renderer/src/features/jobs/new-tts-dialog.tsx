import { useEffect, useRef, useState } from 'react'
import { TTS_TEXT_MAX } from '../../../../shared/api/jobs'
import { isOperatorError } from '../../api/operator-error'
import { useT } from '../../i18n/use-t'
import { errorText } from '../../lib/readable-errors'
import { fieldErrorsOf } from '../../lib/field-errors'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectLocale, selectVoices } from '../../store/selectors'
import { focusFirstError } from '../../ui/focus-first-error'
import { SelectField, TextField } from '../../ui/field'
import { DialogActions, ModalDialog } from '../../ui/modal-dialog'
import { voiceAccent } from '../../lib/voice-text'
import { SubmitForm } from '../../ui/submit-form'

/** A text-to-speech job: a voice and the text. The new job opens in the detail panel. */
export function NewTtsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const call = useCall()
  const store = useStoreApi()
  const voices = useAppStore(selectVoices)
  const [chosenVoiceId, setVoiceId] = useState('')
  // Until the operator picks one, the first voice of the catalogue (derived, not copied into state by an effect).
  const voiceId = chosenVoiceId || (voices[0]?.id ?? '')
  const [text, setText] = useState('')
  const [webhookUrl, setWebhookUrl] = useState('')
  const [errors, setErrors] = useState<Record<string, string[]>>({})
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (open)
      void store
        .getState()
        .loadVoices()
        .catch(() => {})
  }, [open, store])

  const formRef = useRef<HTMLFormElement>(null)
  const create = async () => {
    setBusy(true)
    try {
      const job = await call('jobs.createTts', { voiceId, text, webhookUrl: webhookUrl.trim() || undefined })
      store.getState().toast('success', t('jobs.ttsCreated'))
      store.getState().refreshJobs()
      store.getState().selectJob(job.id)
      setText('')
      setErrors({})
      onClose()
    } catch (error) {
      setErrors(
        isOperatorError(error) && error.details.length > 0 ? fieldErrorsOf(error.details, locale) : { '': [errorText(error, locale)] },
      )
      requestAnimationFrame(() => focusFirstError(formRef.current))
    } finally {
      setBusy(false)
    }
  }

  return (
    <ModalDialog
      open={open}
      title={t('jobs.newTtsTitle')}
      onClose={onClose}
      actions={
        <DialogActions
          onCancel={onClose}
          label={t('jobs.createTts')}
          form="tts-form"
          disabled={busy || text.trim() === '' || voiceId === ''}
        />
      }
    >
      <SubmitForm ref={formRef} id="tts-form" className="stack" noValidate onSubmit={() => void create()}>
        <SelectField label={t('jobs.voice')} errors={errors.voiceId} value={voiceId} onChange={setVoiceId}>
          {(['en', 'ar'] as const).map((lang) => (
            <optgroup key={lang} label={t(lang === 'ar' ? 'lang.ar' : 'lang.en')}>
              {voices
                .filter((voice) => voice.lang === lang)
                .map((voice) => (
                  <option key={voice.id} value={voice.id}>
                    {`${voice.name} · ${voiceAccent(voice.accent, t)}`}
                  </option>
                ))}
            </optgroup>
          ))}
        </SelectField>
        <TextField
          label={t('jobs.text')}
          hint={t('jobs.textCount', { n: String(text.length), max: String(TTS_TEXT_MAX) })}
          errors={errors.text}
          rows={6}
          maxLength={TTS_TEXT_MAX}
          value={text}
          onChange={setText}
        />
        <TextField
          label={t('jobs.webhookOptional')}
          errors={errors.webhookUrl}
          dir="ltr"
          type="url"
          value={webhookUrl}
          placeholder="https://example.com/hooks/tts"
          onChange={setWebhookUrl}
        />
        {errors[''] ? (
          <p className="field-error" role="alert">
            {errors[''].join(' ')}
          </p>
        ) : null}
      </SubmitForm>
    </ModalDialog>
  )
}
