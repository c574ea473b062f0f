import { randomBytes } from 'node:crypto'
import type { WebhookEvent } from '../shared/api/webhooks'
import type { Repositories } from '../store/ports'
import type { JobRecord } from '../store/records'

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
  tx: Pick<Repositories, 'webhookDeliveries'>,
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
  /** The job as the API shows it (GET /v1/jobs): the `data` of the event's body. */
  describeJob: (job: JobRecord) => unknown
  now: () => Date
}

/**
 * The job runner's `onJobEnding`: the webhook of a job that has just ended, when it has a
 * webhookUrl, written through the transaction that ends the job (the outbox pattern).
 */
export function jobWebhookOutbox(options: JobWebhookOutboxOptions): (tx: Pick<Repositories, 'webhookDeliveries'>, job: JobRecord) => Promise<void> {
  return async (tx, job) => {
    if (!job.webhookUrl || (job.status !== 'COMPLETED' && job.status !== 'FAILED')) return
    const event: WebhookEvent = job.status === 'COMPLETED' ? 'job.completed' : 'job.failed'
    const target = { projectId: job.projectId, url: job.webhookUrl, authKey: job.webhookAuthKey, authSecret: job.webhookAuthSecret }
    await storeWebhook(tx, target, event, { event, data: options.describeJob(job) }, { jobId: job.id, now: options.now() })
  }
}
