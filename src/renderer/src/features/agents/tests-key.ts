import { useMemo, useSyncExternalStore } from 'react'
import { createTestsApi, type TestsApi } from '../../api/tests-api'
import { useAppStore } from '../../store/app-context'
import { selectServiceInfo } from '../../store/selectors'

/*
 * The API key the Tests tab calls the test routes with. Held in memory for this session only
 * (never stored, never shown): test runs call the agent over /stream with it.
 */
let testsKey: string | null = null
const listeners = new Set<() => void>()

export function setTestsKey(key: string | null): void {
  testsKey = key
  for (const listener of [...listeners]) listener()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

/** The test routes' client once a key was given; null before. */
export function useTestsApi(): TestsApi | null {
  const key = useSyncExternalStore(subscribe, () => testsKey)
  const info = useAppStore(selectServiceInfo)
  // The UI served by the service calls its own origin; the desktop app calls where /v1 listens.
  const baseUrl = info === null ? null : info.host === 'browser' ? '' : info.url
  return useMemo(() => (key === null || baseUrl === null ? null : createTestsApi({ baseUrl, apiKey: key })), [key, baseUrl])
}
