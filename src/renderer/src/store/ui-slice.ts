import type { UiLocale } from '../i18n/dictionary'
import { errorText } from '../lib/readable-errors'
import type { SliceCreator } from './app-store'

export const SCREENS = ['agents', 'templates', 'numbers', 'jobs', 'webhooks', 'settings', 'requests', 'faults', 'analytics'] as const
export type Screen = (typeof SCREENS)[number]
export type ThemeChoice = 'system' | 'light' | 'dark'

export interface Toast {
  id: number
  kind: 'info' | 'success' | 'error'
  text: string
  /** How many times this same message was raised while shown (identical toasts collapse). */
  count: number
}

/** Where the operator asked to go: another screen, or another agent (null: none open). */
export type LeaveTarget = { screen: Screen } | { agentId: string | null }

/** The open agent's edits not saved yet. */
export interface UnsavedDraft {
  agentId: string
  agentName: string
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
    unsavedDraft: UnsavedDraft | null
    /** A move away from the unsaved draft, waiting for the operator's answer (save, discard, stay). */
    pendingLeave: LeaveTarget | null
  }
  setLocale(locale: UiLocale): void
  setTheme(theme: ThemeChoice): void
  navigate(screen: Screen): void
  openAgent(id: string | null): void
  toast(kind: Toast['kind'], text: string): void
  /** An error toast for a failed operation, worded for people in the UI's language. */
  toastError(error: unknown): void
  dismissToast(id: number): void
  markUnauthorized(): void
  /** The agent editor says whether its draft differs from the saved agent. */
  setUnsavedDraft(draft: UnsavedDraft | null): void
  /** The answer to pendingLeave: 'leave' goes where asked (the draft is dropped or was saved), 'stay' stays. */
  resolvePendingLeave(choice: 'leave' | 'stay'): void
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
  const toastTimers = new Map<number, () => void>()
  /** Moves to `target`, unless that leaves an unsaved draft: then the operator is asked first. */
  const go = (target: LeaveTarget) => {
    const { unsavedDraft, screen, openAgentId } = get().ui
    const leavesDraft = unsavedDraft !== null && ('screen' in target ? target.screen !== 'agents' : target.agentId !== unsavedDraft.agentId)
    if (leavesDraft) return patch({ pendingLeave: target })
    if ('screen' in target) {
      if (target.screen !== screen) patch({ screen: target.screen })
    } else if (target.agentId !== openAgentId || screen !== 'agents') patch({ screen: 'agents', openAgentId: target.agentId })
  }
  return {
    ui: {
      locale: storedLocale === 'ar' ? 'ar' : 'en',
      theme: storedTheme === 'light' || storedTheme === 'dark' ? storedTheme : 'system',
      screen: 'agents',
      openAgentId: null,
      toasts: [],
      unauthorized: false,
      unsavedDraft: null,
      pendingLeave: null,
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
      go({ screen })
    },
    openAgent(id) {
      go({ agentId: id })
    },
    toastError(error) {
      get().toast('error', errorText(error, get().ui.locale))
    },
    toast(kind, text) {
      const same = get().ui.toasts.find((toast) => toast.kind === kind && toast.text === text)
      if (same) {
        // The same message again: one toast with a count, shown for longer, not a stack.
        toastTimers.get(same.id)?.()
        patch({ toasts: get().ui.toasts.map((toast) => (toast.id === same.id ? { ...toast, count: toast.count + 1 } : toast)) })
        toastTimers.set(
          same.id,
          schedule(() => get().dismissToast(same.id), kind === 'error' ? ERROR_TOAST_MS : TOAST_MS),
        )
        return
      }
      const id = nextToast++
      patch({ toasts: [...get().ui.toasts, { id, kind, text, count: 1 }].slice(-3) })
      toastTimers.set(
        id,
        schedule(() => get().dismissToast(id), kind === 'error' ? ERROR_TOAST_MS : TOAST_MS),
      )
    },
    dismissToast(id) {
      toastTimers.get(id)?.()
      toastTimers.delete(id)
      patch({ toasts: get().ui.toasts.filter((toast) => toast.id !== id) })
    },
    markUnauthorized() {
      patch({ unauthorized: true })
    },
    setUnsavedDraft(draft) {
      const current = get().ui.unsavedDraft
      if (current?.agentId === draft?.agentId && current?.agentName === draft?.agentName) return
      patch({ unsavedDraft: draft })
    },
    resolvePendingLeave(choice) {
      const target = get().ui.pendingLeave
      if (choice === 'stay' || target === null) return patch({ pendingLeave: null })
      patch({ pendingLeave: null, unsavedDraft: null })
      go(target)
    },
  }
}
