import { useEffect, useRef, useState } from 'react'
import type { OperatorAgent } from '../../../../shared/ipc/operations'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectUnsavedDraft } from '../../store/selectors'
import { TextField } from '../../ui/field'
import { Icon } from '../../ui/icon'
import { EXAMPLE_TOOL, initialParams, loadToolDrafts, saveToolDrafts, toolProblems, toolsForCall, type ToolDraft } from './test-call-setup'
import { activityOf, LiveCall } from './live-call-view'
import { isRunning, useLiveTestCall } from './live-test-call'
import { ToolStubEditors } from './tool-stub-editors'
import { CallSoftphone } from './call-softphone'
import type { CallMode } from './use-test-call'

/**
 * The Test call panel of one agent: the call's settings, then the live call. The call itself is
 * LiveTestCallProvider's (above the screens): this panel shows it when it is this agent's, and
 * says when it is in view (`shown`) so that the call bar steps aside.
 */
export function TestCallPanel({ agent, shown }: { agent: OperatorAgent; shown: boolean }) {
  const t = useT()
  const live = useLiveTestCall()
  const { call, showPanel } = live
  const mine = live.agent?.id === agent.id
  const unsaved = useAppStore(selectUnsavedDraft)
  // Back on a call made before: its values, not the agent's (Change the settings shows them).
  const [params, setParams] = useState<Record<string, string>>(() => ({
    ...initialParams(agent),
    ...(mine ? call.input?.params : undefined),
  }))
  const [tools, setToolsState] = useState<ToolDraft[]>(() => loadToolDrafts(window.localStorage, agent.id))
  const [showProblems, setShowProblems] = useState(false)
  // A spoken call asked for while no speech recognition engine is set: say so first, and offer typing or the settings.
  const [noSpeechRecognition, setNoSpeechRecognition] = useState(false)
  const callService = useCall()
  const store = useStoreApi()
  const setTools = (next: ToolDraft[]) => {
    setToolsState(next)
    saveToolDrafts(window.localStorage, agent.id, next)
    if (mine) call.setTools(next)
  }
  const panelRef = useRef<HTMLDivElement>(null)
  const state = mine ? call.state : null
  // Another agent's call that runs: one call at a time, ended there first (never silently here).
  const otherRunning = !mine && live.agent !== null && isRunning(call) ? (call.state?.agentName ?? live.agent.name) : null

  useEffect(() => (shown ? showPanel(agent.id) : undefined), [shown, showPanel, agent.id])

  /** Talk first checks that words can be recognised: without an engine the agent would only hear that you speak. */
  const requestStart = async (mode: CallMode) => {
    if (mode === 'talk' && otherRunning === null) {
      const settings = await callService('settings.get', {}).catch(() => null)
      if (settings?.speechRecognition.engine === 'off') return setNoSpeechRecognition(true)
    }
    start(mode)
  }

  const start = (mode: CallMode) => {
    setNoSpeechRecognition(false)
    if (otherRunning !== null) return
    if (tools.some((tool) => toolProblems(tool, tools).length > 0)) {
      setShowProblems(true)
      requestAnimationFrame(() => panelRef.current?.querySelector<HTMLElement>('.test-call-tools [aria-invalid="true"]')?.focus())
      return
    }
    setShowProblems(false)
    live.start({ id: agent.id, name: agent.agentName }, mode, { agentId: agent.id, params, tools: toolsForCall(tools) }, tools)
  }

  return (
    <div ref={panelRef} className="test-call" data-reply-ms={mine ? call.replyLatencies.map((ms) => ms.toFixed(1)).join(',') : ''}>
      {state === null ? (
        <CallSetup
          agentId={agent.id}
          params={params}
          onParams={setParams}
          tools={tools}
          onTools={setTools}
          showProblems={showProblems}
          unsaved={unsaved?.agentId === agent.id}
          otherRunning={otherRunning}
          onStart={(mode) => void requestStart(mode)}
          onTalkAnyway={() => start('talk')}
          noSpeechRecognition={noSpeechRecognition}
          onOpenSettings={() => store.getState().navigate('settings')}
        />
      ) : (
        <LiveCall
          state={state}
          microphone={call.microphone}
          hungUp={call.hungUp}
          lastReplyMs={call.replyLatencies.at(-1) ?? null}
          tools={tools}
          onTools={setTools}
          onSay={call.say}
          onMute={call.setMuted}
          onEnd={call.hangUp}
          onAgain={() => start(call.mode ?? 'type')}
          onChange={call.reset}
        />
      )}
      <span className="visually-hidden" aria-live="polite">
        {state ? t(`testCall.activity.${activityOf(state)}` as MessageKey) : ''}
      </span>
    </div>
  )
}

