import { useT } from '../i18n/use-t'
import { formatCount } from '../lib/format'
import { useAppStore } from '../store/app-context'
import { curlExample, selectLocale, selectPendingJobs, selectRunningJobs, selectServiceInfo } from '../store/selectors'
import { CopyButton } from '../ui/copy-button'

/** Where the /v1 service is, which key works with it, how busy the runner is: always in view. */
export function StatusBar() {
  const t = useT()
  const info = useAppStore(selectServiceInfo)
  const running = useAppStore(selectRunningJobs)
  const pending = useAppStore(selectPendingJobs)
  const locale = useAppStore(selectLocale)
  return (
    <footer className="status-bar" aria-label={t('status.label')}>
      <span className={`status-dot ${info ? 'on' : ''}`} aria-hidden="true" />
      {info ? (
        <>
          <span>
            {t('status.service')} <code dir="ltr">{info.url}</code>
          </span>
          <span>
            {t('status.key')} <code dir="ltr">{info.keyHint || t('status.noKey')}</code>
          </span>
          <span aria-live="polite" data-testid="job-counts">
            {t('status.jobs', { running: formatCount(running, locale), pending: formatCount(pending, locale) })}
          </span>
          <span className="status-spacer" />
          <code className="status-curl" dir="ltr" title={curlExample(info.url)}>
            {curlExample(info.url)}
          </code>
          <CopyButton text={curlExample(info.url)} label={t('status.curl')} compact />
        </>
      ) : (
        <span>{t('status.connecting')}</span>
      )}
    </footer>
  )
}
