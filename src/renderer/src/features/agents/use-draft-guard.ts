import { useEffect, useRef } from 'react'
import { useStoreApi } from '../../store/app-context'

interface DraftGuardOptions {
  agentId: string
  agentName: string
  /** The draft is not the saved agent. */
  differs: boolean
  save(): Promise<boolean>
}

/**
 * Keeps an unsaved draft from vanishing: the store learns of it (so leaving asks first), closing
 * or reloading the page asks too (beforeunload), and Ctrl+S / Cmd+S saves wherever focus is.
 */
export function useDraftGuard({ agentId, agentName, differs, save }: DraftGuardOptions): void {
  const store = useStoreApi()
  // The latest save, for the key handler registered once.
  const saveRef = useRef(save)
  useEffect(() => {
    saveRef.current = save
  })

  useEffect(() => {
    store.getState().setUnsavedDraft(differs ? { agentId, agentName } : null)
  }, [store, agentId, agentName, differs])
  // The editor going away (the draft was discarded or saved) leaves nothing unsaved behind.
  useEffect(() => () => store.getState().setUnsavedDraft(null), [store])

  useEffect(() => {
    if (!differs) return undefined
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault()
      // Older browsers (and Electron's prompt) need returnValue set.
      event.returnValue = ''
    }
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => window.removeEventListener('beforeunload', onBeforeUnload)
  }, [differs])

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== 's' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return
      // Not the browser's "Save page as".
      event.preventDefault()
      // A dialog open on top (leaving, deleting) has its own buttons.
      if (document.querySelector('dialog[open]')) return
      void saveRef.current()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])
}
