import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react'
import type { IpcError } from '../../../../shared/ipc/operations'
import type { IpcStreamHandle, IpcStreamInput, IpcStreamServerFrame, OpenIpcStream } from '../../../../shared/ipc/streams'
import { MicrophoneError, startMicrophone, type Microphone, type MicrophoneProblem } from './microphone-capture'
import { PcmPlayback } from './pcm-playback'
import { applyServerFrame, applyStreamClosed, CONNECTING, markToolAnswered, type LiveCallState } from './test-call-state'
import { stubAnswerFor, type ToolDraft } from './test-call-setup'

export type CallMode = 'talk' | 'type'

/** The microphone's part in a call: off (typing only), starting, on, muted, or a problem (typing still works). */
export type MicrophoneState =
  { kind: 'off' } | { kind: 'starting' } | { kind: 'on'; muted: boolean } | { kind: 'problem'; problem: MicrophoneProblem }

export interface TestCall {
  state: LiveCallState | null
  mode: CallMode | null
  microphone: MicrophoneState
  /** Milliseconds from each typed turn sent to the first audio of the answer scheduled for playback. */
  replyLatencies: number[]
  /** When the call went live (Date.now() at `started`), for the elapsed time; null before. */
  startedAt: number | null
  /** The operator asked to hang up (the service then ends the call as the caller's hang-up). */
  hungUp: boolean
  /** The input of the last call started (Call again uses it). */
  input: IpcStreamInput<'calls.test'> | null
  /** Starts a call (one that runs is closed first); `tools` answer the agent's tool calls until setTools changes them. */
  start(mode: CallMode, input: IpcStreamInput<'calls.test'>, tools: readonly ToolDraft[]): void
  /** The stubs as the operator edits them during the call: the next tool call gets these. */
  setTools(tools: readonly ToolDraft[]): void
  say(text: string): void
  setMuted(muted: boolean): void
  hangUp(): void
  /** Back to the setup (the call, if one runs, is closed). */
  reset(): void
}

/** The call that runs: its stream, playback and microphone, and where it stands. */
interface LiveCall {
  handle: IpcStreamHandle<'calls.test'>
  playback: PcmPlayback
  microphone: Microphone | null
  closed: boolean
  /** When the last typed turn was sent, until the first audio of its answer. */
  typedAt: number | null
  hangingUp: boolean
}

/**
 * One test call at a time: the stream, the agent's voice on a PcmPlayback, the microphone.
 * Marks are answered when playback reaches them, tool calls with the stub as it is at that
 * moment (the tools last given, read when the call comes, not when the call started).
 * Mounted once above the screens (LiveTestCallProvider): leaving the agent keeps the call.
 */
