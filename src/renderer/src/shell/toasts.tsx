import { useT } from '../i18n/use-t'
import { useAppStore, useStoreApi } from '../store/app-context'
import { selectToasts } from '../store/selectors'
import { Icon } from '../ui/icon'

export function Toasts() {
  const t = useT()
  const store = useStoreApi()
  const toasts = useAppStore(selectToasts)
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} role={toast.kind === 'error' ? 'alert' : undefined}>
          <span dir="auto">{toast.text}</span>
          <button type="button" className="button icon-button ghost" aria-label={t('common.dismiss')} onClick={() => store.getState().dismissToast(toast.id)}>
            <Icon name="x" size={14} />
          </button>
        </div>
      ))}
    </div>
  )
}
