import { AGENT_LIMITS } from '../../../../shared/api/voice-agents'
import { useT } from '../../i18n/use-t'
import { Check, Field, FieldErrors, TextField } from '../../ui/field'
import { ParamsEditor } from './params-editor'
import { PlaceholderChips, PlaceholderPreview } from './placeholder-preview'
import { PlaceholderTextarea } from './placeholder-textarea'
import { PokeMessagesEditor } from './poke-messages-editor'
import type { AgentSectionProps } from './use-agent-form'
import { EditorSection } from './editor-section'

/** A number field of whole units within the API's bounds (the arrows step by one; the page's direction, as numbers read). */
const wholeNumberInput = (min: number, max: number) =>
  ({ inputClassName: 'narrow', dir: 'inherit', type: 'number', inputMode: 'numeric', min, max, step: 1 }) as const

interface AgentConversationSectionProps extends AgentSectionProps {
  params: Record<string, string>
  /** Whether saving now sends the tools (said above them: the service takes them whole). */
  toolsWillSend: boolean
}

/** What the agent says and how it listens: greeting, preamble, their parameters, pokes, silence, behaviour and tools. */
export function AgentConversationSection({ draft, set, errorsOf, bind, params, toolsWillSend }: AgentConversationSectionProps) {
  const t = useT()
  const addParam = (name: string) => set('params', [...draft.params, { key: name, value: '' }])
  return (
    <EditorSection id="sec-conversation" title={t('agent.sectionConversation')}>
      <Field label={t('agent.greeting')} hint={t('agent.placeholderHint')} errors={errorsOf('greetingMessage')}>
        {({ id, describedBy, invalid }) => (
          <>
            <PlaceholderTextarea
              id={id}
              rows={3}
              maxLength={AGENT_LIMITS.greetingMessage}
              value={draft.greetingMessage}
              params={params}
              describedBy={describedBy}
              invalid={invalid}
              onChange={(text) => set('greetingMessage', text)}
            />
            <PlaceholderChips template={draft.greetingMessage} params={params} onAdd={addParam} />
            <PlaceholderPreview template={draft.greetingMessage} params={params} label={t('agent.greetingPreview')} />
          </>
        )}
      </Field>
      <Field label={t('agent.preamble')} errors={errorsOf('preamble')}>
        {({ id, describedBy, invalid }) => (
          <>
            <PlaceholderTextarea
              id={id}
              rows={8}
              value={draft.preamble}
              params={params}
              describedBy={describedBy}
              invalid={invalid}
              onChange={(text) => set('preamble', text)}
            />
            <PlaceholderChips template={draft.preamble} params={params} onAdd={addParam} />
            <details className="preview-details">
              <summary>{t('agent.preamblePreview')}</summary>
              <PlaceholderPreview template={draft.preamble} params={params} label={t('agent.preamblePreview')} />
            </details>
          </>
        )}
      </Field>
      <fieldset className="fieldset">
        <legend>{t('agent.params')}</legend>
        <ParamsEditor rows={draft.params} onChange={(rows) => set('params', rows)} />
        <FieldErrors errors={errorsOf('params')} />
      </fieldset>
      <fieldset className="fieldset">
        <legend>{t('agent.pokes')}</legend>
        <PokeMessagesEditor messages={draft.pokeMessages} onChange={(messages) => set('pokeMessages', messages)} />
        <FieldErrors errors={errorsOf('pokeMessages')} />
      </fieldset>
      <div className="grid-2">
        <TextField
          label={t('agent.silence')}
          hint={t('agent.silenceHint')}
          {...bind('silenceThreshold')}
          inputClassName="narrow"
          dir="inherit"
          type="number"
          inputMode="numeric"
          min={AGENT_LIMITS.silenceThresholdMin}
          max={AGENT_LIMITS.silenceThresholdMax}
          step={1}
        />
        <fieldset className="fieldset checks">
          <legend>{t('agent.behaviour')}</legend>
          <Check label={t('agent.interrupt')} checked={draft.interrupt} onChange={(checked) => set('interrupt', checked)} />
          <Check label={t('agent.realTime')} checked={draft.realTime} onChange={(checked) => set('realTime', checked)} />
          <FieldErrors errors={[...errorsOf('interrupt'), ...errorsOf('realTime')]} />
        </fieldset>
      </div>
      <div className="grid-2">
        <TextField
          label={t('agent.endOfTurnSilence')}
          hint={t('agent.endOfTurnSilenceHint', { min: AGENT_LIMITS.endOfTurnSilenceMsMin, max: AGENT_LIMITS.endOfTurnSilenceMsMax })}
          {...bind('endOfTurnSilenceMs')}
          {...wholeNumberInput(AGENT_LIMITS.endOfTurnSilenceMsMin, AGENT_LIMITS.endOfTurnSilenceMsMax)}
        />
        <TextField
          label={t('agent.maxCallerTurn')}
          hint={t('agent.maxCallerTurnHint', { min: AGENT_LIMITS.maxCallerTurnSecondsMin, max: AGENT_LIMITS.maxCallerTurnSecondsMax })}
          {...bind('maxCallerTurnSeconds')}
          {...wholeNumberInput(AGENT_LIMITS.maxCallerTurnSecondsMin, AGENT_LIMITS.maxCallerTurnSecondsMax)}
        />
      </div>
      <fieldset className="fieldset checks">
        <legend>{t('agent.tools')}</legend>
        {toolsWillSend ? <p className="field-hint">{t('agent.toolsWillSend')}</p> : null}
        <Check
          label={t('agent.toolGender')}
          checked={draft.tools.genderDetection}
          onChange={(checked) => set('tools', { ...draft.tools, genderDetection: checked })}
        />
        <Check
          label={t('agent.toolSmartEnd')}
          checked={draft.tools.smartCallEnd}
          onChange={(checked) => set('tools', { ...draft.tools, smartCallEnd: checked })}
        />
        <FieldErrors errors={errorsOf('tools')} />
      </fieldset>
    </EditorSection>
  )
}
