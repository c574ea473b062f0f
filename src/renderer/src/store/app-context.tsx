import { createContext, useContext, type ReactNode } from 'react'
import { useStore } from 'zustand'
import type { OpenIpcStream } from '../../../shared/ipc/streams'
import type { Call } from '../api/call'
import type { AppState, AppStore } from './app-store'

interface AppContextValue {
  store: AppStore
  call: Call
  host: 'desktop' | 'browser'
  /** Opens the contract's streams (a test call). */
  openStream: OpenIpcStream
}

const AppContext = createContext<AppContextValue | null>(null)

export function AppProvider({ value, children }: { value: AppContextValue; children: ReactNode }) {
  return <AppContext.Provider value={value}>{children}</AppContext.Provider>
}

function useAppContext(): AppContextValue {
  const value = useContext(AppContext)
  if (!value) throw new Error('AppProvider is missing')
  return value
}

/** Subscribes to one selected piece of the store (a selector from selectors.ts). */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(useAppContext().store, selector)
}

/** The store's actions and state outside render (event handlers). */
export function useStoreApi(): AppStore {
  return useAppContext().store
}

export function useCall(): Call {
  return useAppContext().call
}

export function useHost(): 'desktop' | 'browser' {
  return useAppContext().host
}

export function useOpenStream(): OpenIpcStream {
  return useAppContext().openStream
}
