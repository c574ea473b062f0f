import {
  ConversationStateSchema,
  type CallLog,
  type Conversation,
  type ConversationInitBody,
  type ConversationState,
} from '../../shared/api/conversations'
import type { MinimalCallList, MinimalCallListQuery } from '../../shared/api/calls'
import { JobErrorCodeSchema } from '../../shared/api/job-error-codes'
import type { JobRecord } from '../../store/records'
import { baseRecord, mediaUrlOf, requireJob, titleFrom } from './jobs'
import { recordingStateOf } from '../../webhooks/job-payload'
import { unguessable } from './unguessable'
import { toVoiceAgentDto } from './voice-agents'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { conversationCost } from './prices'
import { notFound, ServiceError } from './service-error'

/** A conversation waits this long for its socket, then ends FAILED (CONVERSATION_NOT_STARTED). */
export const SOCKET_DEADLINE_MS = 60_000

/**
 * `POST /v1/voice-agents/conversation-init`: a conversation of the agent, PENDING until the
 * SDK's socket connects to `/stream/{jobId}`. The call's params fill the agent's placeholders
 * over the agent's own params; the page's tools are kept for the call.
 */
/** A phone call over the SIP line: how it came and both numbers (kept on the conversation). */
export interface PhoneCallFacts {
  direction: 'inbound' | 'outbound'
  fromNumber: string
  toNumber: string
  /** An outbound call's own webhook (POST /v1/voice-agents/call): its call events go there rather than to the agent's. */
  webhook?: { url: string; authKey: string | null; authSecret: string | null }
}

export async function initConversation(
  context: OpsContext,
  caller: Caller,
  body: ConversationInitBody,
  phoneCall?: PhoneCallFacts,
): Promise<{ jobId: string }> {
  const agent = await context.store.voiceAgents.findInProject(body.voiceAgentId, caller.projectId)
  if (!agent) throw notFound('voice agent', body.voiceAgentId)
  const engines = await context.callEngines()
  const at = timestamp(context)
  const state: ConversationState = {
    ...conversationNotStarted(engines.dialogue),
    speechRecognition: engines.stt ? { enabled: true, ...engines.stt } : { enabled: false, engine: null, model: null },
    params: { ...agent.params, ...body.params },
    agentVersion: (await context.store.voiceAgents.latestVersion(agent.id, caller.projectId)) ?? null,
    tools: (body.tools ?? []).map(({ function: tool }) => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      ...(tool.parameters === undefined ? {} : { parameters: tool.parameters }),
    })),
    ...(phoneCall
      ? { channel: 'SIP' as const, direction: phoneCall.direction, fromNumber: phoneCall.fromNumber, toNumber: phoneCall.toNumber }
      : {}),
  }
  const record: JobRecord = {
    ...baseRecord(context, caller, at),
    type: 'CONVERSATION',
    title: titleFrom(phoneCall ? `Phone call with ${agent.agentName}` : `Call with ${agent.agentName}`, 100),
    model: engines.model,
    processingType: 'REALTIME',
    systemModelKey: `conversation-${engines.dialogue}`,
    voiceId: agent.voiceId,
    voiceAgentId: agent.id,
    agentDetails: agent.agentName,
    jobResponse: state,
    mediaFile: `${unguessable()}.wav`,
    totalCost: conversationCost(0),
    // Due for the runner (which ends it as never started) only if no socket took it first.
    runAfter: context.now().getTime() + (context.socketDeadlineMs ?? SOCKET_DEADLINE_MS),
    ...(phoneCall?.webhook
      ? {
          webhookUrl: phoneCall.webhook.url,
          webhookAuthKey: phoneCall.webhook.authKey,
          webhookAuthSecret: phoneCall.webhook.authSecret === null ? null : context.secrets.encrypt(phoneCall.webhook.authSecret),
        }
      : {}),
  }
  await context.store.jobs.insert(record)
  context.jobEnqueued(record)
  return { jobId: record.id }
}

