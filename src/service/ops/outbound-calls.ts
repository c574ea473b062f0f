import type { StartCallBody } from '../../shared/api/outbound-calls'
import type { JobRecord } from '../../store/records'
import { initConversation } from './conversations'
import { requireJob } from './jobs'
import type { Caller, OpsContext } from './ops-context'
import { notFound, ServiceError } from './service-error'
import type { DialTarget } from './telephony'
import { requireWebhookTarget } from './webhook-target'

/** What the agent's call needs: the agent, whom to ring, and the call's own params and webhook. */
export interface OutboundCallRequest {
  voiceAgentId: string
  target: DialTarget
  fromNumber?: string
  params?: Record<string, string>
  webhookUrl?: string
  webhookAuth?: StartCallBody['webhookAuth']
}

/** Refusals of the call cap and of a stopping service, as the caller hears them (the conversation is FAILED then). */
const REFUSED: Readonly<Record<string, string>> = {
  TOO_MANY_CALLS: 'All places for concurrent calls on this service are taken (--max-calls): try again when a call ends',
  UNAVAILABLE: 'The SIP line is stopping or could not start the call; try again',
}

/**
 * The agent calls a softphone on the SIP line (POST /v1/voice-agents/call, the app's "Call my
 * softphone"): where the call goes is settled first (a clear refusal otherwise: line off, no
 * such user, not registered, not allowed), then the conversation is made with channel SIP and
 * direction outbound, and the line rings the softphone. Answers the conversation as it is once
 * the call rings; how it ends (COMPLETED, or FAILED busy, no answer, rejected) is the
 * conversation's and its webhooks'.
 */
export async function placeOutboundCall(context: OpsContext, caller: Caller, request: OutboundCallRequest): Promise<JobRecord> {
  if (request.webhookUrl) requireWebhookTarget(context, request.webhookUrl, 'webhookUrl')
  const agent = await context.store.voiceAgents.findInProject(request.voiceAgentId, caller.projectId)
  if (!agent) throw notFound('voice agent', request.voiceAgentId)
  const resolved = await context.telephony.resolve(request.target)
  if ('code' in resolved) {
    const path = 'sipUser' in request.target ? 'sipUser' : 'toNumber'
    throw new ServiceError(
      resolved.code,
      resolved.message,
      resolved.code === 'VALIDATION_ERROR' ? [{ path, message: resolved.message }] : [],
    )
  }
  const fromNumber = request.fromNumber ?? (await firstNumberOf(context, caller, agent.id)) ?? 'voicedesk'
  const webhook = request.webhookUrl
    ? { url: request.webhookUrl, authKey: request.webhookAuth?.authKey ?? null, authSecret: request.webhookAuth?.authSecret ?? null }
    : undefined
  const { jobId } = await initConversation(
    context,
    caller,
    { voiceAgentId: agent.id, params: request.params },
    { direction: 'outbound', fromNumber, toNumber: resolved.toNumber, webhook },
  )
  const dialled = await context.telephony.dial(resolved, { jobId, projectId: caller.projectId, fromNumber })
  if (!dialled.ok) {
    throw new ServiceError(
      'UNAVAILABLE',
      `${REFUSED[dialled.code] ?? `The call could not start (${dialled.code})`}; conversation ${jobId} ended FAILED`,
      [],
      5,
    )
  }
  return requireJob(context, caller, jobId)
}

/** The agent's first assigned number in the project, as the caller the softphone shows. */
async function firstNumberOf(context: OpsContext, caller: Caller, voiceAgentId: string): Promise<string | undefined> {
  const page = await context.store.phoneNumbers.list(caller.projectId, { voiceAgentId }, 1, 0)
  return page.records[0]?.number
}
