import type { AppState, AppStore } from './app-store'
import { SCREENS, type Screen } from './ui-slice'

/**
 * Deep links: every screen, and every agent, job and webhook delivery, has a hash route
 * (`#/agents/<id>`, `#/jobs/<id>`, `#/webhooks/<id>`, `#/requests/<id>`). The hash works the same on the served
 * `/app/` and on Electron's file:// page, and the browser's back button walks it.
 */
export interface HashRoute {
  screen: Screen
  /** The agent, job or delivery open on that screen. */
  id: string | null
}

/** Screens whose items have their own route. */
const ITEM_SCREENS: readonly Screen[] = ['agents', 'jobs', 'webhooks', 'requests']
const ID = /^[A-Za-z0-9_-]{1,200}$/

/** The route in a location hash; null when the hash is not a route (empty, or another fragment). */
export function parseHashRoute(hash: string): HashRoute | null {
  const match = /^#\/([a-z]+)(?:\/([^/?#]+))?\/?$/.exec(hash)
  if (!match) return null
  const screen = SCREENS.find((candidate) => candidate === match[1])
  if (!screen) return null
  let id: string | null = null
  if (match[2] !== undefined) {
    const decoded = safeDecode(match[2])
    if (!ITEM_SCREENS.includes(screen) || decoded === null || !ID.test(decoded)) return { screen, id: null }
    id = decoded
  }
  return { screen, id }
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text)
  } catch {
    return null
  }
}

export function hashOf(route: HashRoute): string {
  return route.id === null ? `#/${route.screen}` : `#/${route.screen}/${encodeURIComponent(route.id)}`
}

/** The route of what the store shows now. */
export function routeOf(state: AppState): HashRoute {
  const { screen } = state.ui
  if (screen === 'agents') return { screen, id: state.ui.openAgentId }
  if (screen === 'jobs') return { screen, id: state.jobs.selectedId }
  if (screen === 'webhooks') return { screen, id: state.deliveries.selectedId }
  if (screen === 'requests') return { screen, id: state.requests.selectedId === null ? null : String(state.requests.selectedId) }
  return { screen, id: null }
}

/** Shows a route: its screen, with its item selected (an unsaved agent draft still asks first). */
export function applyRoute(store: AppStore, route: HashRoute): void {
  const state = store.getState()
  if (route.screen === 'agents') return state.openAgent(route.id)
  state.navigate(route.screen)
  if (store.getState().ui.screen !== route.screen) return // the operator is asked about an unsaved draft first
  if (route.screen === 'jobs' && store.getState().jobs.selectedId !== route.id) store.getState().selectJob(route.id)
  if (route.screen === 'webhooks' && store.getState().deliveries.selectedId !== route.id) void store.getState().selectDelivery(route.id)
  if (route.screen === 'requests') {
    // Journal ids are whole numbers; anything else opens the list alone.
    const id = route.id !== null && /^[1-9][0-9]{0,15}$/.test(route.id) ? Number(route.id) : null
    if (store.getState().requests.selectedId !== id) void store.getState().selectRequest(id)
  }
}

/** The parts of window hash routing needs (a plain object in tests). */
export interface HashWindow {
  location: { hash: string }
  addEventListener(type: 'hashchange', listener: () => void): void
}

/**
 * Keeps the address's hash and the store in step: a hash at start (or a back/forward, or a
 * typed address) opens its screen and item; moving in the UI sets the hash, one history entry each.
 */
export function startHashRouting(store: AppStore, window: HashWindow): void {
  // While a route from the address is shown, its steps (the screen, then its item) write no
  // hash of their own: `#/jobs` on the way to `#/jobs/<id>` would be a history entry of its own.
  let applying = false
  const apply = (route: HashRoute) => {
    applying = true
    try {
      applyRoute(store, route)
    } finally {
      applying = false
    }
  }
  const initial = parseHashRoute(window.location.hash)
  if (initial) apply(initial)
  window.addEventListener('hashchange', () => {
    const route = parseHashRoute(window.location.hash)
    if (route && hashOf(route) !== hashOf(routeOf(store.getState()))) apply(route)
  })
  store.subscribe((state, previous) => {
    if (applying) return
    const hash = hashOf(routeOf(state))
    if (hash === hashOf(routeOf(previous)) || hash === window.location.hash) return
    window.location.hash = hash
  })
}
