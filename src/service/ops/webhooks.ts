import type { ListDeliveriesQuery, WebhookDelivery, WebhookDeliveryDetail } from '../../shared/api/webhooks'
import type { DeliveryRecord } from '../../store/records'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { notFound, ServiceError } from './service-error'

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
    nextAttemptAt:
      record.status === 'PENDING' && !sending && record.nextAttemptAt !== null ? new Date(record.nextAttemptAt).toISOString() : null,
    sending,
    lastStatusCode: record.lastStatusCode,
    lastError: record.lastError,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    deliveredAt: record.deliveredAt,
  }
}

/** `GET /v1/webhooks/deliveries`: the caller's project's deliveries, newest first. */
export async function listDeliveries(context: OpsContext, caller: Caller, query: ListDeliveriesQuery) {
  const { records, total, filtered } = await context.store.webhookDeliveries.list(caller.projectId, {
    status: query.status,
    jobId: query.jobId?.toLowerCase(),
    limit: query.take,
    offset: (query.skip - 1) * query.take,
  })
  return { deliveries: records.map((record) => toDeliveryDto(context, record)), total, filtered }
}

/** `GET /v1/webhooks/deliveries/{id}`: one delivery with its body and every attempt. */
export async function getDelivery(context: OpsContext, caller: Caller, deliveryId: string): Promise<WebhookDeliveryDetail> {
  const record = await context.store.webhookDeliveries.findInProject(deliveryId, caller.projectId)
  if (!record) throw notFound('webhook delivery', deliveryId)
  const attemptLog = (await context.store.webhookDeliveries.attemptsOf(record.id)).map(({ deliveryId: _, ...attempt }) => attempt)
  return { ...toDeliveryDto(context, record), payload: JSON.parse(record.payload) as unknown, attemptLog }
}

/**
 * `POST /v1/webhooks/deliveries/{id}/redeliver`: "send again". The same delivery (same body,
 * same webhook-id) is sent now, and retried on the whole schedule if that fails.
 */
export async function redeliver(context: OpsContext, caller: Caller, deliveryId: string): Promise<WebhookDelivery> {
  const now = context.now()
  const result = await context.store.webhookDeliveries.redeliver(deliveryId, caller.projectId, now.getTime(), timestamp(context))
  if (result === undefined) throw notFound('webhook delivery', deliveryId)
  if (result === 'in-flight')
    throw new ServiceError('CONFLICT', 'An attempt at this delivery is under way; send it again once it has ended')
  context.webhookQueued()
  return toDeliveryDto(context, result)
}
