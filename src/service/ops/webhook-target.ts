import type { OpsContext } from './ops-context'
import { ServiceError } from './service-error'

/**
 * Refuses a webhookUrl whose host is an IP literal webhooks may not reach (link-local, cloud
 * metadata, unspecified), naming the field. A host name is checked when the sender connects,
 * on the address it resolves to then.
 */
export function requireWebhookTarget(context: OpsContext, url: string, path: string): void {
  const reason = context.webhookAddresses.refusedUrlReason(url)
  if (reason) throw new ServiceError('VALIDATION_ERROR', `Invalid request: ${path}: ${reason}`, [{ path, message: reason }])
}