/** `GET /v1/voice-agents/conversation/{jobId}`: the call as it stands (while it runs too). */
export async function getConversation(context: OpsContext, caller: Caller, jobId: string): Promise<Conversation> {
  const record = await requireJob(context, caller, jobId).catch((error: unknown) => {
    throw error instanceof ServiceError ? notFound('conversation', jobId) : error
  })
  if (record.type !== 'CONVERSATION') throw new ServiceError('NOT_FOUND', `Job ${jobId} is ${record.type}, not a conversation`)
  return toConversationDto(context, record, await agentDetailsOf(context, caller, record))
}

/** The agent as the call had it: the version it ran against, else (older calls) the agent now; null once deleted. */
async function agentDetailsOf(context: OpsContext, caller: Caller, record: JobRecord): Promise<Conversation['agentDetails']> {
  if (record.voiceAgentId === null) return null
  const parsed = ConversationStateSchema.safeParse(record.jobResponse)
  const version = parsed.success ? (parsed.data.agentVersion ?? null) : null
  const current = await context.store.voiceAgents.findInProject(record.voiceAgentId, caller.projectId)
  if (!current) return null
  const snapshot =
    version === null ? undefined : await context.store.voiceAgents.findVersion(record.voiceAgentId, caller.projectId, version)
  if (!snapshot) return { version: null, agent: toVoiceAgentDto(context, current) }
  const { version: number, source: _source, versionedAt: _at, ...agent } = snapshot
  return { version: number, agent: toVoiceAgentDto(context, agent) }
}

/** What happened in the call, in order, from what it kept: its start, turns, tool calls and end. */
function callLogs(state: ConversationState, duration: number | null): CallLog[] {
  if (state.startedAt === null) return []
  const started = Date.parse(state.startedAt)
  const events: { at: number; payload: { event: CallLog['payload']['event'] } & Record<string, unknown> }[] = [
    { at: 0, payload: { event: 'call.started', params: state.params } },
    ...state.transcript.map(({ startTime, ...turn }) => ({ at: startTime, payload: { event: 'turn' as const, ...turn } })),
    ...state.toolCalls.map(({ at, ...call }) => ({ at, payload: { event: 'tool.executed' as const, ...call } })),
  ]
  // Sorted by time; the start stays first and ties keep their order (Array.prototype.sort is stable).
  events.sort((a, b) => a.at - b.at)
  if (state.endedAt !== null) events.push({ at: duration ?? 0, payload: { event: 'call.ended', endReason: state.endReason } })
  return events.map(({ at, payload }, index) => {
    const timestamp = new Date(started + Math.round(at * 1000)).toISOString()
    return { id: `log_${index + 1}`, timestamp, payload: { ...payload, at }, createdAt: timestamp, updatedAt: timestamp }
  })
}

function performanceMetricsOf(state: ConversationState, duration: number | null): Conversation['performanceMetrics'] {
  const answers = state.answerDelays?.answers ?? null
  return {
    durationSeconds: duration,
    agentTurns: state.transcript.filter((turn) => turn.role === 'agent').length,
    callerTurns: state.transcript.filter((turn) => turn.role === 'caller').length,
    answers,
    averageAnswerDelaySeconds: answers && state.answerDelays ? Math.round((state.answerDelays.seconds / answers) * 1000) / 1000 : null,
    bargeIns: state.bargeIns,
    pokes: state.pokes,
    toolCalls: state.toolCalls.length,
  }
}

