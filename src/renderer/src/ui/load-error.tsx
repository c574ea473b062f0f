import { useT } from '../i18n/use-t'
import { useAppStore } from '../store/app-context'
import { selectLink } from '../store/selectors'
import { Icon } from './icon'

/**
 * A list that could not load: said in words (not a spinner that never ends), with Retry. While
 * the service is unreachable it says so; the list reloads by itself when the link returns.
 */
/** `failed` says what could not be loaded when it is not a list. */
export function LoadError({ error, failed, onRetry }: { error: string; failed?: string; onRetry(): void }) {
  const t = useT()
  const link = useAppStore(selectLink)
  const offline = link.state === 'reconnecting' || link.state === 'lost'
  return (
    <div className="error-box load-error" role="alert" data-testid="load-error">
      <p>
        <strong>{failed ?? t('load.failed')}</strong> {offline ? t('load.failedOffline') : null}
      </p>
      {/* The service's own words, for a bug report; the sentence above is the one to read. */}
      {offline ? null : (
        <p className="small muted" dir="auto">
          {error}
        </p>
      )}
      <button type="button" className="button small" onClick={onRetry}>
        <Icon name="refresh" size={14} />
        <span>{t('load.retry')}</span>
      </button>
    </div>
  )
}
