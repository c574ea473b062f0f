import { useCallback, useId, useRef, useState, type KeyboardEvent } from 'react'
import type { OperatorAgent } from '../../../../shared/ipc/operations'
import { useT } from '../../i18n/use-t'
import { useAppStore } from '../../store/app-context'
import { selectPendingLeave } from '../../store/selectors'
import { useLiveTestCall } from '../test-call/live-test-call'
import { TestCallPanel } from '../test-call/test-call-panel'
import { AgentEditor } from './agent-editor'
import { AgentHistory } from './agent-history'
import { AgentTests } from './agent-tests'

type AgentView = 'settings' | 'test' | 'tests' | 'history'
const VIEWS: readonly AgentView[] = ['settings', 'test', 'tests', 'history']
const TAB_LABELS = { settings: 'testCall.settingsTab', test: 'testCall.tab', tests: 'tests.tab', history: 'history.tab' } as const

/**
 * An agent's views, as tabs: its settings (the editor), its Test call panel, its Tests (suite and runs) and its History.
 * Each stays mounted once opened, so a draft survives a test call and a call runs on while the
 * operator edits (the call always uses the saved agent). Back on an agent whose call was made
 * (it runs, or ended while away), the Test call tab shows it. A restore from History makes the
 * editor start again from the restored agent (an unsaved draft is kept and offered back).
 */
export function AgentViews({ agent }: { agent: OperatorAgent }) {
  const t = useT()
  const id = useId()
  const { agent: callAgent, call, panelRequests } = useLiveTestCall()
  const hasCall = callAgent?.id === agent.id && call.state !== null
  const [view, setView] = useState<AgentView>(hasCall ? 'test' : 'settings')
  const [testOpened, setTestOpened] = useState(hasCall)
  const [testsOpened, setTestsOpened] = useState(false)
  const [historyOpened, setHistoryOpened] = useState(false)
  // Bumped when History finds the agent changed (a restore, a change over /v1): the editor starts again from it.
  const [editorStarts, setEditorStarts] = useState(0)
  const restartEditor = useCallback(() => setEditorStarts((count) => count + 1), [])
  const tabRefs = useRef<Partial<Record<AgentView, HTMLButtonElement | null>>>({})
  const pendingLeave = useAppStore(selectPendingLeave)
  // Leaving with an unsaved draft asks in the editor: it must be in view to ask (state adjusted
  // while rendering, as React advises for state that follows a prop).
  const [seenLeave, setSeenLeave] = useState(pendingLeave)
  if (pendingLeave !== seenLeave) {
    setSeenLeave(pendingLeave)
    if (pendingLeave) setView('settings')
  }
  // The call bar's "Back to the call" on this agent: its Test call tab.
  const [seenRequests, setSeenRequests] = useState(panelRequests)
  if (panelRequests !== seenRequests) {
    setSeenRequests(panelRequests)
    if (hasCall) {
      setView('test')
      setTestOpened(true)
    }
  }

  const show = (next: AgentView, focus = false) => {
    setView(next)
    if (next === 'test') setTestOpened(true)
    if (next === 'tests') setTestsOpened(true)
    if (next === 'history') setHistoryOpened(true)
    if (focus) tabRefs.current[next]?.focus()
  }
  // Arrow keys move between the tabs (the WAI-ARIA tabs pattern), in reading order: right to left in Arabic.
  const onKeyDown = (event: KeyboardEvent) => {
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl'
    const forward = rtl ? 'ArrowLeft' : 'ArrowRight'
    const backward = rtl ? 'ArrowRight' : 'ArrowLeft'
    const at = VIEWS.indexOf(view)
    if (event.key === forward) show(VIEWS[(at + 1) % VIEWS.length] ?? 'settings', true)
    else if (event.key === backward) show(VIEWS[(at + VIEWS.length - 1) % VIEWS.length] ?? 'settings', true)
    else if (event.key === 'Home') show('settings', true)
    else if (event.key === 'End') show('history', true)
    else return
    event.preventDefault()
  }

  return (
    <>
      <div className="tabs" role="tablist" aria-label={t('testCall.tabs')} onKeyDown={onKeyDown}>
        {VIEWS.map((candidate) => (
          <button
            key={candidate}
            ref={(element) => {
              tabRefs.current[candidate] = element
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${candidate}`}
            className="tab"
            data-testid={`agent-tab-${candidate}`}
            aria-selected={view === candidate}
            aria-controls={`${id}-panel-${candidate}`}
            tabIndex={view === candidate ? 0 : -1}
            onClick={() => show(candidate)}
          >
            {t(TAB_LABELS[candidate])}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel-settings`} aria-labelledby={`${id}-tab-settings`} hidden={view !== 'settings'}>
        <AgentEditor key={editorStarts} agent={agent} />
      </div>
      {testOpened ? (
        <div role="tabpanel" id={`${id}-panel-test`} aria-labelledby={`${id}-tab-test`} hidden={view !== 'test'}>
          <TestCallPanel agent={agent} shown={view === 'test'} />
        </div>
      ) : null}
      {testsOpened ? (
        <div role="tabpanel" id={`${id}-panel-tests`} aria-labelledby={`${id}-tab-tests`} hidden={view !== 'tests'}>
          <AgentTests agent={agent} />
        </div>
      ) : null}
      {historyOpened ? (
        <div role="tabpanel" id={`${id}-panel-history`} aria-labelledby={`${id}-tab-history`} hidden={view !== 'history'}>
          <AgentHistory agent={agent} onAgentChanged={restartEditor} />
        </div>
      ) : null}
    </>
  )
}
