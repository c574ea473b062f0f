import { useCallback, useEffect, useState } from 'react'
import type { TestRun } from '../../../../shared/api/test-suites'
import type { TestsApi } from '../../api/tests-api'
import { errorText } from '../../lib/readable-errors'
import { useAppStore } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'

/** Past runs shown in the Tests tab's history. */
export const TEST_HISTORY_TAKE = 20

/** An agent's past runs, newest first; read again when a run ends. */
export function useTestHistory(api: TestsApi, agentId: string) {
  const locale = useAppStore(selectLocale)
  const [state, setState] = useState<{ runs: TestRun[]; loading: boolean; error: string | null }>({
    runs: [],
    loading: true,
    error: null,
  })

  // `loading` is the first read only: a later one keeps the runs shown until the new list comes.
  const reload = useCallback(async () => {
    try {
      const runs = await api.listRuns(agentId, TEST_HISTORY_TAKE)
      setState({ runs, loading: false, error: null })
    } catch (failure) {
      setState((current) => ({ ...current, loading: false, error: errorText(failure, locale) }))
    }
  }, [api, agentId, locale])

  useEffect(() => {
    void reload()
  }, [reload])

  return { ...state, reload }
}
