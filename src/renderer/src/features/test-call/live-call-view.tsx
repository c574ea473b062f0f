import { useEffect, useMemo, useRef, useState, type RefObject } from 'react'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { formatCount } from '../../lib/format'
import { useAppStore } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'
import { Icon } from '../../ui/icon'
import { StatusBadge } from '../../ui/status-badge'
import { SubmitForm } from '../../ui/submit-form'
import type { ToolDraft } from './test-call-setup'
import { formatCallTime, outcomeFields, type LiveCallState, type ToolCallView } from './test-call-state'
import { ToolStubEditors } from './tool-stub-editors'
import { endReasonText } from './live-test-call'
import type { MicrophoneState } from './use-test-call'
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

export function activityOf(state: LiveCallState): string {
  if (state.phase === 'connecting') return 'connecting'
  if (state.phase === 'ended') return 'ended'
  if (state.phase === 'failed') return 'failed'
  return state.activity ?? 'listening'
}

export interface LiveCallProps {
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

/** The call as it runs: its bar, notices, transcript and typing field, the outcome so far and the tool calls. */
export function LiveCall({
  state,
  microphone,
  hungUp,
  lastReplyMs,
  tools,
  onTools,
  onSay,
  onMute,
  onEnd,
  onAgain,
  onChange,
}: LiveCallProps) {
  const t = useT()
  const typeRef = useRef<HTMLInputElement>(null)
  const againRef = useRef<HTMLButtonElement>(null)
  const over = state.phase === 'ended' || state.phase === 'failed'

  // Focus follows the call: the typing field while it runs, "Call again" once it is over.
  useEffect(() => {
    if (over) againRef.current?.focus()
    else typeRef.current?.focus()
  }, [over])

  return (
    <div className="test-call-live">
      <CallBar
        state={state}
        microphone={microphone}
        lastReplyMs={lastReplyMs}
        over={over}
        againRef={againRef}
        onMute={onMute}
        onEnd={onEnd}
        onAgain={onAgain}
        onChange={onChange}
      />
      <CallNotices state={state} microphone={microphone} hungUp={hungUp} />
      <div className="test-call-columns">
        <section className="test-call-conversation" aria-label={t('testCall.transcript')}>
          <h3>{t('testCall.transcript')}</h3>
          <Transcript state={state} />
          <TypeTurn over={over} inputRef={typeRef} onSay={onSay} />
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

interface CallBarProps {
  state: LiveCallState
  microphone: MicrophoneState
  lastReplyMs: number | null
  over: boolean
  againRef: RefObject<HTMLButtonElement | null>
  onMute(muted: boolean): void
  onEnd(): void
  onAgain(): void
  onChange(): void
}

/** What the agent is doing, the microphone, the last reply's time, and the call's buttons (mute, end; once over, call again). */
function CallBar({ state, microphone, lastReplyMs, over, againRef, onMute, onEnd, onAgain, onChange }: CallBarProps) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const activity = activityOf(state)
  return (
    <div className="test-call-bar">
      <span className={`activity activity-${activity}`} data-testid="test-call-activity" data-activity={activity}>
        <span className="activity-dot" aria-hidden="true" />
        {t(`testCall.activity.${activity}` as MessageKey)}
      </span>
      <MicrophoneStatus microphone={microphone} />
      {lastReplyMs !== null ? (
        <span className="muted small">{t('testCall.lastReply', { ms: formatCount(Math.round(lastReplyMs), locale) })}</span>
      ) : null}
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
  )
}

/** What the call has to say besides the conversation: a microphone problem, a failure, the service's notices, how it ended. */
function CallNotices({ state, microphone, hungUp }: { state: LiveCallState; microphone: MicrophoneState; hungUp: boolean }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  return (
    <>
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
              <NoticeText code={notice.code} message={notice.message} />
            </li>
          ))}
        </ul>
      ) : null}
      {state.end ? (
        <p
          className="test-call-end"
          data-testid="test-call-ended"
          data-end-reason={state.end.endReason}
          data-hung-up-by={hungUp ? 'operator' : undefined}
        >
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
    </>
  )
}

/** A notice in the operator's language when its code is known, else in the service's own words. */
function NoticeText({ code, message }: { code: string; message: string }) {
  const t = useT()
  const key = NOTICE_KEYS[code]
  return key ? t(key) : <bdi dir="auto">{message}</bdi>
}

/** The conversation so far, the newest line in view (scrolling the transcript alone, never the pane or the shell). */
function Transcript({ state }: { state: LiveCallState }) {
  const t = useT()
  const listRef = useRef<HTMLOListElement>(null)
  useEffect(() => {
    const list = listRef.current
    if (list) list.scrollTop = list.scrollHeight
  }, [state.transcript.length, state.saying])
  return (
    <ol
      ref={listRef}
      className="plain-list test-call-transcript"
      data-testid="test-call-transcript"
      tabIndex={0}
      aria-label={t('testCall.transcript')}
    >
      {state.transcript.map((entry, index) =>
        entry.kind === 'barge-in' ? (
          <li key={index} className="transcript-mark" data-kind="barge-in">
            <span className="tag">{formatCallTime(entry.at)}</span> {t('testCall.bargeIn')}
          </li>
        ) : (
          <li
            key={index}
            className={`transcript-turn role-${entry.turn.role}`}
            data-role={entry.turn.role}
            data-kind={entry.turn.kind ?? 'speech'}
          >
            <span className="tag">{formatCallTime(entry.turn.startTime)}</span>{' '}
            <strong>{entry.turn.role === 'agent' ? t('calls.agent') : t('calls.caller')}</strong>
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
  )
}

/** The caller's typed turn: sent on Enter or Send while the call runs. */
function TypeTurn({ over, inputRef, onSay }: { over: boolean; inputRef: RefObject<HTMLInputElement | null>; onSay(text: string): void }) {
  const t = useT()
  const [typed, setTyped] = useState('')
  const send = () => {
    const text = typed.trim()
    if (text === '' || over) return
    onSay(text)
    setTyped('')
  }
  return (
    <SubmitForm className="test-call-type" onSubmit={send}>
      <input
        ref={inputRef}
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
    </SubmitForm>
  )
}

function MicrophoneStatus({ microphone }: { microphone: MicrophoneState }) {
  const t = useT()
  if (microphone.kind === 'problem') return null
  const key: MessageKey =
    microphone.kind === 'on'
      ? microphone.muted
        ? 'testCall.mic.muted'
        : 'testCall.mic.on'
      : microphone.kind === 'starting'
        ? 'testCall.mic.starting'
        : 'testCall.mic.off'
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
        {outcome ? (
          <span className={`tag ${outcome.final ? 'tag-ok' : ''}`}>
            {outcome.final ? t('testCall.outcomeFinal') : t('testCall.outcomeSoFar')}
          </span>
        ) : null}{' '}
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