interface CallSetupProps {
  agentId: string
  params: Record<string, string>
  onParams(params: Record<string, string>): void
  tools: ToolDraft[]
  onTools(tools: ToolDraft[]): void
  showProblems: boolean
  unsaved: boolean
  /** The agent of a call that runs now (another agent's): none can start here until it ends. */
  otherRunning: string | null
  onStart(mode: CallMode): void
  /** Talk was asked for with no speech recognition engine set: the offer to type or set one up shows. */
  noSpeechRecognition: boolean
  onOpenSettings(): void
  onTalkAnyway(): void
}

function CallSetup({
  agentId,
  params,
  onParams,
  tools,
  onTools,
  showProblems,
  unsaved,
  otherRunning,
  onStart,
  noSpeechRecognition,
  onOpenSettings,
  onTalkAnyway,
}: CallSetupProps) {
  const t = useT()
  const names = Object.keys(params)
  const invalidTools = tools.some((tool) => toolProblems(tool, tools).length > 0)
  return (
    <div className="test-call-setup">
      <p className="muted">{t('testCall.intro')}</p>
      {unsaved ? <p className="field-hint warn">{t('testCall.usesSaved')}</p> : null}
      {otherRunning !== null ? (
        <p className="field-hint warn" data-testid="test-call-other-running">
          {t('testCall.otherRunning', { name: otherRunning })}
        </p>
      ) : null}
      <div className="toolbar test-call-start">
        <button
          type="button"
          className="button primary"
          data-testid="test-call-talk"
          aria-disabled={otherRunning !== null || undefined}
          onClick={() => onStart('talk')}
        >
          <Icon name="mic" size={16} />
          <span>{t('testCall.talk')}</span>
        </button>
        <button
          type="button"
          className="button"
          data-testid="test-call-type"
          aria-disabled={otherRunning !== null || undefined}
          onClick={() => onStart('type')}
        >
          <Icon name="keyboard" size={16} />
          <span>{t('testCall.type')}</span>
        </button>
        <span className="muted small">{t('testCall.startHint')}</span>
      </div>
      {noSpeechRecognition ? (
        <div className="field-hint warn" role="alert" data-testid="test-call-no-stt">
          <p>{t('testCall.noStt')}</p>
          <div className="toolbar">
            <button type="button" className="button primary" data-testid="test-call-no-stt-type" onClick={() => onStart('type')}>
              <Icon name="keyboard" size={16} />
              <span>{t('testCall.noStt.type')}</span>
            </button>
            <button type="button" className="button" data-testid="test-call-no-stt-settings" onClick={onOpenSettings}>
              <span>{t('testCall.noStt.settings')}</span>
            </button>
            <button type="button" className="button" data-testid="test-call-no-stt-talk" onClick={onTalkAnyway}>
              <span>{t('testCall.noStt.talkAnyway')}</span>
            </button>
          </div>
        </div>
      ) : null}
      <CallSoftphone agentId={agentId} />
      {showProblems && invalidTools ? (
        <p className="field-error" role="alert">
          {t('testCall.toolsInvalid')}
        </p>
      ) : null}
      <fieldset className="fieldset">
        <legend>{t('testCall.params')}</legend>
        <p className="field-hint">{t('testCall.paramsHint')}</p>
        {names.length === 0 ? <p className="muted small">{t('testCall.noParams')}</p> : null}
        <div className="test-call-params">
          {Object.entries(params).map(([name, value]) => (
            <TextField
              key={name}
              label={<code>{`{{${name}}}`}</code>}
              value={value}
              maxLength={2_000}
              data-param={name}
              hintWarns
              hint={value.trim() === '' ? <span data-testid="param-empty">{t('testCall.paramEmpty')}</span> : undefined}
              onChange={(next) => onParams({ ...params, [name]: next })}
            />
          ))}
        </div>
      </fieldset>
      <fieldset className="fieldset">
        <legend>{t('testCall.tools')}</legend>
        <p className="field-hint">{t('testCall.toolsHint')}</p>
        {tools.length === 0 ? <p className="muted small">{t('testCall.noTools')}</p> : null}
        <ToolStubEditors tools={tools} onChange={onTools} stubsOnly={false} />
        <div>
          <button type="button" className="button" onClick={() => onTools([...tools, { ...EXAMPLE_TOOL, name: uniqueName(tools) }])}>
            <Icon name="plus" size={16} />
            <span>{t('testCall.addTool')}</span>
          </button>
        </div>
      </fieldset>
    </div>
  )
}

function uniqueName(tools: readonly ToolDraft[]): string {
  const taken = new Set(tools.map((tool) => tool.name))
  if (!taken.has(EXAMPLE_TOOL.name)) return EXAMPLE_TOOL.name
  for (let n = 2; ; n += 1) if (!taken.has(`${EXAMPLE_TOOL.name}_${n}`)) return `${EXAMPLE_TOOL.name}_${n}`
}
