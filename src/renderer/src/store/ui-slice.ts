import type { UiLocale } from '../i18n/dictionary'
import type { SliceCreator } from './app-store'

export const SCREENS = ['agents', 'templates', 'numbers', 'jobs', 'webhooks', 'settings'] as const
export type Screen = (typeof SCREENS)[number]
export type ThemeChoice = 'system' | 'light' | 'dark'

export interface Toast {
  id: number
  kind: 'info' | 'success' | 'error'
  text: string
}

export interface UiSlice {
  ui: {
    locale: UiLocale
    theme: ThemeChoice
    screen: Screen
    /** The agent open in the editor, on the agents screen. */
    openAgentId: string | null
    toasts: Toast[]
    /** The service refused the UI's token: show how to open the UI again. */
    unauthorized: boolean
  }
  setLocale(locale: UiLocale): void
  setTheme(theme: ThemeChoice): void
  navigate(screen: Screen): void
  openAgent(id: string | null): void
  toast(kind: Toast['kind'], text: string): void
  dismissToast(id: number): void
  markUnauthorized(): void
}

const LOCALE_KEY = 'voicedesk.locale'
const THEME_KEY = 'voicedesk.theme'
const TOAST_MS = 4_000
/** Errors stay longer: the operator must have time to read them. */
const ERROR_TOAST_MS = 12_000

export const createUiSlice: SliceCreator<UiSlice> = (set, get, { preferences, schedule }) => {
  const storedLocale = preferences.getItem(LOCALE_KEY)
  const storedTheme = preferences.getItem(THEME_KEY)
  let nextToast = 1
  const patch = (changes: Partial<UiSlice['ui']>) => set((state) => ({ ui: { ...state.ui, ...changes } }))
  return {
    ui: {
      locale: storedLocale === 'ar' ? 'ar' : 'en',
      theme: storedTheme === 'light' || storedTheme === 'dark' ? storedTheme : 'system',
      screen: 'agents',
      openAgentId: null,
      toasts: [],
      unauthorized: false,
    },
    setLocale(locale) {
      preferences.setItem(LOCALE_KEY, locale)
      patch({ locale })
    },
    setTheme(theme) {
      preferences.setItem(THEME_KEY, theme)
      patch({ theme })
    },
    navigate(screen) {
      patch({ screen })
    },
    openAgent(id) {
      patch({ screen: 'agents', openAgentId: id })
    },
    toast(kind, text) {
      const id = nextToast++
      patch({ toasts: [...get().ui.toasts, { id, kind, text }].slice(-3) })
      schedule(() => get().dismissToast(id), kind === 'error' ? ERROR_TOAST_MS : TOAST_MS)
    },
    dismissToast(id) {
      patch({ toasts: get().ui.toasts.filter((toast) => toast.id !== id) })
    },
    markUnauthorized() {
      patch({ unauthorized: true })
    },
  }
}