export function useTestCall(openStream: OpenIpcStream): TestCall {
  const [state, setState] = useState<LiveCallState | null>(null)
  const [mode, setMode] = useState<CallMode | null>(null)
  const [microphone, setMicrophone] = useState<MicrophoneState>({ kind: 'off' })
  const [replyLatencies, setReplyLatencies] = useState<number[]>([])
  const [startedAt, setStartedAt] = useState<number | null>(null)
  const [hungUp, setHungUp] = useState(false)
  const [input, setInput] = useState<IpcStreamInput<'calls.test'> | null>(null)
  // The stubs as they are now, for tool calls answered from a frame listener.
  const toolsRef = useRef<readonly ToolDraft[]>([])
  const live = useRef<LiveCall | null>(null)

  /** Ends what runs: the stream, the microphone; playback too unless the goodbye may finish. */
  const stop = useCallback((keepPlaying: boolean) => {
    const current = live.current
    if (!current) return
    current.microphone?.stop()
    current.microphone = null
    if (!current.closed) {
      current.closed = true
      current.handle.close()
    }
    if (!keepPlaying) current.playback.close()
  }, [])

  const close = useCallback(() => {
    stop(false)
    live.current = null
  }, [stop])
  useEffect(() => close, [close])

  const start = useCallback(
    (callMode: CallMode, callInput: IpcStreamInput<'calls.test'>, tools: readonly ToolDraft[]) => {
      close()
      toolsRef.current = tools
      setMode(callMode)
      setInput(callInput)
      setReplyLatencies([])
      setStartedAt(null)
      setHungUp(false)
      // Made inside the click: a context created in a gesture may play at once.
      const playback = new PcmPlayback()
      playback.resume()
      const handle = openStream('calls.test', callInput)
      const current: LiveCall = { handle, playback, microphone: null, closed: false, typedAt: null, hangingUp: false }
      live.current = current
      setState(CONNECTING)
      handle.onFrame((frame) => {
        if (live.current !== current) return
        onServerFrame(frame, current, { tools: () => toolsRef.current, setState, setStartedAt, setReplyLatencies, stop })
      })
      handle.onClose((closed) => {
        if (live.current !== current) return
        current.closed = true
        current.microphone?.stop()
        current.microphone = null
        const failure: IpcError | null = closed.kind === 'failed' ? closed.error : null
        setState((previous) => previous && applyStreamClosed(previous, failure))
        setMicrophone((previous) => (previous.kind === 'problem' ? previous : { kind: 'off' }))
      })
      if (callMode === 'type') {
        setMicrophone({ kind: 'off' })
        return
      }
      setMicrophone({ kind: 'starting' })
      connectMicrophone(current, () => live.current === current, setMicrophone)
    },
    [openStream, close, stop],
  )

  const setTools = useCallback((tools: readonly ToolDraft[]) => {
    toolsRef.current = tools
  }, [])

  const say = useCallback((text: string) => {
    const current = live.current
    if (!current || current.closed) return
    current.playback.resume()
    current.typedAt = performance.now()
    current.handle.send({ type: 'text', content: text })
  }, [])

  const setMuted = useCallback((muted: boolean) => {
    const current = live.current
    if (!current?.microphone) return
    current.microphone.setMuted(muted)
    setMicrophone({ kind: 'on', muted })
  }, [])

  const hangUp = useCallback(() => {
    const current = live.current
    // Once: a second click (the bar and the panel both have the button) sends nothing more.
    if (!current || current.closed || current.hangingUp) return
    current.hangingUp = true
    setHungUp(true)
    current.handle.send({ type: 'hang-up' })
  }, [])

  const reset = useCallback(() => {
    close()
    setState(null)
    setMode(null)
    setMicrophone({ kind: 'off' })
  }, [close])

  return { state, mode, microphone, replyLatencies, startedAt, hungUp, input, start, setTools, say, setMuted, hangUp, reset }
}

interface FrameEffects {
  /** The stubs as they are now (tool calls are answered with these, not those the call started with). */
  tools(): readonly ToolDraft[]
  setState: Dispatch<SetStateAction<LiveCallState | null>>
  setStartedAt(at: number): void
  setReplyLatencies: Dispatch<SetStateAction<number[]>>
  stop(keepPlaying: boolean): void
}

/** A frame of the service: audio played, marks answered when played, tool calls answered from the stubs, the state brought up to date. */
function onServerFrame(frame: IpcStreamServerFrame<'calls.test'>, current: LiveCall, effects: FrameEffects): void {
  const { playback, handle } = current
  switch (frame.type) {
    case 'audio': {
      playback.enqueue(frame.pcm16)
      if (current.typedAt !== null) {
        const latency = performance.now() - current.typedAt
        current.typedAt = null
        effects.setReplyLatencies((list) => [...list, latency])
      }
      break
    }
    case 'mark':
      playback.mark(() => {
        if (!current.closed) handle.send({ type: 'played', mark: frame.name })
      })
      break
    case 'clear':
      playback.clear()
      break
    case 'tool-call': {
      const answer = stubAnswerFor(effects.tools(), frame.name)
      handle.send({ type: 'tool-response', id: frame.id, response: answer })
      effects.setState((previous) => previous && markToolAnswered(applyServerFrame(previous, frame), frame.id, answer))
      return
    }
    case 'started':
      effects.setStartedAt(Date.now())
      break
    case 'ended':
    case 'refused':
      // The goodbye plays out; the microphone stops now.
      effects.stop(true)
      break
  }
  effects.setState((previous) => previous && applyServerFrame(previous, frame))
}

/** Starts the microphone and sends what it hears; a call closed (or replaced) before it starts stops it at once. */
function connectMicrophone(current: LiveCall, stillCurrent: () => boolean, setMicrophone: (state: MicrophoneState) => void): void {
  startMicrophone((pcm16) => {
    if (!current.closed) current.handle.send({ type: 'audio', pcm16 })
  }).then(
    (started) => {
      if (!stillCurrent() || current.closed) return started.stop()
      current.microphone = started
      setMicrophone({ kind: 'on', muted: false })
    },
    (error: unknown) => {
      if (!stillCurrent()) return
      setMicrophone({ kind: 'problem', problem: error instanceof MicrophoneError ? error.problem : 'failed' })
    },
  )
}
