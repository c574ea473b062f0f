import type { OpsContext } from './ops-context'
import { invalid } from './service-error'

/**
 * Refuses a webhookUrl whose host is an IP literal webhooks may not reach (link-local, cloud
 * metadata, unspecified), naming the field (`path`, relative to the use case's input). A host
 * name is checked when the sender connects, on the address it resolves to then.
 */
export function requireWebhookTarget(context: OpsContext, url: string, path: string): void {
  const reason = context.webhookAddresses.refusedUrlReason(url)
  if (reason) throw invalid(path, reason)
}
