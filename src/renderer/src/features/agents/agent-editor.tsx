import { useMemo } from 'react'
import type { OperatorAgent } from '../../../../shared/ipc/operations'
import { useT } from '../../i18n/use-t'
import { paramsOf } from '../../lib/agent-draft'
import { forgetDraft } from '../../lib/draft-storage'
import { useAppStore, useStoreApi } from '../../store/app-context'
import { selectPendingLeave } from '../../store/selectors'
import { FieldErrors } from '../../ui/field'
import { AgentConversationSection } from './agent-conversation-section'
import { AgentDangerSection } from './agent-danger-section'
import { AgentEditorHeader, KeptDraftOffer } from './agent-editor-header'
import { AgentIdentitySection } from './agent-identity-section'
import { AgentOutcomeSection } from './agent-outcome-section'
import { AgentWebhookSection } from './agent-webhook-section'
import { LeaveDraftDialog } from './leave-draft-dialog'
import { useAgentForm } from './use-agent-form'
import { SubmitForm } from '../../ui/submit-form'

/** Every editable property of one agent, a section a card. Save sends only what changed; refusals are shown beside their fields. */
export function AgentEditor({ agent }: { agent: OperatorAgent }) {
  const t = useT()
  const store = useStoreApi()
  const pendingLeave = useAppStore(selectPendingLeave)
  const { formRef, draft, set, errorsOf, bind, save, revert, saving, differs, diff, kept, generalErrors } = useAgentForm(agent)
  const params = useMemo(() => paramsOf(draft.params), [draft.params])
  const sectionProps = { draft, set, errorsOf, bind }

  return (
    <SubmitForm
      ref={formRef}
      className="editor"
      aria-label={t('agent.editorLabel', { name: agent.agentName })}
      noValidate
      onSubmit={() => void save()}
    >
      <AgentEditorHeader agent={agent} differs={differs} saving={saving} onRevert={revert} />
      {kept ? <KeptDraftOffer agentName={agent.agentName} onRestore={kept.restore} onDiscard={kept.discard} /> : null}
      <FieldErrors errors={generalErrors} />

      <AgentIdentitySection {...sectionProps} params={params} />
      <AgentConversationSection {...sectionProps} params={params} toolsWillSend={diff.changes.tools !== undefined} />
      <AgentOutcomeSection {...sectionProps} />
      <AgentWebhookSection {...sectionProps} savedAuth={agent.webhookAuth} />
      <AgentDangerSection agent={agent} />

      <LeaveDraftDialog
        open={pendingLeave !== null}
        agentName={agent.agentName}
        saving={saving}
        onSave={() => void save().then((saved) => store.getState().resolvePendingLeave(saved ? 'leave' : 'stay'))}
        onDiscard={() => {
          forgetDraft(window.localStorage, agent.id)
          store.getState().resolvePendingLeave('leave')
        }}
        onStay={() => store.getState().resolvePendingLeave('stay')}
      />
    </SubmitForm>
  )
}
