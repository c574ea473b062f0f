import { useState } from 'react'
import { createBrowserBridge } from '../api/browser-bridge'
import { tokenFromPasted, UI_TOKEN_STORAGE_KEY } from '../api/ui-token'
import { translate, type MessageKey, type UiLocale } from '../i18n/dictionary'
import { TextField } from '../ui/field'
import { SubmitForm } from '../ui/submit-form'

type Problem = 'notAToken' | 'refused' | 'unreachable' | null

/**
 * Shown when the browser UI has no token, or the service refused it (it was restarted: every
 * start makes a new token). Says where the link is and takes it pasted (or the token alone),
 * checks it with the service, then opens the UI with it. Stands alone (no store): it may be the
 * only thing that renders.
 */
export function TokenScreen({ reason, locale = 'en' }: { reason: 'missing' | 'invalid'; locale?: UiLocale }) {
  const t = (key: MessageKey) => translate(locale, key)
  const [pasted, setPasted] = useState('')
  const [problem, setProblem] = useState<Problem>(null)
  const [checking, setChecking] = useState(false)

  const submit = async () => {
    const token = tokenFromPasted(pasted)
    if (!token) return setProblem('notAToken')
    setChecking(true)
    const answer = await createBrowserBridge({ token }).operations['service.info']({})
    setChecking(false)
    if (!answer.ok) return setProblem(answer.error.code === 'UNAUTHORIZED' ? 'refused' : 'unreachable')
    window.sessionStorage.setItem(UI_TOKEN_STORAGE_KEY, token)
    window.location.reload()
  }

  return (
    <main className="token-screen" id="main">
      <div className="token-card" role="alert">
        <h1>{reason === 'missing' ? t('token.missingTitle') : t('token.invalidTitle')}</h1>
        <p>{reason === 'missing' ? t('token.explain') : t('token.restarted')}</p>
        <pre dir="ltr">
          <code>{'voicedesk serve\n…\nOperator UI: http://127.0.0.1:8740/app/#token=…'}</code>
        </pre>
        <p>{t('token.hint')}</p>
        <SubmitForm className="token-form" noValidate onSubmit={() => void submit()}>
          <TextField
            label={t('token.pasteLabel')}
            errors={problem ? [t(`token.problem.${problem}`)] : undefined}
            dir="ltr"
            autoComplete="off"
            spellCheck={false}
            value={pasted}
            onChange={(value) => (setPasted(value), setProblem(null))}
          />
          <div className="toolbar end">
            <button type="submit" className="button primary" disabled={pasted.trim() === ''} aria-busy={checking || undefined}>
              {t('token.open')}
            </button>
          </div>
        </SubmitForm>
      </div>
    </main>
  )
}
