import { useState } from 'react'
import { errorText } from '../../lib/readable-errors'
import { useAppStore, useStoreApi } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'

/**
 * Making a job from a dialog: busy while it is made, a failure in words in the dialog, and on
 * success a toast, the monitor refreshed and the new job opened (then `done`, which closes).
 */
export function useJobCreation() {
  const locale = useAppStore(selectLocale)
  const store = useStoreApi()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const create = async (make: () => Promise<{ id: string }>, successText: string, done: () => void) => {
    setBusy(true)
    setError(null)
    try {
      const job = await make()
      store.getState().toast('success', successText)
      store.getState().refreshJobs()
      store.getState().selectJob(job.id)
      done()
    } catch (caught) {
      setError(errorText(caught, locale))
    } finally {
      setBusy(false)
    }
  }

  return { busy, error, setError, create }
}
