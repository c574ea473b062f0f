import { createStore, type StoreApi } from 'zustand/vanilla'
import type { Call } from '../api/call'
import { createAgentsSlice, type AgentsSlice } from './agents-slice'
import { createConnectionSlice, type ConnectionSlice } from './connection-slice'
import { createFaultsSlice, type FaultsSlice } from './faults-slice'
import { createJobsSlice, type JobsSlice } from './jobs-slice'
import { createRequestsSlice, type RequestsSlice } from './requests-slice'
import { createServiceSlice, type ServiceSlice } from './service-slice'
import { createUiSlice, type UiSlice } from './ui-slice'
import { createWebhooksSlice, type WebhooksSlice } from './webhooks-slice'

/** Where preferences are kept: localStorage in the app, a map in tests (no DOM types needed). */
export interface PreferenceStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

/** What the store needs from outside: the operation caller, a timer and somewhere to keep preferences. */
export interface StoreDeps {
  call: Call
  /** Runs `run` after `ms`; answers a cancel function. Coalesces bursts of live events. */
  schedule?: (run: () => void, ms: number) => () => void
  /** Keeps language and theme across restarts (localStorage in the app; a map in tests). */
  preferences?: PreferenceStorage
  /** The clock (ms since the epoch), for countdowns; Date.now in the app. */
  now?: () => number
}

export type AppState = UiSlice & ServiceSlice & ConnectionSlice & AgentsSlice & JobsSlice & WebhooksSlice & RequestsSlice & FaultsSlice
export type AppStore = StoreApi<AppState>
export type SetState = AppStore['setState']
export type GetState = AppStore['getState']

/** A slice: its state and actions, built with the shared set/get and the store's dependencies. */
export type SliceCreator<T> = (set: SetState, get: GetState, deps: Required<StoreDeps>) => T

const defaultSchedule = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms)
  return () => clearTimeout(timer)
}

const memoryPreferences = (): PreferenceStorage => {
  const values = new Map<string, string>()
  return { getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value) }
}

/** The one store of the renderer, from typed slices. Plain zustand/vanilla: usable and testable without React. */
export function createAppStore(deps: StoreDeps): AppStore {
  const full: Required<StoreDeps> = {
    call: deps.call,
    schedule: deps.schedule ?? defaultSchedule,
    preferences: deps.preferences ?? memoryPreferences(),
    now: deps.now ?? Date.now,
  }
  return createStore<AppState>()((set, get) => ({
    ...createUiSlice(set, get, full),
    ...createServiceSlice(set, get, full),
    ...createConnectionSlice(set, get, full),
    ...createAgentsSlice(set, get, full),
    ...createJobsSlice(set, get, full),
    ...createWebhooksSlice(set, get, full),
    ...createRequestsSlice(set, get, full),
    ...createFaultsSlice(set, get, full),
  }))
}
