import { randomBytes } from 'node:crypto'
import type { CallEventEnvelope } from '../shared/api/conversations'
import type { CallEvent, WebhookEvent } from '../shared/api/webhooks'
import type { TransactionPart } from '../store/ports'
import type { JobRecord, VoiceAgentRecord } from '../store/records'
import { jobPayload } from './job-payload'

/** `msg_` and 32 hex digits: the delivery's id and its `webhook-id` header. */
function newDeliveryId(): string {
  return `msg_${randomBytes(16).toString('hex')}`
}

/** Where an event goes: a job's or an agent's webhookUrl, with its sealed webhookAuth. */
export interface WebhookTarget {
  projectId: string
  url: string
  authKey: string | null
  /** Ciphertext from the SecretBox. */
  authSecret: string | null
}

/**
 * Stores one event for sending: any event kind goes through here and the same sender (jobs
 * now; an agent's call.ended once conversations exist). Pass the transaction that makes the
 * event true (`tx`), so the delivery exists exactly when the event does. The body is frozen
 * here: every attempt sends these bytes. Answers the delivery's id.
 */
export async function storeWebhook(
  tx: TransactionPart<'webhookDeliveries'>,
  target: WebhookTarget,
  event: string,
  body: unknown,
  options: { jobId?: string | null; now: Date },
): Promise<string> {
  const id = newDeliveryId()
  await tx.webhookDeliveries.insert({
    id,
    ...target,
    event,
    jobId: options.jobId ?? null,
    payload: JSON.stringify(body),
    createdAt: options.now.toISOString(),
    dueAt: options.now.getTime(),
  })
  return id
}

export interface JobWebhookOutboxOptions {
  /** Where clients reach this service now: the media URLs in the job's payload (jobPayload) start with it. */
  baseUrl: () => string
  now: () => Date
}

/**
 * The job runner's `onJobEnding`: the webhook of a job that has just ended, when it has a
 * webhookUrl, written through the transaction that ends the job (the outbox pattern).
 */
export function jobWebhookOutbox(
  options: JobWebhookOutboxOptions,
): (tx: TransactionPart<'webhookDeliveries'>, job: JobRecord) => Promise<void> {
  return async (tx, job) => {
    if (job.type === 'CONVERSATION') return // conversations tell their agent's webhook (conversationEndedOutbox)
    if (!job.webhookUrl || (job.status !== 'COMPLETED' && job.status !== 'FAILED')) return
    const event: WebhookEvent = job.status === 'COMPLETED' ? 'job.completed' : 'job.failed'
    const target = { projectId: job.projectId, url: job.webhookUrl, authKey: job.webhookAuthKey, authSecret: job.webhookAuthSecret }
    await storeWebhook(tx, target, event, { event, data: jobPayload(job, options.baseUrl()) }, { jobId: job.id, now: options.now() })
  }
}

export interface CallEventOutboxOptions {
  now: () => Date
}

/** What an agent's webhook needs of the call: its record (the conversation job) and its agent. */
export interface CallEventSource {
  job: Pick<JobRecord, 'id' | 'projectId'>
  agent: Pick<VoiceAgentRecord, 'id' | 'agentName' | 'webhookUrl' | 'webhookAuthKey' | 'webhookAuthSecret'>
}

/**
 * An agent's call event (call.started … call.ended), to the agent's webhookUrl in the contract's
 * envelope, through the same outbox, headers and retries as job webhooks. Written through the
 * transaction that makes the event true. Answers whether a delivery was stored (the agent has a
 * webhookUrl).
 */
export function callEventOutbox(
  options: CallEventOutboxOptions,
): (tx: TransactionPart<'webhookDeliveries'>, call: CallEventSource, event: CallEvent, data: Record<string, unknown>) => Promise<boolean> {
  return async (tx, { job, agent }, event, data) => {
    if (!agent.webhookUrl) return false
    const now = options.now()
    const envelope: CallEventEnvelope = {
      eventType: event,
      callId: job.id,
      timestamp: now.toISOString(),
      projectId: job.projectId,
      agentId: agent.id,
      agentName: agent.agentName,
      data,
    }
    const target = { projectId: job.projectId, url: agent.webhookUrl, authKey: agent.webhookAuthKey, authSecret: agent.webhookAuthSecret }
    await storeWebhook(tx, target, event, envelope, { jobId: job.id, now })
    return true
  }
}

/**
 * The runner's end of a conversation (a socket that never opened, a call whose instance died):
 * `call.ended` to the agent's webhook, with what the record kept.
 */
export function conversationEndedOutbox(
  options: CallEventOutboxOptions,
): (tx: TransactionPart<'webhookDeliveries' | 'voiceAgents'>, job: JobRecord) => Promise<boolean> {
  const write = callEventOutbox(options)
  return async (tx, job) => {
    if (job.type !== 'CONVERSATION' || !job.voiceAgentId) return false
    const agent = await tx.voiceAgents.findInProject(job.voiceAgentId, job.projectId)
    if (!agent) return false
    const state = (job.jobResponse ?? {}) as { transcript?: unknown; endReason?: unknown }
    return write(tx, { job, agent }, 'call.ended', {
      status: job.status,
      endReason: 'error',
      duration: job.usageSeconds,
      transcription: state.transcript ?? [],
      outcomeResult: null,
      ...(job.errorCode ? { error: { code: job.errorCode, message: job.errorMessage } } : {}),
    })
  }
}
