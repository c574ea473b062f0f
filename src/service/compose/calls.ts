import { ConversationHost } from '../../conversations/conversation-host'
import type { CallEventWriter } from '../../conversations/call-session-options'
import type { JobRecord } from '../../store/records'
import { callEventOutbox } from '../../webhooks/outbox'
import { leaseOwnerName } from '../../workers/lease-owner'
import { conversationCost } from '../ops/prices'
import type { RuntimeConfig } from './config'
import type { RuntimeEngines } from './engines'
import type { OperatorFeed } from './operator'
import type { RuntimeStorage } from './storage'
import type { RuntimeWorkers } from './workers'

export interface CallParts {
  config: RuntimeConfig
  storage: RuntimeStorage
  engines: RuntimeEngines
  workers: Pick<RuntimeWorkers, 'wakeJobs' | 'wakeWebhooks'>
  feed: OperatorFeed
  now: () => Date
}

/** Live calls of this instance (the web SDK's sockets): their events go to the agent's webhook through the outbox. */
export function composeCalls({ config, storage, engines, workers, feed, now }: CallParts): ConversationHost {
  const { store, errorLog } = storage
  return new ConversationHost({
    store,
    media: storage.media,
    diskFull: storage.diskFull,
    heldRecordingBytes: config.calls?.heldRecordingBytes,
    maxCalls: config.calls?.maxConcurrent,
    audio: engines.calls.audio,
    engines: () => engines.calls.choose(),
    writeEvent: callEventsToJobWebhook(callEventOutbox({ now })),
    owner: leaseOwnerName(),
    limits: config.calls,
    costOf: conversationCost,
    timestamp: () => now().toISOString(),
    webhookQueued: workers.wakeWebhooks,
    changed: feed.jobChanged,
    recordingChanged: (jobId) =>
      void store.jobs.findById(jobId).then(
        (job) => job && feed.jobChanged(job),
        (error: unknown) => errorLog.error({ err: error }, 'live call: a stored recording could not be announced'),
      ),
    jobsRequeued: () => workers.wakeJobs(),
    onError: (error, what) => errorLog.error({ err: error }, `live call: ${what}`),
  })
}

/**
 * An outbound call made with its own webhookUrl (POST /v1/voice-agents/call) tells that one
 * rather than the agent's: the conversation's record carries it.
 */
function callEventsToJobWebhook(write: CallEventWriter): CallEventWriter {
  return (tx, { job, agent }, event, data) => {
    const record = job as Partial<Pick<JobRecord, 'webhookUrl' | 'webhookAuthKey' | 'webhookAuthSecret'>>
    if (!record.webhookUrl) return write(tx, { job, agent }, event, data)
    const target = {
      webhookUrl: record.webhookUrl,
      webhookAuthKey: record.webhookAuthKey ?? null,
      webhookAuthSecret: record.webhookAuthSecret ?? null,
    }
    return write(tx, { job, agent: { ...agent, ...target } }, event, data)
  }
}
