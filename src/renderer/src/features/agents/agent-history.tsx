import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { AgentVersionSummary } from '../../../../shared/api/agent-versions'
import type { OperatorAgent } from '../../../../shared/ipc/operations'
import { useT, type Translate } from '../../i18n/use-t'
import { agentChanges, versionOrigin } from '../../lib/agent-version-diff'
import { formatCount, formatDateTime } from '../../lib/format'
import { useAppStore } from '../../store/app-context'
import { selectLocale, selectUnsavedDraft } from '../../store/selectors'
import { LoadError } from '../../ui/load-error'
import { DialogActions, ModalDialog } from '../../ui/modal-dialog'
import { HISTORY_PAGE, useAgentHistory } from './use-agent-history'
import { VersionDiff } from './version-diff'

/** Where a version came from, in words; a clone names its source when the app knows it. */
function originText(source: string, t: Translate, nameOf: (id: string) => string): string {
  const origin = versionOrigin(source)
  switch (origin.kind) {
    case 'clone':
      // A name or an id in either script, set apart for the bidirectional algorithm (first-strong isolate).
      return t('history.origin.clone', { source: `\u2068${nameOf(origin.sourceId)}\u2069` })
    case 'restore':
      return t('history.origin.restore', { n: origin.version })
    case 'other':
      return t('history.origin.other', { source: `\u2068${origin.source}\u2069` })
    default:
      return t(`history.origin.${origin.kind}`)
  }
}

/**
 * An agent's History tab: its versions, newest first (the newest is the agent now), and the
 * chosen one against the agent now, field by field, with Restore. Arrow keys move along the list.
 */
