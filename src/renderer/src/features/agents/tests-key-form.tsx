import { useState } from 'react'
import { useT } from '../../i18n/use-t'
import { useCall, useStoreApi } from '../../store/app-context'
import { TextField } from '../../ui/field'
import { SubmitForm } from '../../ui/submit-form'
import { setTestsKey } from './tests-key'

/** Before the first test route: the API key runs use, pasted or made here (kept in memory only). */
export function TestsKeyForm() {
  const t = useT()
  const call = useCall()
  const store = useStoreApi()
  const [key, setKey] = useState('')
  const [error, setError] = useState<string[]>([])
  const [creating, setCreating] = useState(false)

  const createKey = async () => {
    setCreating(true)
    try {
      const made = await call('keys.create', { name: t('tests.keyName') })
      setTestsKey(made.key)
    } catch (failure) {
      store.getState().toastError(failure)
    } finally {
      setCreating(false)
    }
  }

  return (
    <SubmitForm
      className="card tests-key"
      data-testid="tests-key"
      aria-labelledby="tests-key-title"
      noValidate
      onSubmit={() => {
        if (key.trim() === '') return setError([t('tests.keyRequired')])
        setTestsKey(key.trim())
      }}
    >
      <h3 id="tests-key-title">{t('tests.keyTitle')}</h3>
      <p className="muted small">{t('tests.keyExplain')}</p>
      <TextField label={t('tests.keyLabel')} type="password" dir="ltr" value={key} errors={error} onChange={setKey} autoComplete="off" />
      <div className="toolbar">
        <button type="submit" className="button">
          {t('tests.keyUse')}
        </button>
        <button type="button" className="button primary" disabled={creating} onClick={() => void createKey()}>
          {creating ? t('common.loading') : t('tests.keyCreate')}
        </button>
      </div>
    </SubmitForm>
  )
}
