import { useEffect, useRef, useState } from 'react'
import { useT } from '../../i18n/use-t'
import { formatCount } from '../../lib/format'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { AGENTS_PAGE } from '../../store/agents-slice'
import { SearchBox, ShowMoreButton } from '../../ui/list-controls'
import { selectAgentById, selectAgents, selectLocale, selectOpenAgentId, selectUnsavedDraft } from '../../store/selectors'
import { TextField } from '../../ui/field'
import { Icon } from '../../ui/icon'
import { LoadError } from '../../ui/load-error'
import { listShows } from '../../store/list-shows'
import { DialogActions, ModalDialog } from '../../ui/modal-dialog'
import { AgentViews } from './agent-views'
import { langTag } from '../../lib/voice-text'
import { SubmitForm } from '../../ui/submit-form'
import type { OperatorAgent } from '../../../../shared/ipc/operations'

/** Agents: a searchable list beside the editor of the open one. */
export function AgentsScreen() {
  const t = useT()
  const store = useStoreApi()
  const call = useCall()
  const agents = useAppStore(selectAgents)
  const openId = useAppStore(selectOpenAgentId)
  const open = useAppStore(selectAgentById(openId))
  const locale = useAppStore(selectLocale)
  const unsaved = useAppStore(selectUnsavedDraft)
  const [search, setSearch] = useState(agents.search)
  const [creating, setCreating] = useState(false)

  const listRef = useRef<HTMLUListElement>(null)
  useEffect(() => {
    const timer = setTimeout(() => void store.getState().loadAgents(search), 200)
    return () => clearTimeout(timer)
  }, [search, store])
  // An agent opened from elsewhere (a fresh clone) that the list has not shown yet.
  useEffect(() => {
    if (openId && !open) {
      call('agents.get', { id: openId }).then(
        (agent) => store.getState().upsertAgent(agent),
        (error: unknown) => store.getState().toastError(error),
      )
    }
  }, [openId, open, call, store])

  /**
   * The next page, appended. The button stays focusable while it loads (aria-disabled, not
   * disabled, which would drop focus); when it goes (all shown), focus moves to the first new agent.
   */
  const showMore = async (button: HTMLButtonElement) => {
    const before = store.getState().agents.items.length
    await store.getState().loadMoreAgents()
    if (!button.isConnected) listRef.current?.querySelectorAll<HTMLButtonElement>('.item')[before]?.focus()
  }

  const searching = agents.search.trim() !== ''
  const count = searching
    ? t('agents.countSearch', {
        shown: formatCount(agents.items.length, locale),
        filtered: formatCount(agents.filtered, locale),
        total: formatCount(agents.total, locale),
      })
    : t('agents.count', { shown: formatCount(agents.items.length, locale), total: formatCount(agents.filtered, locale) })

  const shows = listShows(agents)
  return (
    <div className="split">
      <section className="list-pane" aria-labelledby="agents-title">
        <header className="pane-header">
          <h1 id="agents-title">{t('agents.title')}</h1>
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            <Icon name="plus" size={16} />
            <span>{t('agents.new')}</span>
          </button>
        </header>
        <SearchBox value={search} label={t('agents.search')} placeholder={t('agents.searchPlaceholder')} onChange={setSearch} />
        <p className="muted small" aria-live="polite">
          {shows === 'loading' || agents.loading ? t('common.loading') : agents.error ? null : count}
        </p>
        {agents.error && !agents.loading ? <LoadError error={agents.error} onRetry={() => void store.getState().loadAgents()} /> : null}
        <ul ref={listRef} className="item-list" aria-label={t('agents.title')}>
          {agents.items.map((agent) => (
            <AgentItem key={agent.id} agent={agent} open={agent.id === openId} unsaved={unsaved?.agentId === agent.id} />
          ))}
        </ul>
        <ShowMoreButton list={agents} pageSize={AGENTS_PAGE} onShowMore={showMore} />
        {shows === 'empty' ? <NoAgents searching={searching} /> : null}
      </section>
      <section className="detail-pane" aria-label={t('agents.editor')}>
        {open ? (
          <AgentViews key={open.id} agent={open} />
        ) : (
          <div className="empty center">
            <Icon name="bot" size={32} />
            <p>{t('agents.pick')}</p>
          </div>
        )}
      </section>
      <NewAgentDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  )
}

/** One agent of the list: its name (a dot while it has unsaved changes), language and voice. */
function AgentItem({ agent, open, unsaved }: { agent: OperatorAgent; open: boolean; unsaved: boolean }) {
  const t = useT()
  const store = useStoreApi()
  return (
    <li>
      <button type="button" className="item" aria-current={open ? 'true' : undefined} onClick={() => store.getState().openAgent(agent.id)}>
        {/* The name isolated in its own direction (bdi), the line aligned as the page: an English name sits on the right in Arabic. */}
        <span className="item-title">
          <bdi>{agent.agentName}</bdi>
          {unsaved ? (
            <span className="unsaved-dot" role="img" aria-label={t('draft.unsavedInList')} title={t('draft.unsavedInList')} />
          ) : null}
        </span>
        <span className="item-meta">
          <span className="tag">{langTag(agent.lang, t)}</span> <bdi>{agent.voiceRecord.name}</bdi>
        </span>
      </button>
    </li>
  )
}

/** An empty list: no agent matches the search, or there is none yet (the templates make one). */
function NoAgents({ searching }: { searching: boolean }) {
  const t = useT()
  const store = useStoreApi()
  if (searching) {
    return (
      <div className="empty">
        <p>{t('agents.noMatch')}</p>
      </div>
    )
  }
  return (
    <div className="empty">
      <p>{t('agents.empty')}</p>
      <button type="button" className="button" onClick={() => store.getState().navigate('templates')}>
        {t('agents.browseTemplates')}
      </button>
    </div>
  )
}

/** "New agent": a name, then the agent is made and opened. */
function NewAgentDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const t = useT()
  const store = useStoreApi()
  const call = useCall()
  const [name, setName] = useState('')
  const create = async () => {
    try {
      const agent = await call('agents.create', { agentName: name.trim() })
      store.getState().upsertAgent(agent)
      store.getState().openAgent(agent.id)
      onClose()
      setName('')
    } catch (error) {
      store.getState().toastError(error)
    }
  }
  return (
    <ModalDialog
      open={open}
      title={t('agents.newTitle')}
      onClose={onClose}
      actions={<DialogActions onCancel={onClose} label={t('agents.create')} form="new-agent-form" disabled={name.trim() === ''} />}
    >
      <SubmitForm id="new-agent-form" onSubmit={() => void create()}>
        <TextField label={t('agent.name')} data-autofocus value={name} onChange={setName} />
      </SubmitForm>
    </ModalDialog>
  )
}
