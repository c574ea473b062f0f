import { useT } from '../i18n/use-t'
import { formatCount } from '../lib/format'
import { useAppStore, useStoreApi } from '../store/app-context'
import { selectLocale, selectToasts } from '../store/selectors'
import { Icon } from '../ui/icon'

export function Toasts() {
  const t = useT()
  const store = useStoreApi()
  const toasts = useAppStore(selectToasts)
  const locale = useAppStore(selectLocale)
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : undefined}>
          <span dir="auto">{toast.text}</span>
          {toast.count > 1 ? (
            <span className="toast-count" data-testid="toast-count" title={t('toast.repeated', { n: formatCount(toast.count, locale) })}>
              {t('toast.times', { n: formatCount(toast.count, locale) })}
            </span>
          ) : null}
          <button
            type="button"
            className="button icon-button ghost"
            aria-label={t('common.dismiss')}
            onClick={() => store.getState().dismissToast(toast.id)}
          >
            <Icon name="x" size={14} />
          </button>
        </div>
      ))}
    </div>
  )
}
