import { createWebRtcVoiceClassifier } from '../../engines/audio/webrtc-voice-classifier'
import { createAiContentJobHandler } from '../../jobs/handlers/ai-content-job-handler'
import { createConversationJobHandler } from '../../jobs/handlers/conversation-job-handler'
import { createTranscriptionJobHandler } from '../../jobs/handlers/transcription-job-handler'
import { createTranslationJobHandler } from '../../jobs/handlers/translation-job-handler'
import { createTtsJobHandler } from '../../jobs/handlers/tts-job-handler'
import { JobRunner } from '../../jobs/job-runner'
import type { JobType } from '../../shared/api/jobs'
import type { StoreTransaction } from '../../store/ports'
import type { JobRecord } from '../../store/records'
import { conversationEndedOutbox, jobWebhookOutbox } from '../../webhooks/outbox'
import type { WebhookAddressPolicy } from '../../webhooks/webhook-address-policy'
import { WebhookSender } from '../../webhooks/webhook-sender'
import type { FaultBook } from '../faults/fault-book'
import type { MediaIntakeLimits } from '../media-intake/media-intake-limits'
import { transcriptionSource } from '../media-intake/transcription-source'
import { queueAiContentFollowUp } from '../ops/ai-content-follow-up'
import { mediaCost } from '../ops/prices'
import { createSttEngine } from '../settings/stt-settings'
import { createTranslationEngine } from '../settings/translation-settings'
import { webhookSigningSettings, type WebhookSigningSettings } from '../settings/webhook-settings'
import type { RuntimeConfig } from './config'
import type { RuntimeEngines } from './engines'
import type { OperatorFeed } from './operator'
import type { RuntimeStorage } from './storage'

/** The two kinds of leased work: queued jobs and stored webhook deliveries. */
export interface RuntimeWorkers {
  runner: JobRunner
  webhookSender: WebhookSender
  /** The operator's signing secret, as the sender reads it (cached a second). */
  signing: WebhookSigningSettings
  /** Work of this kind is due: this process's loop starts at once, other instances hear of it. */
  wakeJobs: (type?: JobType) => void
  wakeWebhooks: () => void
}

export interface WorkerParts {
  config: RuntimeConfig
  storage: RuntimeStorage
  engines: RuntimeEngines
  feed: OperatorFeed
  faults: FaultBook
  webhookAddresses: WebhookAddressPolicy
  mediaIntake: MediaIntakeLimits
  /** Where clients reach this service now (media URLs in webhooks, a transcription's own media). */
  baseUrl: () => string
  now: () => Date
}

export function composeWorkers(parts: WorkerParts): RuntimeWorkers {
  const { store } = parts.storage
  const signing = webhookSigningSettings(store, parts.storage.secrets)
  const webhookSender = composeWebhookSender(parts, signing)
  const wakeWebhooks = () => {
    webhookSender.wake()
    store.announceWork('webhooks')
  }
  const runner = composeJobRunner(parts, wakeWebhooks)
  const wakeJobs = (type?: JobType) => {
    runner.wake(type)
    store.announceWork('jobs')
  }
  return { runner, webhookSender, signing, wakeJobs, wakeWebhooks }
}

function composeWebhookSender(
  { config, storage, feed, faults, webhookAddresses, now }: WorkerParts,
  signing: WebhookSigningSettings,
): WebhookSender {
  const { store, errorLog } = storage
  return new WebhookSender({
    deliveries: store.webhookDeliveries,
    onWork: (kind, listener) => store.onWork(kind, listener),
    secrets: storage.secrets,
    signingSecret: signing.signingSecret,
    addressPolicy: webhookAddresses,
    ...config.webhooks,
    now: () => now().getTime(),
    onAttempt: (delivery, attempt, outcome) => {
      config.webhooks?.onAttempt?.(delivery, attempt, outcome)
      feed.deliveryAttempted(delivery, attempt, outcome)
    },
    diskFull: storage.diskFull,
    onError: (error, delivery) => errorLog.error({ err: error, deliveryId: delivery?.id }, 'webhook attempt failed inside VoiceDesk'),
    beforeAttempt: async (delivery) => {
      if (faults.empty) return undefined
      // The delivery's job is read only when a rule of its project names a job type or an agent.
      const job =
        delivery.jobId !== null && faults.deliveryRulesNeedJob(delivery.projectId)
          ? await store.jobs.findInProject(delivery.jobId, delivery.projectId)
          : undefined
      const fault = faults.matchDelivery(delivery.projectId, job)
      return (
        fault && {
          statusCode: fault.status,
          error: `Failed by fault ${fault.ruleId}${fault.status === null ? '' : ` (recorded as a ${fault.status} answer)`}; nothing was sent`,
        }
      )
    },
  })
}

