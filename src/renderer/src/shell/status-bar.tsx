import { useT } from '../i18n/use-t'
import { formatCount } from '../lib/format'
import { useAppStore, useStoreApi } from '../store/app-context'
import {
  curlExample,
  selectActiveFaults,
  selectLink,
  selectLocale,
  selectPendingJobs,
  selectRunningJobs,
  selectServiceInfo,
} from '../store/selectors'
import { CopyButton } from '../ui/copy-button'
import { Icon } from '../ui/icon'
import { useNow } from '../ui/use-now'

/** The real state of the link to the service, where it is, which key works, how busy it is: always in view. */
export function StatusBar() {
  const t = useT()
  const store = useStoreApi()
  const info = useAppStore(selectServiceInfo)
  const running = useAppStore(selectRunningJobs)
  const pending = useAppStore(selectPendingJobs)
  const locale = useAppStore(selectLocale)
  const link = useAppStore(selectLink)
  const activeFaults = useAppStore(selectActiveFaults)
  const down = link.state === 'reconnecting' || link.state === 'lost'
  const now = useNow(down)
  const seconds = link.nextCheckAt === null ? 0 : Math.max(0, Math.ceil((link.nextCheckAt - now) / 1000))
  const linkText =
    link.state === 'connected'
      ? t('link.connected')
      : link.state === 'connecting'
        ? t('status.connecting')
        : t(link.state === 'lost' ? 'link.lost' : 'link.reconnecting', { seconds: formatCount(seconds, locale) })
  return (
    <footer className="status-bar" aria-label={t('status.label')}>
      <span className={`status-dot link-${link.state}`} aria-hidden="true" />
      {/* Said in words, not only by the dot's colour; announced when it changes (not every second). */}
      <span className={`link-state link-state-${link.state}`} data-testid="link-state" data-state={link.state}>
        {linkText}
      </span>
      <span className="visually-hidden" role="status">
        {link.state === 'connected'
          ? t('link.connected')
          : link.state === 'lost'
            ? t('link.lostShort')
            : link.state === 'reconnecting'
              ? t('link.reconnectingShort')
              : ''}
      </span>
      {/* Early in the bar, so a narrow window never cuts it off: a demo must not run with a fault unseen. */}
      {activeFaults > 0 ? (
        <button
          type="button"
          className="fault-badge"
          data-testid="fault-badge"
          title={t('faults.badgeTitle')}
          onClick={() => store.getState().navigate('faults')}
        >
          <Icon name="zap" size={14} />
          <span>{activeFaults === 1 ? t('faults.badgeOne') : t('faults.badge', { n: formatCount(activeFaults, locale) })}</span>
        </button>
      ) : null}
      {down ? (
        <button type="button" className="button small" onClick={() => void store.getState().checkLink()}>
          {t('link.retryNow')}
        </button>
      ) : null}
      {info ? (
        <>
          <span>
            {t('status.service')} <code dir="ltr">{info.url}</code>
          </span>
          <span>
            {t('status.key')} <code dir="ltr">{info.keyHint || t('status.noKey')}</code>
          </span>
          <span aria-live="polite" data-testid="job-counts">
            {/* While the link is down the counts are the last known, and say so. */}
            {t(down ? 'status.jobsLastSeen' : 'status.jobs', {
              running: formatCount(running, locale),
              pending: formatCount(pending, locale),
            })}
          </span>
          <span className="status-spacer" />
          <code className="status-curl" dir="ltr" title={curlExample(info.url)}>
            {curlExample(info.url)}
          </code>
          <CopyButton text={curlExample(info.url)} label={t('status.curl')} compact />
        </>
      ) : null}
    </footer>
  )
}
