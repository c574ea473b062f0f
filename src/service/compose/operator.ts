import { randomBytes } from 'node:crypto'
import type { ConversationHost } from '../../conversations/conversation-host'
import type { IpcEvent } from '../../shared/ipc/operations'
import type { AttemptOutcome, AttemptRecord, DeliveryRecord, JobRecord } from '../../store/records'
import { FaultBook } from '../faults/fault-book'
import { OperatorEventHub } from '../operator/operator-events'
import { createOperatorHandlers, type OperatorHandlers } from '../operator/operator-handlers'
import type { OperatorStreamHandlers } from '../operator/operator-streams'
import { createTestCallHandler } from '../operator/test-call-stream'
import { VoiceSamples } from '../operator/voice-samples'
import { OneUseLinks } from '../ops/one-use-links'
import type { OperatorLinkKinds, OperatorLinks } from '../ops/operator-links'
import type { ApiKeyAuthenticator } from '../ops/api-keys'
import type { OpsContext } from '../ops/ops-context'
import type { RequestJournal } from '../request-journal/request-journal'
import type { ProjectState } from '../state/project-state'
import type { WebhookSigningSettings } from '../settings/webhook-settings'
import type { TestRunner } from '../test-runs/test-runner'
import { VERSION, type RuntimeConfig, type SipLineStatus } from './config'
import type { RuntimeEngines } from './engines'
import type { RuntimeStorage } from './storage'

/** Live updates for the operator UI, and the two kinds of work whose changes it shows. */
export interface OperatorFeed {
  events: OperatorEventHub
  /** A job was queued, started, moved on or ended: the UI reads it again (default project only). */
  jobChanged: (job: JobRecord) => void
  /** A webhook attempt ended (default project only). */
  deliveryAttempted: (delivery: DeliveryRecord, attempt: AttemptRecord, outcome: AttemptOutcome) => void
}

/** The fault rules, whose changes the UI's badge follows (it counts the default project's rules: the project it acts in). */
export function composeFaults(
  config: RuntimeConfig,
  storage: Pick<RuntimeStorage, 'appCaller'>,
  feed: OperatorFeed,
  now: () => Date,
): FaultBook {
  return new FaultBook({
    now,
    random: config.faults?.random,
    onChanged: (projectId, active) =>
      feed.events.emit(() => (projectId === storage.appCaller.projectId ? { type: 'faults.changed', active } : undefined)),
  })
}

export function composeOperatorFeed({
  store,
  appCaller,
  errorLog,
}: Pick<RuntimeStorage, 'store' | 'appCaller' | 'errorLog'>): OperatorFeed {
  const events = new OperatorEventHub((error, eventType) =>
    errorLog.error({ err: error, eventType }, 'a listener of operator events failed'),
  )
  const jobChanged = (job: JobRecord) =>
    events.emitAsync(async (): Promise<IpcEvent | undefined> => {
      if (job.projectId !== appCaller.projectId) return undefined // the UI sees the default project only
      const { running, waiting } = await store.jobs.queueCounts()
      return {
        type: 'job.changed',
        job: { id: job.id, status: job.status, type: job.type, title: job.title },
        runningJobs: running,
        pendingJobs: waiting,
      }
    })
  const deliveryAttempted = (delivery: DeliveryRecord, attempt: AttemptRecord, outcome: AttemptOutcome) =>
    events.emit((): IpcEvent | undefined =>
      delivery.projectId !== appCaller.projectId
        ? undefined
        : {
            type: 'delivery.attempted',
            delivery: {
              id: delivery.id,
              jobId: delivery.jobId,
              status: outcome.status,
              attempts: attempt.attempt,
              lastStatusCode: attempt.statusCode,
              lastError: attempt.error,
            },
          },
    )
  return { events, jobChanged, deliveryAttempted }
}

/** What the operator UI reaches, by either carrier: Electron's IPC, or browser mode's /ipc over HTTP. */
export interface OperatorBridge {
  /** The handler table for a carrier (the host shows in service.info); one per host, made once. */
  handlers: (host: 'desktop' | 'browser') => OperatorHandlers
  streams: OperatorStreamHandlers
  links: OperatorLinks
  /** The secret of browser mode's /ipc and /app, random on every start. */
  uiToken: string
}

export interface OperatorBridgeParts {
  config: RuntimeConfig
  storage: RuntimeStorage
  engines: RuntimeEngines
  context: OpsContext
  calls: ConversationHost
  faults: FaultBook
  journal: RequestJournal | undefined
  state: ProjectState
  /** The signing setting the webhook sender reads (one cache for both). */
  signing: WebhookSigningSettings
  now: () => Date
  /** Agent test runs: the operator starts them with a run ticket of `authenticator`. */
  testRuns: TestRunner
  authenticator: ApiKeyAuthenticator
  /** The SIP line's status, read live by `sip.status`. */
  sipLine: () => SipLineStatus
}

export function composeOperatorBridge({
  config,
  storage,
  engines,
  context,
  calls,
  faults,
  journal,
  state,
  signing,
  now,
  testRuns,
  authenticator,
  sipLine,
}: OperatorBridgeParts): OperatorBridge {
  const { store, appCaller } = storage
  const voiceSamples = new VoiceSamples(engines.speech)
  const links: OperatorLinks = new OneUseLinks<OperatorLinkKinds>(() => now().getTime())
  const tables = new Map<'desktop' | 'browser', OperatorHandlers>()
  const handlers = (host: 'desktop' | 'browser') => {
    let table = tables.get(host)
    if (!table) {
      table = createOperatorHandlers({
        context,
        caller: appCaller,
        host,
        version: VERSION,
        dataDir: storage.storageLabel,
        voiceSamples,
        webhookSigning: async () => (await signing.signingSecret()) !== undefined,
        queueCounts: () => store.jobs.queueCounts(),
        cliCorsOrigins: config.corsOrigins,
        faults,
        aiContentEngineChanged: engines.reloadAiContent,
        journal: () => journal,
        state,
        links,
        testRuns,
        authenticator,
        sipLine,
      })
      tables.set(host, table)
    }
    return table
  }
  const streams: OperatorStreamHandlers = {
    'calls.test': createTestCallHandler({
      context,
      caller: appCaller,
      connect: (jobId, projectId, transport) => calls.connect(jobId, projectId, transport),
    }),
  }
  return { handlers, streams, links, uiToken: randomBytes(32).toString('base64url') }
}
