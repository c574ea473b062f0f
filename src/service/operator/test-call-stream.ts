import type { ServerFrame } from '../../shared/api/stream-frames'
import type { ErrorCode } from '../../shared/api/errors'
import type { TestCallServerFrame } from '../../shared/ipc/streams'
import type { CallObservation, CallSession, CallTransport } from '../../conversations/call-session'
import { getConversation, initConversation } from '../ops/conversations'
import type { Caller, OpsContext } from '../ops/ops-context'
import { ServiceError } from '../ops/service-error'
import type { OperatorStreamHandlers } from './operator-streams'

export interface TestCallDeps {
  context: OpsContext
  /** The app's identity in the default project: a test call is the operator's conversation. */
  caller: Caller
  /** The conversation host's connect (ConversationHost.connect). */
  connect: (jobId: string, projectId: string, transport: CallTransport) => Promise<CallSession | undefined>
}

/** Codes the conversation host refuses a connection with, as the operator contract names them. */
const REFUSAL_CODES: Record<string, ErrorCode> = {
  UNAVAILABLE: 'UNAVAILABLE',
  NOT_FOUND: 'NOT_FOUND',
  AGENT_MISSING: 'NOT_FOUND',
  CONVERSATION_NOT_PENDING: 'CONFLICT',
  TOO_MANY_CALLS: 'UNAVAILABLE',
}

/**
 * `calls.test`: a test call from the operator UI. It is a conversation like any other (a
 * CONVERSATION job made exactly as conversation-init makes it, run by the same ConversationHost),
 * with a transport that turns the call into the stream's frames: the SDK's frames for audio,
 * marks and the agent's sentences, and the call's observations (activity, turns, barge-ins,
 * pokes, tools, outcome, end) for what the SDK's frames do not carry.
 */
export function createTestCallHandler(deps: TestCallDeps): OperatorStreamHandlers['calls.test'] {
  return async (input, peer) => {
    const { context, caller } = deps
    const { jobId } = await initConversation(context, caller, {
      voiceAgentId: input.agentId,
      params: input.params,
      tools: input.tools.map((tool) => ({ type: 'function' as const, function: tool })),
    })
    const conversation = await getConversation(context, caller, jobId)
    const agent = await context.store.voiceAgents.findInProject(input.agentId, caller.projectId)

    let connected = false
    let refusal: { code: string; message: string } | undefined
    const send = (frame: TestCallServerFrame) => peer.send(frame)
    const transport: CallTransport = {
      send(frame) {
        if (!connected) {
          // The host refuses with an info frame then a close: the stream's opener gets `refused` instead.
          if (frame.event === 'info') refusal = { code: frame.code, message: frame.message }
          return
        }
        const mapped = testCallFrameOf(frame)
        if (mapped) send(mapped)
      },
      close() {
        if (connected) peer.close()
      },
      observe(observation: CallObservation) {
        send(observation.type === 'ended' ? { ...observation, jobId } : observation)
      },
    }
    const session = await deps.connect(jobId, caller.projectId, transport)
    if (!session) {
      throw new ServiceError(REFUSAL_CODES[refusal?.code ?? ''] ?? 'INTERNAL', refusal?.message ?? `The test call ${jobId} could not start`)
    }
    connected = true
    send({
      type: 'started',
      jobId,
      agentName: conversation.agentName ?? agent?.agentName ?? '',
      dialogueEngine: conversation.dialogueEngine,
      speechRecognition: conversation.speechRecognition,
      outcomeShape: agent?.outcomeResponseShape ?? null,
    })
    // The panel has no `start` frame: the call begins at once (the greeting).
    session.receive({ event: 'start' })
    return {
      receive(frame) {
        switch (frame.type) {
          case 'audio':
            return session.hearPcm16(frame.pcm16)
          case 'text':
            return session.receive({ event: 'text', content: frame.content })
          case 'played':
            return session.receive({ event: 'mark', mark: { name: frame.mark } })
          case 'tool-response':
            return session.receive({ event: 'tools_response', tools_response: [{ id: frame.id, function: { response: frame.response } }] })
          case 'hang-up':
            return session.receive({ event: 'stop' })
        }
      },
      closed: () => session.transportClosed(),
    }
  }
}

/** The SDK frames a test call shows; the rest (the caller's words, tool calls) come as observations with more in them. */
function testCallFrameOf(frame: ServerFrame): TestCallServerFrame | undefined {
  switch (frame.event) {
    case 'media':
      return { type: 'audio', pcm16: frame.media.payload }
    case 'mark':
      return { type: 'mark', name: frame.mark.name }
    case 'clear':
      return { type: 'clear' }
    case 'answer':
      return { type: 'agent-text', content: frame.content }
    case 'info':
      // `started` said it already.
      return frame.code === 'CALL_STARTED' ? undefined : { type: 'info', code: frame.code, message: frame.message }
    case 'transcription':
    case 'tools':
      return undefined
  }
}
