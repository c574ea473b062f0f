import { useEffect, useMemo, useRef, useState } from 'react'
import type { PhoneNumber } from '../../../../shared/api/phone-numbers'
import { AGENT_LIMITS, LANGS } from '../../../../shared/api/voice-agents'
import type { OperatorAgent } from '../../../../shared/ipc/operations'
import { isOperatorError } from '../../api/operator-error'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { diffAgentDraft, draftDiffers, draftFromAgent, paramsOf, type AgentDraft, type DraftProblem } from '../../lib/agent-draft'
import { forgetDraft, keepDraft, keptDraftToOffer } from '../../lib/draft-storage'
import { fieldErrorsOf } from '../../lib/field-errors'
import { fillPlaceholders } from '../../../../shared/text/placeholders'
import { formatDateTime } from '../../lib/format'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectLocale, selectPendingLeave } from '../../store/selectors'
import { Field, FieldErrors } from '../../ui/field'
import { Icon } from '../../ui/icon'
import { ConfirmDialog } from '../../ui/modal-dialog'
import { focusFirstError } from '../../ui/focus-first-error'
import { LeaveDraftDialog } from './leave-draft-dialog'
import { useDraftGuard } from './use-draft-guard'
import { OutcomeShapeEditor } from './outcome-shape-editor'
import { ParamsEditor } from './params-editor'
import { PlaceholderChips, PlaceholderPreview } from './placeholder-preview'
import { PlaceholderTextarea } from './placeholder-textarea'
import { PokeMessagesEditor } from './poke-messages-editor'
import { VoicePicker } from './voice-picker'

const PROBLEM_KEYS: Record<DraftProblem['problem'], MessageKey> = {
  duplicateParam: 'problem.duplicateParam',
  wholeSeconds: 'problem.wholeSeconds',
  invalidShape: 'problem.invalidShape',
  secretNeeded: 'problem.secretNeeded',
}

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

