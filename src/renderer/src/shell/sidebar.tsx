import { useSyncExternalStore } from 'react'
import type { MessageKey } from '../i18n/dictionary'
import { useT } from '../i18n/use-t'
import { useAppStore, useStoreApi } from '../store/app-context'
import { selectLocale, selectScreen, selectTheme } from '../store/selectors'
import type { Screen } from '../store/ui-slice'
import { Icon } from '../ui/icon'

const ITEMS: { screen: Screen; label: MessageKey; icon: string }[] = [
  { screen: 'agents', label: 'nav.agents', icon: 'bot' },
  { screen: 'templates', label: 'nav.templates', icon: 'layout-template' },
  { screen: 'numbers', label: 'nav.numbers', icon: 'phone' },
  { screen: 'jobs', label: 'nav.jobs', icon: 'list-checks' },
  { screen: 'webhooks', label: 'nav.webhooks', icon: 'webhook' },
  { screen: 'settings', label: 'nav.settings', icon: 'settings' },
  { screen: 'requests', label: 'nav.requests', icon: 'arrow-left-right' },
  { screen: 'faults', label: 'nav.faults', icon: 'zap' },
  { screen: 'analytics', label: 'nav.analytics', icon: 'bar-chart' },
]

const DARK_QUERY = '(prefers-color-scheme: dark)'
const subscribeToScheme = (onChange: () => void) => {
  const query = window.matchMedia?.(DARK_QUERY)
  query?.addEventListener('change', onChange)
  return () => query?.removeEventListener('change', onChange)
}
const systemIsDark = () => window.matchMedia?.(DARK_QUERY).matches ?? false

export function Sidebar() {
  const t = useT()
  const store = useStoreApi()
  const screen = useAppStore(selectScreen)
  const locale = useAppStore(selectLocale)
  const theme = useAppStore(selectTheme)
  const systemDark = useSyncExternalStore(subscribeToScheme, systemIsDark)
  const darkNow = theme === 'dark' || (theme === 'system' && systemDark)
  return (
    <div className="sidebar">
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          <Icon name="volume-2" size={18} />
        </span>
        <span className="brand-name">{t('app.name')}</span>
      </div>
      <nav aria-label={t('nav.label')}>
        <ul>
          {ITEMS.map((item) => (
            <li key={item.screen}>
              <button
                type="button"
                className="nav-item"
                aria-current={item.screen === screen ? 'page' : undefined}
                onClick={() => store.getState().navigate(item.screen)}
              >
                <Icon name={item.icon} />
                <span>{t(item.label)}</span>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="sidebar-footer">
        <button
          type="button"
          className="button ghost icon-button"
          aria-label={darkNow ? t('theme.toLight') : t('theme.toDark')}
          title={darkNow ? t('theme.toLight') : t('theme.toDark')}
          onClick={() => store.getState().setTheme(darkNow ? 'light' : 'dark')}
        >
          <Icon name={darkNow ? 'sun' : 'moon'} size={16} />
        </button>
        {/* The visible word leads the accessible name (what voice-control users say). */}
        <button
          type="button"
          className="button ghost"
          aria-label={`${locale === 'ar' ? 'English' : 'العربية'}: ${t('language.switchTo')}`}
          onClick={() => store.getState().setLocale(locale === 'ar' ? 'en' : 'ar')}
        >
          <span lang={locale === 'ar' ? 'en' : 'ar'}>{locale === 'ar' ? 'English' : 'العربية'}</span>
        </button>
      </div>
    </div>
  )
}
