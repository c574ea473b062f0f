import type { WebhookAddressPolicy } from '../../webhooks/webhook-address-policy'
import type { MediaIntakeLimits } from '../media-intake/media-intake-limits'
import type { OpsContext } from '../ops/ops-context'
import type { Telephony } from '../ops/telephony'
import { ReadCache } from '../ops/read-cache'
import type { TemplateCatalogue } from '../ops/templates-catalogue'
import { translationModelOf } from '../settings/translation-settings'
import type { RuntimeConfig } from './config'
import type { RuntimeEngines } from './engines'
import type { OperatorFeed } from './operator'
import type { RuntimeStorage } from './storage'
import type { RuntimeWorkers } from './workers'

export interface ContextParts {
  config: RuntimeConfig
  storage: RuntimeStorage
  engines: RuntimeEngines
  workers: Pick<RuntimeWorkers, 'wakeJobs' | 'wakeWebhooks'>
  feed: OperatorFeed
  templates: TemplateCatalogue
  webhookAddresses: WebhookAddressPolicy
  mediaIntake: MediaIntakeLimits
  baseUrl: () => string
  now: () => Date
  telephony: Telephony
}

/** What every use case is given, by /v1 and the operator UI alike (OpsContext). */
export function composeContext({
  config,
  storage,
  engines,
  workers,
  feed,
  templates,
  webhookAddresses,
  mediaIntake,
  baseUrl,
  now,
  telephony,
}: ContextParts): OpsContext {
  const { store } = storage
  return {
    store,
    media: storage.media,
    secrets: storage.secrets,
    templates,
    sip: storage.sip,
    telephony,
    now,
    agentEnvelopes: new ReadCache(() => store.changeVersion()),
    webhookAddresses,
    baseUrl,
    jobEnqueued: (job) => {
      feed.jobChanged(job) // first: waking the runner may start the job at once, and "started" must follow "queued"
      workers.wakeJobs(job.type)
    },
    webhookQueued: workers.wakeWebhooks,
    aiContentModel: () => engines.aiContent().model,
    translationModel: () => translationModelOf(store),
    callEngines: () => engines.calls.describe(),
    socketDeadlineMs: config.calls?.socketDeadlineMs,
    mediaIntake,
  }
}
