import { AgentsScreen } from '../features/agents/agents-screen'
import { AnalyticsScreen } from '../features/analytics/analytics-screen'
import { FaultsScreen } from '../features/faults/faults-screen'
import { JobsScreen } from '../features/jobs/jobs-screen'
import { NumbersScreen } from '../features/numbers/numbers-screen'
import { RequestsScreen } from '../features/requests/requests-screen'
import { SettingsScreen } from '../features/settings/settings-screen'
import { TemplatesScreen } from '../features/templates/templates-screen'
import { WebhooksScreen } from '../features/webhooks/webhooks-screen'
import { LiveCallBar } from '../features/test-call/live-call-bar'
import { LiveTestCallProvider } from '../features/test-call/live-test-call'
import { useAppStore } from '../store/app-context'
import { selectLocale, selectScreen, selectUnauthorized } from '../store/selectors'
import { Sidebar } from './sidebar'
import { StatusBar } from './status-bar'
import { Toasts } from './toasts'
import { TokenScreen } from './token-screen'
import { useDocumentLocale } from './use-document-locale'

const SCREENS = {
  agents: AgentsScreen,
  templates: TemplatesScreen,
  numbers: NumbersScreen,
  jobs: JobsScreen,
  webhooks: WebhooksScreen,
  faults: FaultsScreen,
  settings: SettingsScreen,
  requests: RequestsScreen,
  analytics: AnalyticsScreen,
} as const

/** Sidebar navigation, the current screen, the status bar; a running test call's bar above the screen. */
export function AppShell() {
  useDocumentLocale()
  const screen = useAppStore(selectScreen)
  const unauthorized = useAppStore(selectUnauthorized)
  const locale = useAppStore(selectLocale)
  if (unauthorized) return <TokenScreen reason="invalid" locale={locale} />
  const Screen = SCREENS[screen]
  return (
    <LiveTestCallProvider>
      <div className="app">
        <Sidebar />
        <LiveCallBar />
        <main className="content" id="main" tabIndex={-1}>
          <Screen />
        </main>
        <StatusBar />
        <Toasts />
      </div>
    </LiveTestCallProvider>
  )
}
