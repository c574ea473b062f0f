import { AGENT_LIMITS } from '../../../../shared/api/voice-agents'
import { useT } from '../../i18n/use-t'
import { Field, TextField } from '../../ui/field'
import { EditorSection } from './editor-section'
import { OutcomeShapeEditor } from './outcome-shape-editor'
import type { AgentSectionProps } from './use-agent-form'

/** What the agent reports after a call: the outcome it is asked for and the JSON shape of the answer. */
export function AgentOutcomeSection({ draft, set, errorsOf, bind }: AgentSectionProps) {
  const t = useT()
  return (
    <EditorSection id="sec-outcome" title={t('agent.sectionOutcome')}>
      <TextField label={t('agent.outcome')} hint={t('agent.outcomeHint')} {...bind('outcome')} rows={4} maxLength={AGENT_LIMITS.outcome} />
      <Field label={t('agent.shape')} hint={t('agent.shapeHint')} errors={errorsOf('outcomeResponseShape')}>
        {({ id, describedBy }) => (
          <OutcomeShapeEditor
            id={id}
            value={draft.outcomeShapeText}
            describedBy={describedBy}
            onChange={(text) => set('outcomeShapeText', text)}
          />
        )}
      </Field>
    </EditorSection>
  )
}
