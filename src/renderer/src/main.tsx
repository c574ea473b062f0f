import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import type { BrowserBridge } from './api/browser-bridge'
import { createCall } from './api/call'
import { resolveBridge } from './api/resolve-bridge'
import { startHashRouting } from './store/hash-route'
import { AppShell } from './shell/app-shell'
import { TokenScreen } from './shell/token-screen'
import { AppProvider } from './store/app-context'
import { createAppStore } from './store/app-store'
import './styles/app.css'

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element to render the UI into')
const root = createRoot(container)
const resolution = resolveBridge()
// A new link (the service restarted: a new token) opened in this tab changes only the hash, which
// loads nothing: load the page again so that the token is taken (and a kept draft offered back).
if (!window.voicedesk) window.addEventListener('hashchange', () => /[#&]token=/.test(window.location.hash) && window.location.reload())

if (resolution.kind === 'no-token') {
  root.render(<TokenScreen reason="missing" locale={navigator.language.startsWith('ar') ? 'ar' : 'en'} />)
} else {
  const { bridge } = resolution
  // The store is created once, outside React; live events flow into it for the whole session.
  let markUnauthorized = () => {}
  const call = createCall(bridge, () => markUnauthorized())
  const store = createAppStore({ call, preferences: window.localStorage })
  markUnauthorized = () => store.getState().markUnauthorized()
  bridge.onEvent((event) => store.getState().handleEvent(event))
  if (bridge.host === 'browser') {
    ;(bridge as BrowserBridge).onReconnect(() => store.getState().resync())
    // The first break is checked at once; while the link is down, the checks keep their own pace.
    ;(bridge as BrowserBridge).onBreak(() => {
      if (store.getState().link.state === 'connected') void store.getState().checkLink()
    })
  }
  // The link is checked (one service.info) while the window is visible, in Electron too: there
  // is no event stream there whose break would tell.
  const watchWhileVisible = () => store.getState().watchLink(document.visibilityState === 'visible')
  document.addEventListener('visibilitychange', watchWhileVisible)
  watchWhileVisible()
  if (document.visibilityState !== 'visible') void store.getState().loadService()
  // The status bar's fault badge is there from the start: a demo never runs with a rule unseen.
  void store.getState().loadFaults()

  // Deep links (#/agents/<id>, #/jobs/<id>, #/webhooks/<id>): the same on /app/ and on Electron's file:// page.
  startHashRouting(store, window)

  root.render(
    <StrictMode>
      <AppProvider value={{ store, call, host: bridge.host, openStream: bridge.openStream }}>
        <AppShell />
      </AppProvider>
    </StrictMode>,
  )
}
