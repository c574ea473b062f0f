import { useCallback, useEffect, useRef, useState } from 'react'
import type { AgentVersion, AgentVersionSummary } from '../../../../shared/api/agent-versions'
import type { OperatorAgent } from '../../../../shared/ipc/operations'
import { useT } from '../../i18n/use-t'
import { errorText, isUnreachable } from '../../lib/readable-errors'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'

/** Versions per page of the History tab ("Show more" fetches the next). */
export const HISTORY_PAGE = 20

interface VersionList {
  items: AgentVersionSummary[]
  total: number
  loading: boolean
  loadingMore: boolean
  error: string | null
}

type ChosenVersion = { state: 'loading' } | { state: 'loaded'; version: AgentVersion } | { state: 'failed'; error: string }

/**
 * An agent's History tab: its versions (newest first, a page at a time), the one chosen read
 * whole, and restoring it. Versions never change once made, so a version read is kept; the list
 * is read again whenever the agent changes (a save, a restore), which adds a version on top, and
 * the agent with it (a change over /v1 reaches the app only so). `onAgentChanged` gets the agent as
 * it is now, once the store holds it (the editor starts again from it).
 */
export function useAgentHistory(agent: OperatorAgent, onAgentChanged: (agent: OperatorAgent) => void) {
  const t = useT()
  const call = useCall()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const [list, setList] = useState<VersionList>({ items: [], total: 0, loading: true, loadingMore: false, error: null })
  const [chosen, setChosen] = useState<number | null>(null)
  const [versions, setVersions] = useState<Record<number, ChosenVersion>>({})
  const [restoring, setRestoring] = useState(false)
  const pagesRead = useRef(0)

  const loadFirst = useCallback(async () => {
    setList((current) => ({ ...current, loading: true, error: null }))
    try {
      const [page, now] = await Promise.all([
        call('agents.versions', { id: agent.id, take: HISTORY_PAGE, skip: 1 }),
        call('agents.get', { id: agent.id }),
      ])
      // Changed elsewhere (over /v1) since the app read it: the agent now is what versions are compared with.
      // Not under an unsaved draft: the editor's changes are counted from the agent it started from.
      const drafting = store.getState().ui.unsavedDraft?.agentId === agent.id
      if (now.updatedAt !== agent.updatedAt && !drafting) {
        store.getState().upsertAgent(now)
        onAgentChanged(now)
      }
      pagesRead.current = 1
      setList({ items: page.versions, total: page.total, loading: false, loadingMore: false, error: null })
      // The version before this one is the first worth comparing; an agent with one version has only it.
      setChosen((current) => current ?? page.versions[1]?.version ?? page.versions[0]?.version ?? null)
    } catch (error) {
      setList((current) => ({ ...current, loading: false, error: errorText(error, locale) }))
    }
  }, [call, store, agent.id, agent.updatedAt, onAgentChanged, locale])

  // Read again when the agent changes: its updatedAt moves with every new version.
  useEffect(() => {
    void loadFirst()
  }, [loadFirst])

  const loadMore = async () => {
    if (list.loadingMore) return
    setList((current) => ({ ...current, loadingMore: true }))
    try {
      const page = await call('agents.versions', { id: agent.id, take: HISTORY_PAGE, skip: pagesRead.current + 1 })
      pagesRead.current += 1
      setList((current) => {
        // Versions made since the first page shift the pages: a version already shown is not shown twice.
        const shown = new Set(current.items.map((item) => item.version))
        const items = [...current.items, ...page.versions.filter((item) => !shown.has(item.version))]
        return { ...current, items, total: page.total, loadingMore: false }
      })
    } catch (error) {
      setList((current) => ({ ...current, loadingMore: false }))
      store.getState().toastError(error)
    }
  }

  const readVersion = useCallback(
    async (version: number) => {
      setVersions((current) => ({ ...current, [version]: { state: 'loading' } }))
      try {
        const read = await call('agents.version', { id: agent.id, version })
        setVersions((current) => ({ ...current, [version]: { state: 'loaded', version: read } }))
      } catch (error) {
        setVersions((current) => ({ ...current, [version]: { state: 'failed', error: errorText(error, locale) } }))
      }
    },
    [call, agent.id, locale],
  )
  const chosenVersion = chosen === null ? null : versions[chosen]
  useEffect(() => {
    if (chosen !== null && chosenVersion === undefined) void readVersion(chosen)
  }, [chosen, chosenVersion, readVersion])

  /** Answers whether the agent now holds the version's settings. */
  const restore = async (version: number): Promise<boolean> => {
    if (restoring) return false
    setRestoring(true)
    try {
      const restored = await call('agents.restoreVersion', { id: agent.id, version })
      store.getState().upsertAgent(restored)
      onAgentChanged(restored)
      const page = await call('agents.versions', { id: agent.id, take: 1, skip: 1 }).catch(() => null)
      store
        .getState()
        .toast('success', t('history.restored', { n: version, name: restored.agentName, m: page?.versions[0]?.version ?? list.total + 1 }))
      return true
    } catch (error) {
      if (isUnreachable(error)) store.getState().toast('error', t('history.restoreUnreachable'))
      else store.getState().toastError(error)
      return false
    } finally {
      setRestoring(false)
    }
  }

  return {
    list,
    chosen,
    choose: setChosen,
    chosenVersion: chosenVersion ?? null,
    retryVersion: readVersion,
    reload: loadFirst,
    loadMore,
    restore,
    restoring,
  }
}
