import { useCallback, useEffect, useRef, useState } from 'react'
import type { TestRun } from '../../../../shared/api/test-suites'
import type { TestsApi } from '../../api/tests-api'
import { errorText } from '../../lib/readable-errors'
import { useAppStore } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'

/** How often a RUNNING run is read again. */
export const RUN_POLL_MS = 500

/**
 * The Tests tab's run: started from the stored suite, then read every RUN_POLL_MS while it is
 * RUNNING (results come in as scenarios end); `onFinished` once it is PASSED or FAILED.
 */
export function useTestRun(api: TestsApi, agentId: string, onFinished: () => void) {
  const locale = useAppStore(selectLocale)
  const [run, setRun] = useState<TestRun | null>(null)
  const [runId, setRunId] = useState<string | null>(null)
  const [starting, setStarting] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const finished = useRef(onFinished)
  useEffect(() => {
    finished.current = onFinished
  }, [onFinished])

  useEffect(() => {
    if (runId === null) return
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const read = async () => {
      try {
        const latest = await api.getRun(runId)
        if (stopped) return
        setRun(latest)
        setError(null)
        if (latest.status !== 'RUNNING') return finished.current()
      } catch (failure) {
        if (stopped) return
        // Said, and tried again: a service that comes back shows the run where it got to.
        setError(errorText(failure, locale))
      }
      timer = setTimeout(() => void read(), RUN_POLL_MS)
    }
    void read()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [api, runId, locale])

  const start = useCallback(
    async (concurrency: number, repeat: number) => {
      setStarting(true)
      setError(null)
      try {
        const started = await api.startRun(agentId, { concurrency, repeat })
        setRun(null)
        setRunId(started.id)
      } catch (failure) {
        setError(errorText(failure, locale))
      } finally {
        setStarting(false)
      }
    },
    [api, agentId, locale],
  )

  /** Shows a past run (from History) as the current one. */
  const show = useCallback((id: string) => {
    setRun(null)
    setRunId(id)
  }, [])

  return { run, runId, starting, error, start, show, running: starting || (runId !== null && (run === null || run.status === 'RUNNING')) }
}