function composeJobRunner(parts: WorkerParts, wakeWebhooks: () => void): JobRunner {
  const { config, storage, engines, feed, faults, now } = parts
  const { store, media, secrets, errorLog } = storage
  const jobOutbox = jobWebhookOutbox({ baseUrl: parts.baseUrl, now })
  const callEndedOutbox = conversationEndedOutbox({ now })
  const outbox = async (tx: StoreTransaction, job: JobRecord) => {
    await jobOutbox(tx, job)
    await callEndedOutbox(tx, job)
    await queueAiContentFollowUp(tx, job, engines.aiContent().model, now().toISOString())
  }
  const runner: JobRunner = new JobRunner({
    store,
    handlers: {
      TTS: createTtsJobHandler({
        engine: engines.speech,
        media,
        // The job's agent's voice dictionaries as they are when it runs (an agent deleted meanwhile: none).
        pronunciations: async (job) =>
          job.voiceAgentId
            ? (await store.voiceDictionaries.findActiveForAgent(job.voiceAgentId, job.projectId)).flatMap((dictionary) => dictionary.words)
            : [],
      }),
      AI_CONTENT: createAiContentJobHandler({ engine: () => engines.aiContent().engine, jobs: store.jobs }),
      // The language-model setting is read for each job: a choice made meanwhile counts at once.
      TRANSLATION: createTranslationJobHandler({ engine: () => createTranslationEngine(store, secrets), jobs: store.jobs }),
      TRANSCRIPTION: createTranscriptionJobHandler({
        stt: () => createSttEngine(store, secrets),
        fetchSource: transcriptionSource({
          media,
          limits: () => parts.mediaIntake,
          addressPolicy: parts.webhookAddresses,
          baseUrl: parts.baseUrl,
        }),
        withLocalFile: (name, use) => media.withLocalFile(name, use),
        classifier: () => createWebRtcVoiceClassifier(),
        cost: (seconds) => mediaCost('TRANSCRIPTION', seconds),
      }),
      CONVERSATION: createConversationJobHandler(),
    },
    ...config.jobs,
    timestamp: () => now().toISOString(),
    diskFull: storage.diskFull,
    onError: (error, job) => errorLog.error({ err: error, jobId: job?.id, type: job?.type }, 'job failed'),
    beforeRun: (job) => faults.matchJob(job.projectId, job),
    onJobStarted: (job) => {
      config.jobs?.onJobStarted?.(job)
      feed.jobChanged(job)
    },
    // A long job's progress: live views read the job again.
    onJobProgress: (job, fraction) => {
      config.jobs?.onJobProgress?.(job, fraction)
      feed.jobChanged(job)
    },
    // The webhook is stored with the job's end, in one transaction, then sent once committed.
    onJobEnding: outbox,
    onJobEnded: (job) => {
      config.jobs?.onJobEnded?.(job)
      // A transcription asked with AI content queued that job as it ended (queueAiContentFollowUp).
      if (job.type === 'TRANSCRIPTION' && job.jobResponse?.aiContentRequest !== undefined) runner.wake('AI_CONTENT')
      // A conversation's end may have stored its agent's call.ended.
      if (job.webhookUrl || job.type === 'CONVERSATION') wakeWebhooks()
      feed.jobChanged(job)
    },
  })
  return runner
}
