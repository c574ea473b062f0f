import { randomBytes } from 'node:crypto'
import type { ListDeliveriesQuery, WebhookDelivery, WebhookDeliveryDetail, WebhookEvent } from '../../shared/api/webhooks'
import type { JobRecord } from '../../store/jobs-repository'
import type { DeliveryRecord } from '../../store/webhook-deliveries-repository'
import { toJobDto } from './jobs'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { notFound, ServiceError } from './service-error'

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
 * now; an agent's call.ended once conversations exist). Call it inside the transaction that
 * makes the event true, so the delivery exists exactly when the event does. The body is
 * frozen here: every attempt sends these bytes.
 */
export function storeWebhook(context: OpsContext, target: WebhookTarget, event: string, body: unknown, jobId: string | null = null): string {
  const now = context.now()
  const id = newDeliveryId()
  context.store.webhookDeliveries.insert({
    id,
    ...target,
    event,
    jobId,
    payload: JSON.stringify(body),
    createdAt: now.toISOString(),
    dueAt: now.getTime(),
  })
  return id
}

/** The webhook of a job that has just ended, when it has a webhookUrl: the job as GET /v1/jobs shows it. */
export function storeJobWebhook(context: OpsContext, job: JobRecord): void {
  if (!job.webhookUrl || (job.status !== 'COMPLETED' && job.status !== 'FAILED')) return
  const event: WebhookEvent = job.status === 'COMPLETED' ? 'job.completed' : 'job.failed'
  const target = { projectId: job.projectId, url: job.webhookUrl, authKey: job.webhookAuthKey, authSecret: job.webhookAuthSecret }
  storeWebhook(context, target, event, { event, data: toJobDto(context, job) }, job.id)
}

function toDeliveryDto(context: OpsContext, record: DeliveryRecord): WebhookDelivery {
  const sending = record.status === 'PENDING' && record.leaseOwner !== null && (record.leaseExpiresAt ?? 0) >= context.now().getTime()
  return {
    id: record.id,
    event: record.event,
    jobId: record.jobId,
    url: record.url,
    hasAuthorization: record.authKey !== null || record.authSecret !== null,
    status: record.status,
    attempts: record.attempts,
    roundAttempts: record.roundAttempts,
    // While an attempt is under way, its next one is not known yet.
    nextAttemptAt: record.status === 'PENDING' && !sending && record.nextAttemptAt !== null ? new Date(record.nextAttemptAt).toISOString() : null,
    sending,
    lastStatusCode: record.lastStatusCode,
    lastError: record.lastError,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    deliveredAt: record.deliveredAt,
  }
}

/** `GET /v1/webhooks/deliveries`: the caller's project's deliveries, newest first. */
export function listDeliveries(context: OpsContext, caller: Caller, query: ListDeliveriesQuery) {
  const { records, total, filtered } = context.store.webhookDeliveries.list(caller.projectId, {
    status: query.status,
    jobId: query.jobId?.toLowerCase(),
    limit: query.take,
    offset: (query.skip - 1) * query.take,
  })
  return { deliveries: records.map((record) => toDeliveryDto(context, record)), total, filtered }
}

/** `GET /v1/webhooks/deliveries/{id}`: one delivery with its body and every attempt. */
export function getDelivery(context: OpsContext, caller: Caller, deliveryId: string): WebhookDeliveryDetail {
  const record = context.store.webhookDeliveries.findInProject(deliveryId, caller.projectId)
  if (!record) throw notFound('webhook delivery', deliveryId)
  const attemptLog = context.store.webhookDeliveries.attemptsOf(record.id).map(({ deliveryId: _, ...attempt }) => attempt)
  return { ...toDeliveryDto(context, record), payload: JSON.parse(record.payload) as unknown, attemptLog }
}

/**
 * `POST /v1/webhooks/deliveries/{id}/redeliver`: "send again". The same delivery (same body,
 * same webhook-id) is sent now, and retried on the whole schedule if that fails.
 */
export function redeliver(context: OpsContext, caller: Caller, deliveryId: string): WebhookDelivery {
  const now = context.now()
  const result = context.store.webhookDeliveries.redeliver(deliveryId, caller.projectId, now.getTime(), timestamp(context))
  if (result === undefined) throw notFound('webhook delivery', deliveryId)
  if (result === 'in-flight') throw new ServiceError('CONFLICT', 'An attempt at this delivery is under way; send it again once it has ended')
  context.webhookQueued()
  return toDeliveryDto(context, result)
}
