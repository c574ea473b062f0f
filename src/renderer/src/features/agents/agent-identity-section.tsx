import { AGENT_LIMITS, LANGS } from '../../../../shared/api/voice-agents'
import { fillPlaceholders } from '../../../../shared/text/placeholders'
import { useT } from '../../i18n/use-t'
import type { AgentDraft } from '../../lib/agent-draft'
import { Field, Options, SelectField, TextField } from '../../ui/field'
import { EditorSection } from './editor-section'
import type { AgentSectionProps } from './use-agent-form'
import { VoicePicker } from './voice-picker'

/** Who the agent is: its name, its language and its voice (heard saying the greeting). */
export function AgentIdentitySection({ draft, set, errorsOf, bind, params }: AgentSectionProps & { params: Record<string, string> }) {
  const t = useT()
  return (
    <EditorSection id="sec-identity" title={t('agent.sectionIdentity')}>
      <div className="grid-2">
        <TextField label={t('agent.name')} {...bind('agentName')} maxLength={AGENT_LIMITS.agentName} />
        <SelectField
          label={t('agent.lang')}
          errors={errorsOf('lang')}
          value={draft.lang}
          onChange={(value) => set('lang', value as AgentDraft['lang'])}
        >
          <Options values={LANGS} label={(lang) => t(lang === 'ar' ? 'lang.ar' : 'lang.en')} />
        </SelectField>
      </div>
      <Field label={t('agent.voice')} errors={errorsOf('voiceId')}>
        {({ id, describedBy }) => (
          <VoicePicker
            id={id}
            value={draft.voiceId}
            lang={draft.lang}
            describedBy={describedBy}
            onChange={(voiceId) => set('voiceId', voiceId)}
            sampleText={fillPlaceholders(draft.greetingMessage, params)}
          />
        )}
      </Field>
    </EditorSection>
  )
}
