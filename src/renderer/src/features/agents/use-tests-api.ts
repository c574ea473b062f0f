import { useMemo } from 'react'
import { createTestsApi, type TestsApi } from '../../api/tests-api'
import { useCall } from '../../store/app-context'

/** The Tests tab's client: the operator bridge's tests.* operations (IPC in the desktop app, /ipc in /app/). */
export function useTestsApi(): TestsApi {
  const call = useCall()
  return useMemo(() => createTestsApi(call), [call])
}
