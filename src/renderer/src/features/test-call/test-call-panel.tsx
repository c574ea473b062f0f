import { useEffect, useId, useMemo, useRef, useState } from 'react'
import type { OperatorAgent } from '../../../../shared/ipc/operations'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { formatCount } from '../../lib/format'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectLocale, selectUnsavedDraft } from '../../store/selectors'
import { Icon } from '../../ui/icon'
import { StatusBadge } from '../../ui/status-badge'
import { EXAMPLE_TOOL, initialParams, loadToolDrafts, saveToolDrafts, toolProblems, toolsForCall, type ToolDraft } from './test-call-setup'
import { formatCallTime, outcomeFields, type LiveCallState, type ToolCallView } from './test-call-state'
import { ToolStubEditors } from './tool-stub-editors'
import { endReasonText, isRunning, useLiveTestCall } from './live-test-call'
import type { CallMode, MicrophoneState } from './use-test-call'
import { OperatorError } from '../../api/operator-error'
import { errorText } from '../../lib/readable-errors'

const json = (value: unknown) => JSON.stringify(value, null, 2) ?? 'undefined'

/** Notices the service sends by code; an unknown code shows the service's own words. */
const NOTICE_KEYS: Record<string, MessageKey> = {
  STT_ENGINE_NOT_CONFIGURED: 'testCall.info.sttOff',
  STT_FAILED: 'testCall.info.sttFailed',
  INVALID_FRAME: 'testCall.info.invalidFrame',
  CALL_LOST: 'testCall.info.callLost',
}

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
  const [params, setParams] = useState<Record<string, string>>(() => ({ ...initialParams(agent), ...(mine ? call.input?.params : undefined) }))
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

function activityOf(state: LiveCallState): string {
  if (state.phase === 'connecting') return 'connecting'
  if (state.phase === 'ended') return 'ended'
  if (state.phase === 'failed') return 'failed'
  return state.activity ?? 'listening'
}