/** Every editable property of one agent. Save sends only what changed; refusals are shown beside their fields. */
export function AgentEditor({ agent }: { agent: OperatorAgent }) {
  const t = useT()
  const call = useCall()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const [draft, setDraft] = useState<AgentDraft>(() => draftFromAgent(agent))
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({})
  const [shownProblems, setShownProblems] = useState<DraftProblem[]>([])
  const [saving, setSaving] = useState(false)
  const [confirmDelete, setConfirmDelete] = useState(false)
  // A draft kept from before (the service restarted, the page reloaded, a new link): offered back once.
  const [keptOffer, setKeptOffer] = useState(() => keptDraftToOffer(window.localStorage, agent))

  const pendingLeave = useAppStore(selectPendingLeave)
  const formRef = useRef<HTMLFormElement>(null)

  const diff = useMemo(() => diffAgentDraft(agent, draft), [agent, draft])
  const differs = useMemo(() => draftDiffers(agent, draft), [agent, draft])
  const params = useMemo(() => paramsOf(draft.params), [draft.params])
  const assigned = useAssignedNumbers(agent.id)

  const set = <K extends keyof AgentDraft>(key: K, value: AgentDraft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }))
    // A field the operator touches again loses its old refusal.
    const field = key === 'voiceId' ? 'voiceId' : key === 'outcomeShapeText' ? 'outcomeResponseShape' : key.startsWith('webhookAuth') ? 'webhookAuth' : key
    setServerErrors((current) => {
      if (!(field in current)) return current
      const { [field]: _gone, ...rest } = current
      return rest
    })
    setShownProblems((current) => current.filter((problem) => problem.field !== field))
  }

  const errorsOf = (field: string): string[] => [
    ...shownProblems.filter((problem) => problem.field === field).map((problem) => t(PROBLEM_KEYS[problem.problem], { detail: problem.detail ?? '' })),
    ...(serverErrors[field] ?? []),
  ]

  /** Answers whether the draft is saved now (nothing to save counts as saved). */
  const save = async (): Promise<boolean> => {
    if (!differs) return true
    if (saving) return false
    if (diff.problems.length > 0) {
      setShownProblems(diff.problems)
      requestAnimationFrame(() => focusFirstError(formRef.current))
      return false
    }
    setSaving(true)
    try {
      const saved = await call('agents.update', { id: agent.id, changes: diff.changes })
      store.getState().upsertAgent(saved)
      // Forgotten now, not by the effect: "Save and continue" may unmount the editor before it runs.
      forgetDraft(window.localStorage, agent.id)
      setServerErrors({})
      setShownProblems([])
      setDraft(draftFromAgent(saved))
      store.getState().toast('success', t('agent.saved', { name: saved.agentName }))
      return true
    } catch (error) {
      if (isOperatorError(error) && error.details.length > 0) {
        setServerErrors(fieldErrorsOf(error.details, locale))
        store.getState().toast('error', t('agent.saveRefused'))
        requestAnimationFrame(() => focusFirstError(formRef.current))
      } else store.getState().toastError(error)
      return false
    } finally {
      setSaving(false)
    }
  }
  const revert = () => {
    setDraft(draftFromAgent(agent))
    setServerErrors({})
    setShownProblems([])
  }
  useDraftGuard({ agentId: agent.id, agentName: agent.agentName, differs, save })
  // Every change is kept in the page's storage; a draft back to the saved agent (saved, reverted) is forgotten.
  // While the kept draft waits for the operator's answer it is left as it is.
  useEffect(() => {
    if (keptOffer) return
    if (differs) keepDraft(window.localStorage, agent.id, draft)
    else forgetDraft(window.localStorage, agent.id)
  }, [keptOffer, differs, draft, agent.id])
  const restoreKept = () => {
    if (keptOffer) setDraft(keptOffer)
    setKeptOffer(null)
  }
  const discardKept = () => {
    forgetDraft(window.localStorage, agent.id)
    setKeptOffer(null)
  }

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

  const addParam = (name: string) => set('params', [...draft.params, { key: name, value: '' }])
  const generalErrors = serverErrors[''] ?? []

  return (
    <form
      ref={formRef}
      className="editor"
      aria-label={t('agent.editorLabel', { name: agent.agentName })}
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      <header className="editor-header">
        <div>
          <h2 dir="auto">
            {agent.agentName}
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
          <button type="button" className="button ghost" aria-disabled={!differs || undefined} onClick={() => differs && revert()}>
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
      {keptOffer ? (
        <div className="draft-offer" role="alert" data-testid="draft-offer">
          <p>{t('draft.restoreTitle', { name: agent.agentName })}</p>
          <div className="toolbar">
            <button type="button" className="button" onClick={discardKept}>
              {t('draft.restoreDiscard')}
            </button>
            <button type="button" className="button primary" onClick={restoreKept}>
              {t('draft.restore')}
            </button>
          </div>
        </div>
      ) : null}
      <FieldErrors errors={generalErrors} />

      <section className="card" aria-labelledby="sec-identity">
        <h3 id="sec-identity">{t('agent.sectionIdentity')}</h3>
        <div className="grid-2">
          <Field label={t('agent.name')} errors={errorsOf('agentName')}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                className="input"
                dir="auto"
                value={draft.agentName}
                maxLength={AGENT_LIMITS.agentName}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                onChange={(event) => set('agentName', event.target.value)}
              />
            )}
          </Field>
          <Field label={t('agent.lang')} errors={errorsOf('lang')}>
            {({ id, describedBy, invalid }) => (
              <select
                id={id}
                className="input"
                value={draft.lang}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                onChange={(event) => set('lang', event.target.value as AgentDraft['lang'])}
              >
                {LANGS.map((lang) => (
                  <option key={lang} value={lang}>
                    {t(lang === 'ar' ? 'lang.ar' : 'lang.en')}
                  </option>
                ))}
              </select>
            )}
          </Field>
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
      </section>

      <section className="card" aria-labelledby="sec-conversation">
        <h3 id="sec-conversation">{t('agent.sectionConversation')}</h3>
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
              <PlaceholderTextarea id={id} rows={8} value={draft.preamble} params={params} describedBy={describedBy} invalid={invalid} onChange={(text) => set('preamble', text)} />
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
          <Field label={t('agent.silence')} hint={t('agent.silenceHint')} errors={errorsOf('silenceThreshold')}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                className="input narrow"
                type="number"
                inputMode="numeric"
                min={AGENT_LIMITS.silenceThresholdMin}
                max={AGENT_LIMITS.silenceThresholdMax}
                step={1}
                value={draft.silenceThreshold}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                onChange={(event) => set('silenceThreshold', event.target.value)}
              />
            )}
          </Field>
          <fieldset className="fieldset checks">
            <legend>{t('agent.behaviour')}</legend>
            <label className="check">
              <input type="checkbox" checked={draft.interrupt} onChange={(event) => set('interrupt', event.target.checked)} />
              <span>{t('agent.interrupt')}</span>
            </label>
            <label className="check">
              <input type="checkbox" checked={draft.realTime} onChange={(event) => set('realTime', event.target.checked)} />
              <span>{t('agent.realTime')}</span>
            </label>
            <FieldErrors errors={[...errorsOf('interrupt'), ...errorsOf('realTime')]} />
          </fieldset>
        </div>
        <fieldset className="fieldset checks">
          <legend>{t('agent.tools')}</legend>
          {diff.changes.tools ? <p className="field-hint">{t('agent.toolsWillSend')}</p> : null}
          <label className="check">
            <input type="checkbox" checked={draft.tools.genderDetection} onChange={(event) => set('tools', { ...draft.tools, genderDetection: event.target.checked })} />
            <span>{t('agent.toolGender')}</span>
          </label>
          <label className="check">
            <input type="checkbox" checked={draft.tools.smartCallEnd} onChange={(event) => set('tools', { ...draft.tools, smartCallEnd: event.target.checked })} />
            <span>{t('agent.toolSmartEnd')}</span>
          </label>
          <FieldErrors errors={errorsOf('tools')} />
        </fieldset>
      </section>

      <section className="card" aria-labelledby="sec-outcome">
        <h3 id="sec-outcome">{t('agent.sectionOutcome')}</h3>
        <Field label={t('agent.outcome')} hint={t('agent.outcomeHint')} errors={errorsOf('outcome')}>
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              className="input"
              dir="auto"
              rows={4}
              maxLength={AGENT_LIMITS.outcome}
              value={draft.outcome}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              onChange={(event) => set('outcome', event.target.value)}
            />
          )}
        </Field>
        <Field label={t('agent.shape')} hint={t('agent.shapeHint')} errors={errorsOf('outcomeResponseShape')}>
          {({ id, describedBy }) => <OutcomeShapeEditor id={id} value={draft.outcomeShapeText} describedBy={describedBy} onChange={(text) => set('outcomeShapeText', text)} />}
        </Field>
      </section>

      <section className="card" aria-labelledby="sec-webhook">
        <h3 id="sec-webhook">{t('agent.sectionWebhook')}</h3>
        <Field label={t('agent.webhookUrl')} hint={t('agent.webhookUrlHint')} errors={errorsOf('webhookUrl')}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              className="input"
              dir="ltr"
              type="url"
              placeholder="https://example.com/hooks/voicedesk"
              value={draft.webhookUrl}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              onChange={(event) => set('webhookUrl', event.target.value)}
            />
          )}
        </Field>
        <div className="grid-2">
          <Field label={t('agent.authKey')} hint={t('agent.authKeyHint')} errors={errorsOf('webhookAuth')}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                className="input"
                dir="ltr"
                autoComplete="off"
                placeholder="Bearer"
                value={draft.webhookAuthKey}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                onChange={(event) => set('webhookAuthKey', event.target.value)}
              />
            )}
          </Field>
          <Field label={t('agent.authSecret')} hint={agent.webhookAuth ? t('agent.authSecretKept') : undefined}>
            {({ id, describedBy }) => (
              <input
                id={id}
                className="input"
                dir="ltr"
                type="password"
                autoComplete="new-password"
                placeholder={agent.webhookAuth ? agent.webhookAuth.authSecret : ''}
                value={draft.webhookAuthSecret}
                aria-describedby={describedBy}
                onChange={(event) => set('webhookAuthSecret', event.target.value)}
              />
            )}
          </Field>
        </div>
      </section>

      <section className="card danger-zone" aria-labelledby="sec-danger">
        <h3 id="sec-danger">{t('agent.sectionDanger')}</h3>
        <button type="button" className="button danger" onClick={() => setConfirmDelete(true)}>
          <Icon name="trash" size={16} />
          <span>{t('agent.delete')}</span>
        </button>
      </section>

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
      <ConfirmDialog
        open={confirmDelete}
        title={t('agent.deleteTitle', { name: agent.agentName })}
        explanation={t('agent.deleteExplain')}
        confirmLabel={t('agent.deleteConfirm')}
        onConfirm={() => void remove()}
        onCancel={() => setConfirmDelete(false)}
      />
    </form>
  )
}