/** The call as the conversation read shows it; `agentDetails` is looked up by the caller (getConversation), else null. */
export function toConversationDto(context: OpsContext, record: JobRecord, agentDetails: Conversation['agentDetails'] = null): Conversation {
  const parsed = ConversationStateSchema.safeParse(record.jobResponse)
  // A record this version cannot read (written by hand, or by another version) shows as a call that said nothing.
  const state: ConversationState = parsed.success ? parsed.data : conversationNotStarted('unknown')
  const duration =
    state.startedAt === null
      ? null
      : (record.usageSeconds ?? (Date.parse(state.endedAt ?? context.now().toISOString()) - Date.parse(state.startedAt)) / 1000)
  const code = JobErrorCodeSchema.safeParse(record.errorCode)
  return {
    ...state,
    id: record.id,
    jobId: record.id,
    status: record.status,
    ...(record.status === 'FAILED'
      ? { error: { code: code.success ? code.data : 'INTERNAL', message: record.errorMessage ?? 'The conversation failed' } }
      : {}),
    voiceAgentId: record.voiceAgentId,
    agentName: record.agentDetails,
    duration,
    recordingUrl: mediaUrlOf(context, record),
    recording: recordingStateOf(record),
    totalCost: record.totalCost,
    title: record.title,
    model: record.model,
    processingType: record.processingType,
    apiKeyId: record.apiKeyId,
    mediaUrl: mediaUrlOf(context, record),
    callParams: callParamsOf(state),
    callDuration: duration ?? 0,
    channelType: state.channel === 'SIP' ? 'Telephone' : 'Web',
    channel: state.channel ?? 'WEB',
    agentDetails,
    callAnalysis: {
      endReason: state.endReason,
      outcomeResult: state.outcomeResult,
      outcomeComplete: state.outcomeComplete,
      outcomeProblems: state.outcomeProblems ?? [],
      callerGender: state.callerGender,
    },
    logs: callLogs(state, duration),
    performanceMetrics: performanceMetricsOf(state, duration),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}

/**
 * The cloud reference's callParams: the placeholders' values, and on a phone call both numbers in
 * its words: the user's (the caller, or the phone an agent called) and the machine's (the agent's).
 */
function callParamsOf(state: ConversationState): Record<string, string> {
  if (state.channel !== 'SIP') return state.params
  const outbound = state.direction === 'outbound'
  const user = outbound ? state.toNumber : state.fromNumber
  const machine = outbound ? state.fromNumber : state.toNumber
  return {
    ...state.params,
    ...(user === undefined ? {} : { userNumber: user }),
    ...(machine === undefined ? {} : { machineNumber: machine }),
  }
}

/** A conversation's record before its call starts. */
export function conversationNotStarted(dialogueEngine: string): ConversationState {
  return {
    startedAt: null,
    endedAt: null,
    endReason: null,
    transcript: [],
    toolCalls: [],
    outcomeResult: null,
    outcomeComplete: null,
    bargeIns: 0,
    pokes: 0,
    callerGender: null,
    speechRecognition: { enabled: false, engine: null, model: null },
    dialogueEngine,
    params: {},
    tools: [],
  }
}

/**
 * `GET /v1/voice-agents/conversations/minimal-list`: a page of the project's calls, newest
 * first. `total` counts every call of the project, `filtered` those the filters keep.
 */
export async function listMinimalCalls(context: OpsContext, caller: Caller, query: MinimalCallListQuery): Promise<MinimalCallList> {
  if (query.voiceAgentId !== undefined && !(await context.store.voiceAgents.findInProject(query.voiceAgentId, caller.projectId))) {
    throw notFound('voice agent', query.voiceAgentId)
  }
  const page = await context.store.jobs.listCalls(
    caller.projectId,
    {
      voiceAgentId: query.voiceAgentId,
      statuses: query.status,
      createdFrom: query.startTime === undefined ? undefined : new Date(query.startTime).toISOString(),
      createdTo: query.endTime === undefined ? undefined : new Date(query.endTime).toISOString(),
    },
    query.perPage,
    (query.page - 1) * query.perPage,
  )
  return {
    total: page.total,
    filtered: page.filtered,
    calls: page.records.map((record) => {
      const call = toConversationDto(context, record)
      return {
        id: call.id,
        createdAt: call.createdAt,
        status: call.status,
        voiceAgentId: call.voiceAgentId,
        agentName: call.agentName,
        duration: call.duration === null ? 0 : Math.round(call.duration * 1000) / 1000,
        channelType: call.channelType,
        callParams: call.callParams,
      }
    }),
  }
}