interface CallSetupProps {
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

function CallSetup({ params, onParams, tools, onTools, showProblems, unsaved, otherRunning, onStart, noSpeechRecognition, onOpenSettings, onTalkAnyway }: CallSetupProps) {
  const t = useT()
  const id = useId()
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
        <button type="button" className="button primary" data-testid="test-call-talk" aria-disabled={otherRunning !== null || undefined} onClick={() => onStart('talk')}>
          <Icon name="mic" size={16} />
          <span>{t('testCall.talk')}</span>
        </button>
        <button type="button" className="button" data-testid="test-call-type" aria-disabled={otherRunning !== null || undefined} onClick={() => onStart('type')}>
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
          {names.map((name, index) => {
            const empty = params[name]!.trim() === ''
            return (
              <div key={name} className="field">
                <label htmlFor={`${id}-param-${index}`}>
                  <code>{`{{${name}}}`}</code>
                </label>
                <input
                  id={`${id}-param-${index}`}
                  className="input"
                  dir="auto"
                  value={params[name]}
                  maxLength={2_000}
                  data-param={name}
                  aria-invalid={empty || undefined}
                  aria-describedby={empty ? `${id}-param-${index}-empty` : undefined}
                  onChange={(event) => onParams({ ...params, [name]: event.target.value })}
                />
                {empty ? (
                  <span id={`${id}-param-${index}-empty`} className="field-hint warn" data-testid="param-empty">
                    {t('testCall.paramEmpty')}
                  </span>
                ) : null}
              </div>
            )
          })}
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

interface LiveCallProps {
  state: LiveCallState
  microphone: MicrophoneState
  /** The operator hung up (said as such, though the service records the caller's hang-up). */
  hungUp: boolean
  lastReplyMs: number | null
  tools: ToolDraft[]
  onTools(tools: ToolDraft[]): void
  onSay(text: string): void
  onMute(muted: boolean): void
  onEnd(): void
  onAgain(): void
  onChange(): void
}

function LiveCall({ state, microphone, hungUp, lastReplyMs, tools, onTools, onSay, onMute, onEnd, onAgain, onChange }: LiveCallProps) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const [typed, setTyped] = useState('')
  const typeRef = useRef<HTMLInputElement>(null)
  const againRef = useRef<HTMLButtonElement>(null)
  const transcriptRef = useRef<HTMLOListElement>(null)
  const over = state.phase === 'ended' || state.phase === 'failed'
  const activity = activityOf(state)

  // Focus follows the call: the typing field while it runs, "Call again" once it is over.
  useEffect(() => {
    if (over) againRef.current?.focus()
    else typeRef.current?.focus()
  }, [over])
  // The newest line in view, scrolling the transcript alone (never the pane or the shell).
  useEffect(() => {
    const list = transcriptRef.current
    if (list) list.scrollTop = list.scrollHeight
  }, [state.transcript.length, state.saying])

  const send = () => {
    const text = typed.trim()
    if (text === '' || over) return
    onSay(text)
    setTyped('')
  }

  return (
    <div className="test-call-live">
      <div className="test-call-bar">
        <span className={`activity activity-${activity}`} data-testid="test-call-activity" data-activity={activity}>
          <span className="activity-dot" aria-hidden="true" />
          {t(`testCall.activity.${activity}` as MessageKey)}
        </span>
        <MicrophoneStatus microphone={microphone} />
        {lastReplyMs !== null ? <span className="muted small">{t('testCall.lastReply', { ms: formatCount(Math.round(lastReplyMs), locale) })}</span> : null}
        <div className="toolbar test-call-actions">
          {!over && microphone.kind === 'on' ? (
            <button type="button" className="button" aria-pressed={microphone.muted} onClick={() => onMute(!microphone.muted)}>
              <Icon name={microphone.muted ? 'mic-off' : 'mic'} size={16} />
              <span>{microphone.muted ? t('testCall.unmute') : t('testCall.mute')}</span>
            </button>
          ) : null}
          {!over ? (
            <button type="button" className="button danger" data-testid="test-call-end" onClick={onEnd}>
              <Icon name="phone-off" size={16} />
              <span>{t('testCall.end')}</span>
            </button>
          ) : (
            <>
              <button ref={againRef} type="button" className="button primary" data-testid="test-call-again" onClick={onAgain}>
                <Icon name="refresh" size={16} />
                <span>{t('testCall.again')}</span>
              </button>
              <button type="button" className="button" onClick={onChange}>
                {t('testCall.change')}
              </button>
            </>
          )}
          {state.jobId ? (
            <a className="button ghost" href={`#/jobs/${state.jobId}`} data-testid="test-call-monitor">
              {t('testCall.openInMonitor')}
            </a>
          ) : null}
        </div>
      </div>

      {microphone.kind === 'problem' ? (
        <p className="field-hint warn" role="alert" data-testid="test-call-mic-problem">
          {t(`testCall.mic.${microphone.problem}` as MessageKey)}
        </p>
      ) : null}
      {state.failure ? (
        <p className="field-error" role="alert" data-testid="test-call-failure">
          {t('testCall.failed')} <bdi dir="auto">{errorText(new OperatorError(state.failure), locale)}</bdi>
        </p>
      ) : null}
      {state.notices.length > 0 ? (
        <ul className="plain-list test-call-notices" aria-label={t('testCall.notices')}>
          {state.notices.map((notice, index) => (
            <li key={index} className="field-hint warn" data-code={notice.code}>
              {NOTICE_KEYS[notice.code] ? t(NOTICE_KEYS[notice.code]!) : <bdi dir="auto">{notice.message}</bdi>}
            </li>
          ))}
        </ul>
      ) : null}
      {state.end ? (
        <p className="test-call-end" data-testid="test-call-ended" data-end-reason={state.end.endReason} data-hung-up-by={hungUp ? 'operator' : undefined}>
          <StatusBadge status={state.end.status} /> {endReasonText(t, state.end, hungUp)}{' '}
          <span className="muted">{t('testCall.duration', { n: formatCallTime(state.end.duration) })}</span>
          {state.end.error ? (
            <>
              {' '}
              {t(`jobError.${state.end.error.code}`)}{' '}
              <span className="muted small" lang="en" dir="auto">
                {state.end.error.message}
              </span>
            </>
          ) : null}
        </p>
      ) : null}

      <div className="test-call-columns">
        <section className="test-call-conversation" aria-label={t('testCall.transcript')}>
          <h3>{t('testCall.transcript')}</h3>
          <ol ref={transcriptRef} className="plain-list test-call-transcript" data-testid="test-call-transcript" tabIndex={0} aria-label={t('testCall.transcript')}>
            {state.transcript.map((entry, index) =>
              entry.kind === 'barge-in' ? (
                <li key={index} className="transcript-mark" data-kind="barge-in">
                  <span className="tag">{formatCallTime(entry.at)}</span> {t('testCall.bargeIn')}
                </li>
              ) : (
                <li key={index} className={`transcript-turn role-${entry.turn.role}`} data-role={entry.turn.role} data-kind={entry.turn.kind ?? 'speech'}>
                  <span className="tag">{formatCallTime(entry.turn.startTime)}</span> <strong>{entry.turn.role === 'agent' ? t('calls.agent') : t('calls.caller')}</strong>
                  {entry.turn.kind === 'typed' ? <span className="tag">{t('testCall.typed')}</span> : null}
                  {entry.turn.kind === 'poke' ? <span className="tag tag-warn">{t('testCall.poke')}</span> : null}{' '}
                  {entry.turn.unrecognised ? <em className="muted">{t('calls.unrecognised')}</em> : <span dir="auto">{entry.turn.content}</span>}
                  {entry.turn.interrupted ? <em className="muted"> {t('calls.interrupted')}</em> : null}
                </li>
              ),
            )}
            {state.saying ? (
              <li className="transcript-saying" data-testid="test-call-saying">
                <span className="tag">{t('testCall.saying')}</span> <span dir="auto">{state.saying}</span>
              </li>
            ) : null}
          </ol>
          <form
            className="test-call-type"
            onSubmit={(event) => {
              event.preventDefault()
              send()
            }}
          >
            <input
              ref={typeRef}
              className="input"
              dir="auto"
              value={typed}
              maxLength={4_000}
              aria-label={t('testCall.typeLabel')}
              placeholder={t('testCall.typePlaceholder')}
              data-testid="test-call-input"
              aria-disabled={over || undefined}
              readOnly={over}
              onChange={(event) => setTyped(event.target.value)}
            />
            <button type="submit" className="button" aria-disabled={over || typed.trim() === '' || undefined}>
              {t('testCall.send')}
            </button>
          </form>
        </section>

        {/* Focusable so that the keyboard can scroll it when it holds no control. */}
        <div className="test-call-side" tabIndex={0} role="group" aria-label={`${t('testCall.outcome')} · ${t('testCall.toolCalls')}`}>
          <OutcomeView state={state} />
          <section aria-label={t('testCall.toolCalls')}>
            <h3>{t('testCall.toolCalls')}</h3>
            {state.toolCalls.length === 0 ? <p className="muted small">{t('testCall.noToolCalls')}</p> : null}
            <ul className="plain-list test-call-tool-calls">
              {state.toolCalls.map((toolCall) => (
                <ToolCallItem key={toolCall.id} call={toolCall} />
              ))}
            </ul>
            {tools.length > 0 && !over ? (
              <details className="preview-details" open>
                <summary>{t('testCall.stubs')}</summary>
                <ToolStubEditors tools={tools} onChange={onTools} stubsOnly />
              </details>
            ) : null}
          </section>
        </div>
      </div>
    </div>
  )
}

function MicrophoneStatus({ microphone }: { microphone: MicrophoneState }) {
  const t = useT()
  if (microphone.kind === 'problem') return null
  const key: MessageKey =
    microphone.kind === 'on' ? (microphone.muted ? 'testCall.mic.muted' : 'testCall.mic.on') : microphone.kind === 'starting' ? 'testCall.mic.starting' : 'testCall.mic.off'
  return (
    <span className="muted small test-call-mic" data-mic={microphone.kind === 'on' && microphone.muted ? 'muted' : microphone.kind}>
      <Icon name={microphone.kind === 'on' && !microphone.muted ? 'mic' : 'mic-off'} size={14} /> {t(key)}
    </span>
  )
}

function OutcomeView({ state }: { state: LiveCallState }) {
  const t = useT()
  const fields = useMemo(() => outcomeFields(state.outcomeShape, state.outcome?.result), [state.outcomeShape, state.outcome])
  const outcome = state.outcome
  return (
    <section aria-label={t('testCall.outcome')} data-testid="test-call-outcome" data-final={outcome?.final ? 'true' : 'false'}>
      <h3>
        {t('testCall.outcome')}{' '}
        {outcome ? <span className={`tag ${outcome.final ? 'tag-ok' : ''}`}>{outcome.final ? t('testCall.outcomeFinal') : t('testCall.outcomeSoFar')}</span> : null}{' '}
        {outcome?.complete === true ? <span className="tag tag-ok">{t('testCall.outcomeComplete')}</span> : null}
        {outcome?.complete === false ? <span className="tag tag-warn">{t('testCall.outcomeIncomplete')}</span> : null}
      </h3>
      {state.phase !== 'connecting' && state.outcomeShape === null ? <p className="muted small">{t('testCall.noOutcomeShape')}</p> : null}
      {fields ? (
        <dl className="test-call-outcome">
          {fields.map((field) => (
            <div key={field.name} className={field.filled ? 'filled' : 'unfilled'} data-field={field.name} data-filled={field.filled}>
              <dt>
                <code>{field.name}</code>
                {field.required ? <span className="tag">{t('testCall.required')}</span> : null}
              </dt>
              <dd>
                {field.filled ? (
                  typeof field.value === 'string' ? (
                    <bdi dir="auto">{field.value}</bdi>
                  ) : (
                    <code dir="ltr">{JSON.stringify(field.value)}</code>
                  )
                ) : (
                  <span className="muted">{t('testCall.notYet')}</span>
                )}
              </dd>
            </div>
          ))}
        </dl>
      ) : outcome && outcome.result !== null && outcome.result !== undefined ? (
        <pre className="quote" dir="ltr">
          {json(outcome.result)}
        </pre>
      ) : null}
    </section>
  )
}

function ToolCallItem({ call }: { call: ToolCallView }) {
  const t = useT()
  const response = call.record ? call.record.response : call.answered
  return (
    <li className="test-call-tool-call" data-tool={call.name}>
      <div>
        <span className="tag">{formatCallTime(call.at)}</span> <code>{call.name}</code>
      </div>
      <div className="small muted">{t('testCall.arguments')}</div>
      <pre className="quote" dir="ltr">
        {json(call.arguments)}
      </pre>
      {response !== undefined ? (
        <>
          <div className="small muted">{t('testCall.answer')}</div>
          <pre className="quote" dir="ltr" data-testid="tool-answer">
            {json(response)}
          </pre>
        </>
      ) : null}
      {call.record?.error ? (
        <p className="field-hint warn">
          {t('testCall.toolNoAnswer')} <bdi dir="auto">{call.record.error}</bdi>
        </p>
      ) : null}
    </li>
  )
}
