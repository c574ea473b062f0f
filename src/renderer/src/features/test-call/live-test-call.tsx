import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react'
import type { IpcStreamInput } from '../../../../shared/ipc/streams'
import type { MessageKey } from '../../i18n/dictionary'
import { useT, type Translate } from '../../i18n/use-t'
import { useOpenStream, useStoreApi } from '../../store/app-context'
import type { ToolDraft } from './test-call-setup'
import type { CallEnd } from './test-call-state'
import { useTestCall, type CallMode, type TestCall } from './use-test-call'

/** The agent a call was started for. */
export interface CallAgent {
  id: string
  name: string
}

export interface LiveTestCall {
  call: TestCall
  /** Whose call `call` is; null before the first call. */
  agent: CallAgent | null
  start(agent: CallAgent, mode: CallMode, input: IpcStreamInput<'calls.test'>, tools: readonly ToolDraft[]): void
  /** The agent whose Test call panel is in view (the call bar then steps aside); null when none is. */
  panelInView: string | null
  /** Says that this agent's panel is in view; answers the function that says it is not any more. */
  showPanel(agentId: string): () => void
  /** Bumped by the call bar's "Back to the call": the agent's views switch to their Test call tab. */
  panelRequests: number
  /** Opens the call's agent on its Test call tab. */
  openPanel(): void
}

const LiveTestCallContext = createContext<LiveTestCall | null>(null)

/**
 * The test call lives here, above the screens, not in the agent's panel: moving to Jobs (or
 * opening the call in the monitor) unmounts the agents screen, and a call owned by it would
 * close its stream, which the service ends as the caller's hang-up. The panel and the call bar
 * both show this one call.
 */
export function LiveTestCallProvider({ children }: { children: ReactNode }) {
  const t = useT()
  const store = useStoreApi()
  const call = useTestCall(useOpenStream())
  const [agent, setAgent] = useState<CallAgent | null>(null)
  const [panelInView, setPanelInView] = useState<string | null>(null)
  const [panelRequests, setPanelRequests] = useState(0)

  const { start: startCall } = call
  const start = useCallback(
    (callAgent: CallAgent, mode: CallMode, input: IpcStreamInput<'calls.test'>, tools: readonly ToolDraft[]) => {
      setAgent(callAgent)
      startCall(mode, input, tools)
    },
    [startCall],
  )
  const showPanel = useCallback((agentId: string) => {
    setPanelInView(agentId)
    return () => setPanelInView((current) => (current === agentId ? null : current))
  }, [])
  const openPanel = useCallback(() => {
    if (!agent) return
    store.getState().openAgent(agent.id)
    setPanelRequests((count) => count + 1)
  }, [agent, store])

  // A call that ends while its panel is out of view is said in a toast: it never ends unseen.
  const phase = call.state?.phase ?? null
  const previousPhase = useRef(phase)
  const { state, hungUp } = call
  useEffect(() => {
    const before = previousPhase.current
    previousPhase.current = phase
    const wasRunning = before === 'connecting' || before === 'live'
    if (!wasRunning || !agent || panelInView === agent.id || !state) return
    const name = state.agentName ?? agent.name
    if (state.phase === 'ended' && state.end)
      store.getState().toast('info', t('callBar.ended', { name, reason: endReasonText(t, state.end, hungUp) }))
    else if (state.phase === 'failed') store.getState().toast('error', t('callBar.failed', { name }))
  }, [phase, state, agent, panelInView, hungUp, store, t])

  // A new value at every change of the call: the panel and the bar are its only readers.
  return (
    <LiveTestCallContext.Provider value={{ call, agent, start, panelInView, showPanel, panelRequests, openPanel }}>
      {children}
    </LiveTestCallContext.Provider>
  )
}

export function useLiveTestCall(): LiveTestCall {
  const value = useContext(LiveTestCallContext)
  if (!value) throw new Error('LiveTestCallProvider is missing')
  return value
}

/** Whether a call runs (connecting or live): it has not ended or failed. */
export const isRunning = (call: TestCall) => call.state?.phase === 'connecting' || call.state?.phase === 'live'

/** How a call ended, in words: the operator's own hang-up is said as such (the service records it as the caller's). */
export function endReasonText(t: Translate, end: CallEnd, hungUpByOperator: boolean): string {
  if (end.endReason === 'caller-hangup' && hungUpByOperator) return t('testCall.youHungUp')
  return t(`calls.end.${end.endReason}` as MessageKey)
}
