import { useEffect, useState } from 'react'
import type { PhoneNumber } from '../../../../shared/api/phone-numbers'
import type { OperatorAgent } from '../../../../shared/ipc/operations'
import { useT } from '../../i18n/use-t'
import { formatDateTime } from '../../lib/format'
import { useAppStore, useCall } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'

/** The numbers that ring this agent, asked of the service (the numbers list may not hold them all). */
function useAssignedNumbers(agentId: string): { items: PhoneNumber[]; more: number } {
  const call = useCall()
  const [assigned, setAssigned] = useState<{ items: PhoneNumber[]; more: number }>({ items: [], more: 0 })
  useEffect(() => {
    let current = true
    call('numbers.list', { voiceAgentId: agentId, take: 20, skip: 1 }).then(
      (answer) => current && setAssigned({ items: answer.phoneNumbers, more: answer.filtered - answer.phoneNumbers.length }),
      // A side note of the header: on failure it names no numbers (the numbers screen shows the error).
      () => {},
    )
    return () => {
      current = false
    }
  }, [agentId, call])
  return assigned
}

interface AgentEditorHeaderProps {
  agent: OperatorAgent
  differs: boolean
  saving: boolean
  onRevert(): void
}

/** The agent's name (marked while unsaved), when it was saved and the numbers that ring it; Revert and Save. */
export function AgentEditorHeader({ agent, differs, saving, onRevert }: AgentEditorHeaderProps) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const assigned = useAssignedNumbers(agent.id)
  return (
    <header className="editor-header">
      <div>
        {/* As in the agents list: the name in its own direction, the heading aligned as the page. */}
        <h2>
          <bdi>{agent.agentName}</bdi>
          {differs ? (
            <span className="tag unsaved-tag" data-testid="unsaved-mark">
              {t('draft.unsaved')}
            </span>
          ) : null}
        </h2>
        <p className="muted small">
          {t('agent.updatedAt', { when: formatDateTime(agent.updatedAt, locale) })}
          {assigned.items.length > 0 ? (
            <>
              {' · '}
              {t('agent.numbers', { numbers: '' })}
              <bdi dir="ltr">{assigned.items.map((number) => number.number).join(', ')}</bdi>
              {assigned.more > 0 ? ` ${t('numbers.moreAgentNumbers', { n: assigned.more })}` : null}
            </>
          ) : null}
        </p>
      </div>
      <div className="toolbar">
        {/* aria-disabled, not disabled: a button that disables itself would drop the focus. */}
        <button type="button" className="button ghost" aria-disabled={!differs || undefined} onClick={() => differs && onRevert()}>
          {t('common.revert')}
        </button>
        <button
          type="submit"
          className="button primary"
          aria-disabled={!differs || saving || undefined}
          aria-busy={saving || undefined}
          aria-keyshortcuts="Control+S Meta+S"
          title={t('draft.saveShortcut')}
        >
          {saving ? t('common.saving') : t('common.save')}
        </button>
      </div>
    </header>
  )
}

/** A draft kept from before, offered back: Restore or Discard. */
export function KeptDraftOffer({ agentName, onRestore, onDiscard }: { agentName: string; onRestore(): void; onDiscard(): void }) {
  const t = useT()
  return (
    <div className="draft-offer" role="alert" data-testid="draft-offer">
      <p>{t('draft.restoreTitle', { name: agentName })}</p>
      <div className="toolbar">
        <button type="button" className="button" onClick={onDiscard}>
          {t('draft.restoreDiscard')}
        </button>
        <button type="button" className="button primary" onClick={onRestore}>
          {t('draft.restore')}
        </button>
      </div>
    </div>
  )
}
