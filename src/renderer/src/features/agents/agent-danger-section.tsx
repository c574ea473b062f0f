import { useState } from 'react'
import type { OperatorAgent } from '../../../../shared/ipc/operations'
import { useT } from '../../i18n/use-t'
import { forgetDraft } from '../../lib/draft-storage'
import { useCall, useStoreApi } from '../../store/app-context'
import { Icon } from '../../ui/icon'
import { ConfirmDialog } from '../../ui/modal-dialog'
import { EditorSection } from './editor-section'

/** Deleting the agent, once confirmed; its kept draft goes with it. */
export function AgentDangerSection({ agent }: { agent: OperatorAgent }) {
  const t = useT()
  const call = useCall()
  const store = useStoreApi()
  const [confirmDelete, setConfirmDelete] = useState(false)

  const remove = async () => {
    try {
      await call('agents.delete', { id: agent.id })
      store.getState().removeAgent(agent.id)
      forgetDraft(window.localStorage, agent.id)
      store.getState().setUnsavedDraft(null)
      store.getState().openAgent(null)
      store.getState().toast('success', t('agent.deleted', { name: agent.agentName }))
    } catch (error) {
      store.getState().toastError(error)
    }
  }

  return (
    <EditorSection id="sec-danger" title={t('agent.sectionDanger')} className="danger-zone">
      <button type="button" className="button danger" onClick={() => setConfirmDelete(true)}>
        <Icon name="trash" size={16} />
        <span>{t('agent.delete')}</span>
      </button>
      <ConfirmDialog
        open={confirmDelete}
        title={t('agent.deleteTitle', { name: agent.agentName })}
        explanation={t('agent.deleteExplain')}
        confirmLabel={t('agent.deleteConfirm')}
        onConfirm={() => void remove()}
        onCancel={() => setConfirmDelete(false)}
      />
    </EditorSection>
  )
}
