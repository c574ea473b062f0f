import { translate, type UiLocale } from '../i18n/dictionary'

/**
 * Shown when the browser UI has no token, or the service refused it. Stands alone (no store):
 * it may be the only thing that renders.
 */
export function TokenScreen({ reason, locale = 'en' }: { reason: 'missing' | 'invalid'; locale?: UiLocale }) {
  const t = (key: Parameters<typeof translate>[1]) => translate(locale, key)
  return (
    <main className="token-screen" id="main">
      <div className="token-card" role="alert">
        <h1>{reason === 'missing' ? t('token.missingTitle') : t('token.invalidTitle')}</h1>
        <p>{t('token.explain')}</p>
        <pre dir="ltr">
          <code>{'voicedesk serve\n…\nOperator UI: http://127.0.0.1:8740/app/#token=…'}</code>
        </pre>
        <p>{t('token.hint')}</p>
      </div>
    </main>
  )
}