export function AgentHistory({ agent, onAgentChanged }: { agent: OperatorAgent; onAgentChanged(agent: OperatorAgent): void }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const unsaved = useAppStore(selectUnsavedDraft)
  const agents = useAppStore((state) => state.agents.items)
  const templates = useAppStore((state) => state.templates.items)
  const history = useAgentHistory(agent, onAgentChanged)
  const [confirming, setConfirming] = useState(false)
  const listRef = useRef<HTMLOListElement>(null)
  const { list, chosen, chosenVersion } = history

  const nameOf = (id: string) =>
    agents.find((item) => item.id === id)?.agentName ?? templates.find((item) => item.id === id)?.agentName ?? id
  const changes = useMemo(
    () => (chosenVersion?.state === 'loaded' ? agentChanges(chosenVersion.version.agent, agent) : []),
    [chosenVersion, agent],
  )

  const onListKeyDown = (event: KeyboardEvent<HTMLOListElement>) => {
    const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button.version-item')]
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement)
    const next =
      event.key === 'ArrowDown'
        ? at + 1
        : event.key === 'ArrowUp'
          ? at - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? buttons.length - 1
              : null
    if (next === null || at === -1) return
    event.preventDefault()
    const target = buttons[Math.max(0, Math.min(buttons.length - 1, next))]
    target?.focus()
    target?.click()
  }

  /** Where focus goes once the next page is shown: the first new version, when the button went with it (all shown). */
  const focusAfterMore = useRef<number | null>(null)
  // After the commit that shows the page (a frame after the load may come before it on a busy machine).
  useLayoutEffect(() => {
    const at = focusAfterMore.current
    if (at === null || list.items.length <= at) return
    focusAfterMore.current = null
    const active = document.activeElement
    if (active !== null && active !== document.body && active.isConnected) return
    listRef.current?.querySelectorAll<HTMLButtonElement>('button.version-item')[at]?.focus()
  }, [list.items.length])

  /** The next page; when the button goes (all shown), focus moves to the first new version rather than being lost. */
  const showMore = async () => {
    focusAfterMore.current = list.items.length
    await history.loadMore()
  }

  if (list.error && list.items.length === 0)
    return <LoadError error={list.error} failed={t('history.loadFailed')} onRetry={() => void history.reload()} />

  const newest = list.items[0]?.version
  return (
    <div className="history" data-testid="agent-history">
      <section className="history-versions" aria-labelledby="history-versions-title">
        <h3 id="history-versions-title">{t('history.versions')}</h3>
        <p className="muted small" aria-live="polite">
          {list.loading && list.items.length === 0
            ? t('common.loading')
            : t('history.count', { shown: formatCount(list.items.length, locale), total: formatCount(list.total, locale) })}
        </p>
        {list.error ? <LoadError error={list.error} failed={t('history.loadFailed')} onRetry={() => void history.reload()} /> : null}
        <ol ref={listRef} className="version-list" onKeyDown={onListKeyDown}>
          {list.items.map((item, index) => (
            <VersionItem
              key={item.version}
              item={item}
              chosen={item.version === chosen}
              focusable={item.version === chosen || (index === 0 && !list.items.some((other) => other.version === chosen))}
              isNow={item.version === newest}
              origin={originText(item.source, t, nameOf)}
              when={formatDateTime(item.createdAt, locale)}
              onChoose={() => history.choose(item.version)}
            />
          ))}
        </ol>
        {list.items.length < list.total ? (
          <button type="button" className="button show-more" aria-disabled={list.loadingMore || undefined} onClick={() => void showMore()}>
            {list.loadingMore
              ? t('common.loading')
              : t('common.showMore', { n: formatCount(Math.min(HISTORY_PAGE, list.total - list.items.length), locale) })}
          </button>
        ) : null}
        {!list.loading && list.total === 1 ? <p className="muted small">{t('history.onlyFirst')}</p> : null}
      </section>

      <section className="history-diff" aria-labelledby="history-diff-title" aria-live="polite">
        {chosen === null ? (
          <p className="muted">{list.loading ? t('common.loading') : t('history.pick')}</p>
        ) : (
          <>
            <header className="history-diff-header">
              <h3 id="history-diff-title">{t('history.diffTitle', { n: chosen })}</h3>
              <button
                type="button"
                className="button primary"
                data-testid="history-restore"
                disabled={chosenVersion?.state !== 'loaded' || changes.length === 0 || history.restoring}
                onClick={() => setConfirming(true)}
              >
                {history.restoring ? t('history.restoring') : t('history.restore', { n: chosen })}
              </button>
            </header>
            {chosenVersion === null || chosenVersion.state === 'loading' ? <p className="muted">{t('common.loading')}</p> : null}
            {chosenVersion?.state === 'failed' ? (
              <LoadError
                error={chosenVersion.error}
                failed={t('history.versionFailed', { n: chosen })}
                onRetry={() => void history.retryVersion(chosen)}
              />
            ) : null}
            {chosenVersion?.state === 'loaded' ? (
              changes.length === 0 ? (
                <p className="muted">{t('history.same', { n: chosen })}</p>
              ) : (
                <>
                  <p className="muted small">{t('history.changes', { n: formatCount(changes.length, locale) })}</p>
                  <VersionDiff changes={changes} version={chosen} />
                </>
              )
            ) : null}
          </>
        )}
      </section>

      <ModalDialog
        open={confirming && chosen !== null}
        title={t('history.restoreTitle', { n: chosen ?? '' })}
        onClose={() => setConfirming(false)}
        actions={
          <DialogActions
            onCancel={() => setConfirming(false)}
            label={t('history.restoreConfirm')}
            onConfirm={() => {
              setConfirming(false)
              if (chosen !== null) void history.restore(chosen)
            }}
          />
        }
      >
        <p>{t('history.restoreExplain', { n: chosen ?? '', name: agent.agentName })}</p>
        {unsaved?.agentId === agent.id ? <p className="warning-note">{t('history.restoreDraft')}</p> : null}
      </ModalDialog>
    </div>
  )
}

function VersionItem(props: {
  item: AgentVersionSummary
  chosen: boolean
  /** The one version of the list in the tab order (the chosen one): arrows move within. */
  focusable: boolean
  isNow: boolean
  origin: string
  when: string
  onChoose(): void
}) {
  const t = useT()
  const { item, chosen, focusable, isNow, origin, when, onChoose } = props
  return (
    <li>
      <button
        type="button"
        className="version-item"
        aria-pressed={chosen}
        tabIndex={focusable ? 0 : -1}
        data-version={item.version}
        onClick={onChoose}
      >
        <span className="version-number">
          {t('history.version', { n: item.version })}
          {isNow ? <span className="badge">{t('history.now')}</span> : null}
        </span>
        <span className="version-origin">{origin}</span>
        <time className="muted small" dateTime={item.createdAt}>
          {when}
        </time>
      </button>
    </li>
  )
}
