import type { FastifyInstance } from 'fastify'
import { pino, type Logger } from 'pino'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, renameSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, extname, isAbsolute, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import packageJson from '../../package.json'
import type { AiContentEngine } from '../engines/ai-content/ai-content-engine'
import { createEspeakTtsEngine, type TtsEngine } from '../engines/tts/tts-engine'
import { createAiContentJobHandler } from '../jobs/handlers/ai-content-job-handler'
import { createTranslationJobHandler } from '../jobs/handlers/translation-job-handler'
import { removeLeftoverPartialMedia } from '../store/partial-media-files'
import { describeBytes } from '../store/media-errors'
import { removeDeadImportLeftovers } from './state/import-leftovers'
import { FileMediaStore } from '../store/file-media-store'
import { createWebRtcVoiceClassifier } from '../engines/audio/webrtc-voice-classifier'
import { createTranscriptionJobHandler } from '../jobs/handlers/transcription-job-handler'
import { transcriptionSource } from './media-intake/transcription-source'
import { createSttEngine } from './settings/stt-settings'
import { mediaCost } from './ops/prices'
import { createTtsJobHandler } from '../jobs/handlers/tts-job-handler'
import { createConversationJobHandler } from '../jobs/handlers/conversation-job-handler'
import type { CallLimits } from '../conversations/call-session'
import { ConversationHost } from '../conversations/conversation-host'
import type { DialogueEngine } from '../engines/dialogue/dialogue-engine'
import type { SttEngine } from '../engines/stt/stt-engine'
import { leaseOwnerName } from '../workers/lease-owner'
import { CallEngines } from './compose/call-engines'
import { conversationCost } from './ops/prices'
import { JobRunner, type JobRunnerOptions } from '../jobs/job-runner'
import { isDeadLeaseOwner } from '../workers/lease-owner'
import { DiskFullCondition, type DiskFullConditionOptions } from '../store/disk-full-condition'
import { loadOrCreateKeyFile, SecretBox } from '../store/secret-box'
import { openRequestJournalStore, openStore } from '../store/open-store'
import type { MediaStore, Store, StoreTransaction } from '../store/ports'
import { RequestJournalInUseError, type RequestJournalStore } from '../store/request-journal'
import { WebhookAddressPolicy } from '../webhooks/webhook-address-policy'
import { callEventOutbox, conversationEndedOutbox, jobWebhookOutbox } from '../webhooks/outbox'
import { WebhookSender, type WebhookSenderOptions } from '../webhooks/webhook-sender'
import { buildHttpApp } from './http/build-app'
import type { IpcEvent } from '../shared/ipc/operations'
import type { JobRecord } from '../store/records'
import type { AttemptOutcome, AttemptRecord, DeliveryRecord } from '../store/records'
import { createOperatorHandlers, type OperatorHandlers } from './operator/operator-handlers'
import type { OperatorStreamHandlers } from './operator/operator-streams'
import { createTestCallHandler } from './operator/test-call-stream'
import { OperatorEventHub, type OperatorEvents } from './operator/operator-events'
import { VoiceSamples } from './operator/voice-samples'
import { ApiKeyAuthenticator, bootstrapAccounts, ensureAppIdentity, firstKeyToShow, type Bootstrap } from './ops/api-keys'
import type { Caller, OpsContext, SipSettings } from './ops/ops-context'
import { ReadCache } from './ops/read-cache'
import { createAiContentEngine } from './settings/ai-content-settings'
import { createTranslationEngine, translationModelOf } from './settings/translation-settings'
import { effectiveCorsOrigins } from './settings/cors-settings'
import { RepeatedErrorLog } from './ops/repeated-error-log'
import { loadTemplateCatalogue } from './ops/templates-catalogue'
import { webhookSigningSettings } from './settings/webhook-settings'
import {
  DATABASE_FILE,
  JOURNAL_FILE,
  MEDIA_FOLDER,
  SECRET_KEY_FILE,
  SNAPSHOTS_FOLDER,
  makeDatabaseFilesPrivate,
  prepareDataFolder,
  preparePrivateFolder,
} from './compose/data-folder'
import { announceRunningService } from './compose/running-services'
import { checkSealingKey } from './compose/sealing-key-check'
import { DEFAULT_MEDIA_INTAKE_LIMITS, type MediaIntakeLimits } from './media-intake/media-intake-limits'
import { RequestJournal, type RequestJournalSettings } from './request-journal/request-journal'
import { FaultBook, type FaultBookOptions } from './faults/fault-book'
import { ProjectState } from './state/project-state'
import type { ArchiveLimits } from './state/state-archive'
import { FolderSnapshotShelf, MediaSnapshotShelf } from './state/snapshot-shelf'
import { OneUseLinks } from './ops/one-use-links'
import type { OperatorLinkKinds, OperatorLinks } from './ops/operator-links'
import { applySeed, SEED_FILE } from './state/seed'

export const VERSION: string = packageJson.version
export const DEFAULT_PORT = 8740
export const DEFAULT_HOST = '127.0.0.1'

/**
 * The project's resources/ folder, found upwards from this module: it sits at a different
 * depth in src/ (tests, tsx) and in the bundled out/main/ chunks.
 */
function findResourcesDir(): string {
  let directory = dirname(fileURLToPath(import.meta.url))
  for (let level = 0; level < 5; level += 1) {
    if (existsSync(join(directory, 'resources', 'templates'))) return join(directory, 'resources')
    directory = dirname(directory)
  }
  throw new Error('resources/templates not found above ' + fileURLToPath(import.meta.url) + '; pass resourcesDir')
}

export interface RuntimeConfig {
  /**
   * Folder of the SQLite database, the secret key file and media (absolute). Not used in team
   * mode (`database`), where PostgreSQL holds everything, media included.
   */
  dataDir?: string
  /**
   * Team mode: the service runs on this PostgreSQL database, where any number of instances
   * share the work. `secretKey` is then required (VOICEDESK_SECRET_KEY: the same on every instance).
   */
  database?: { url: string; poolSize?: number }
  port?: number
  host?: string
  /** VOICEDESK_API_KEY: this exact key will exist in the default project. */
  fixedApiKey?: string
  resourcesDir?: string
  /** better_sqlite3.node for the host runtime (Electron passes its own build). */
  nativeBinding?: string
  /** The key that seals secrets at rest; by default a key file in the data folder (required in team mode). */
  secretKey?: Buffer
  /** The service log (pino); silent by default, so tests and embedders choose. */
  log?: Logger
  /** Job runner settings (defaults: the lanes of DEFAULT_JOB_LANES, 120 s per try, 3 tries), and hooks for live views. */
  jobs?: Pick<JobRunnerOptions, 'lanes' | 'concurrency' | 'timeoutMs' | 'leaseMarginMs' | 'maxAttempts' | 'retryDelayMs' | 'onJobStarted' | 'onJobProgress' | 'onJobEnded'> & {
    /** How long stop() waits for running jobs. */
    graceMs?: number
  }
  /** Webhook sender settings (defaults: 256 attempts in flight, 10 s each, the 8-try schedule), and hooks. */
  webhooks?: Pick<WebhookSenderOptions, 'concurrency' | 'timeoutMs' | 'retryDelaysMs' | 'random' | 'onAttempt' | 'onAttemptStarted' | 'dispatcher' | 'lookup'> & {
    /** How long stop() waits for attempts in flight. */
    graceMs?: number
  }
  /** The built renderer (out/renderer), served at /app/ for browser mode; without it /app/ answers 404. */
  rendererDir?: string
  /**
   * Host names (no port) that requests may carry in their Host header besides the loopback
   * names and the address the service listens on (`--allowed-host`); others get 421.
   */
  allowedHosts?: string[]
  /**
   * Origins allowed to call /v1 from a web page (`--cors-origin`, repeatable; `*` for any).
   * Left out: the setting saved in the data folder, else any http://localhost:* and
   * http://127.0.0.1:* origin.
   */
  corsOrigins?: string[]
  /**
   * Webhook hosts allowed although their address is link-local or a cloud metadata address
   * (`--allow-webhook-host`, repeatable): a host name or an IP literal, compared exactly.
   */
  allowWebhookHosts?: string[]
  /**
   * Start with a new database although the data folder still holds the secret key or media
   * of a database that went missing (refused otherwise: see prepareDataFolder).
   */
  forceNew?: boolean
  /** When a full disk counts as having room again (default: 8 MiB free, checked from 0.25 s to every 5 s). */
  diskFull?: Pick<DiskFullConditionOptions, 'minFreeBytes' | 'firstCheckMs' | 'maxCheckMs'>
  /** Overrides the AI-content engine chosen in settings (offline by default). */
  aiContentEngine?: AiContentEngine
  /** Live calls: limits (lease, longest call, tool and outcome time limits) and how long a new conversation waits for its socket. */
  calls?: Partial<CallLimits> & {
    socketDeadlineMs?: number
    /** Bytes of call recordings kept in memory while the disk is full (128 MiB; docs/api.md, "Recordings on a full disk"). */
    heldRecordingBytes?: number
  }
  /** Overrides the dialogue engine chosen in settings (which follows the AI engine). */
  dialogueEngine?: DialogueEngine
  /** Overrides the speech recognition chosen in settings; null turns it off. */
  sttEngine?: SttEngine | null
  /**
   * Media taken in for transcription (uploads and URLs; docs/api.md, "Media intake"): sizes in
   * bytes (2 GiB each by default, `--max-media-size`), the fetch timeout (30 s of silence,
   * `--media-fetch-timeout`), the fetch deadline (10 minutes, `--media-fetch-deadline`), the least
   * pace of a fetch (4 KiB/s over each 30 s; 0 for none) and the redirects followed (5).
   */
  mediaIntake?: Partial<MediaIntakeLimits>
  /**
   * The request journal (docs/api.md, "Request journal"): on unless `enabled: false`
   * (`--journal off`). Its file: `file`, else journal.db in the data folder, else (team mode)
   * one per database in the system's temp folder. Retention and batching: see RequestJournalSettings.
   */
  journal?: Partial<RequestJournalSettings> & { enabled?: boolean; file?: string }
  /** Fault injection (docs/api.md, "Fault injection"): `random` decides rates and draws delays (tests pass a seeded one). */
  faults?: Pick<FaultBookOptions, 'random'>
  /**
   * A seed applied at start when the default project is empty (`serve --seed FILE`): JSON of
   * agents and phone numbers, or a state archive (.tar.gz). Left out: the data folder's
   * voicedesk.seed.json, if any. A bad seed fails the start (SeedError names the file and field).
   */
  seed?: string
  /** The largest archive an import reads, media included (16 GiB by default). */
  maxImportBytes?: number
  /** What an archive may hold once ungzipped (DEFAULT_ARCHIVE_LIMITS by default; tests give small ones). */
  archiveLimits?: Partial<ArchiveLimits>
  now?: () => Date
}

const SipSettingsSchema = z.object({
  originationUri: z.string(),
  outboundAddress: z.string(),
  transportType: z.string(),
  customHeaders: z.record(z.string(), z.string()),
})

export const DEFAULT_SIP_SETTINGS: SipSettings = {
  originationUri: 'sip:127.0.0.1:5060;transport=tcp',
  outboundAddress: '127.0.0.1',
  transportType: 'TCP',
  customHeaders: {},
}

export interface Runtime {
  readonly store: Store
  readonly context: OpsContext
  /** Runs queued jobs from the moment the runtime exists (before and without listening). */
  readonly runner: JobRunner
  /** Sends stored webhook deliveries, from the moment the runtime exists. */
  readonly webhookSender: WebhookSender
  readonly app: FastifyInstance
  readonly bootstrap: Bootstrap
  /** Where media is kept: the data folder's media/, or the database in team mode. */
  readonly media: MediaStore
  /** Whether the data folder's disk is full now (see DiskFullCondition); shared by the runner, the sender and /v1. */
  readonly diskFull: DiskFullCondition
  /** The service log given in the config (silent by default). */
  readonly log: Logger
  /** The identity the operator UI acts with: the app's own key record in the default project. */
  readonly appCaller: Caller
  /** Live updates for the operator UI (jobs queued, started, ended; webhook attempts). */
  readonly events: OperatorEvents
  /** Live calls of this instance (the web SDK's sockets). */
  readonly calls: ConversationHost
  /** The request journal; undefined when turned off. */
  readonly journal: RequestJournal | undefined
  /** Fault-injection rules of this instance (in memory; /_voicedesk/faults and the operator UI). */
  readonly faults: FaultBook
  /** Export, import, snapshots and reset of a project's state. */
  readonly state: ProjectState
  /** The operator UI's one-use links (state's export and import, a transcription's upload). */
  readonly links: OperatorLinks
  /**
   * The secret of browser mode's /ipc and /app, random on every start (the CLI prints it in
   * the link to the UI). The Electron window needs none: IPC reaches only its own frame.
   */
  readonly uiToken: string
  /** The operator UI's handler table for a transport (the host shows in service.info). */
  operatorHandlers(host: 'desktop' | 'browser'): OperatorHandlers
  /** The operator UI's streams (a test call), the same for both carriers. */
  readonly operatorStreams: OperatorStreamHandlers
  /** Listens on host:port; resolves to the base URL (with the real port when port is 0). */
  start(): Promise<string>
  /**
   * Stops accepting requests, lets in-flight requests and running jobs finish (jobs still
   * running after `jobGraceMs` go back to the queue for the next start), closes the
   * engines and the database. Idempotent.
   */
  stop(): Promise<void>
}

/** Composes store, ops and HTTP service from one config. Shared by the CLI, Electron and tests. */
export async function createRuntime(config: RuntimeConfig): Promise<Runtime> {
  const now = config.now ?? (() => new Date())
  const templates = loadTemplateCatalogue(join(config.resourcesDir ?? findResourcesDir(), 'templates'))
  // The edges (CLI, Electron) resolve paths once; a relative one here would mean something else to every module.
  const dataDir = config.database ? undefined : config.dataDir
  if (config.database) {
    if (!config.secretKey) throw new Error('Team mode (RuntimeConfig.database) needs secretKey: every instance must seal secrets with the same key')
  } else if (dataDir === undefined || !isAbsolute(dataDir)) {
    // The edges (CLI, Electron) resolve paths once; a relative one here would mean something else to every module.
    throw new Error(`RuntimeConfig.dataDir must be an absolute path, not ${JSON.stringify(dataDir)}`)
  } else {
    prepareDataFolder(dataDir, { forceNew: config.forceNew })
  }
  const secrets = new SecretBox(config.secretKey ?? loadOrCreateKeyFile(join(dataDir!, SECRET_KEY_FILE)))
  const { store, sharedMedia } = await openStore(
    config.database
      ? { engine: 'postgres', url: config.database.url, poolSize: config.database.poolSize }
      : { engine: 'sqlite', file: join(dataDir!, DATABASE_FILE), nativeBinding: config.nativeBinding },
  )
  /** Where the data is, for people: the data folder, or the database without its password. */
  const storageLabel = config.database ? databaseLabel(config.database.url) : dataDir!
  let journal: RequestJournal | undefined
  try {
    if (dataDir) makeDatabaseFilesPrivate(dataDir)
    else await checkSealingKey(store, secrets)
    const bootstrap = await firstKeyToShow(store, secrets, await bootstrapAccounts(store, now(), config.fixedApiKey))
    const appCaller = await ensureAppIdentity(store, now(), bootstrap)
    const sip = (await store.settings.get('sip', SipSettingsSchema)) ?? DEFAULT_SIP_SETTINGS
    const log = config.log ?? pino({ level: 'silent' })
    // The same failure again within a minute is counted, not written again (a full disk fails every request).
    const errorLog = new RepeatedErrorLog(log)
    const mediaDir = dataDir && join(dataDir, MEDIA_FOLDER)
    if (mediaDir) mkdirSync(mediaDir, { recursive: true })
    const media = sharedMedia ?? new FileMediaStore(mediaDir!)
    // One line when the disk fills, one when it has room again: not one per failed write. In
    // team mode it is the database server's disk: no folder to watch, so writes are tried again soon.
    const diskFull = new DiskFullCondition({
      ...config.diskFull,
      directory: dataDir,
      onEnter: (error) =>
        log.error(
          { code: (error as { code?: string }).code, storage: storageLabel },
          "disk full: the data's disk has no room; reads go on, writes answer 507 and jobs wait until space is freed",
        ),
      onLeave: () => log.warn({ storage: storageLabel }, 'disk full no more: writes and jobs resume'),
    })
    if (mediaDir) {
      // Half-written media a crash or a full disk left behind. Another live process on the same
      // folder may be writing its own right now: then only those older than a try are removed.
      // As long as a job's lease: its try time and the lease margin (see JobRunnerOptions).
      const tryMs = (config.jobs?.timeoutMs ?? 120_000) + (config.jobs?.leaseMarginMs ?? 30_000)
      const othersRunning = (await store.jobs.pendingLeaseOwners()).some((owner) => !isDeadLeaseOwner(owner, ''))
      removeLeftoverPartialMedia(mediaDir, othersRunning ? { olderThanMs: tryMs } : {})
    }
    // What imports, restores and exports of processes killed meanwhile left: media no row names, temp folders.
    const leftovers = await removeDeadImportLeftovers({ storage: storageLabel, media, jobs: store.jobs })
    if (leftovers.folders > 0) {
      log.warn(
        { ...leftovers, storage: storageLabel },
        `removed what ${leftovers.folders} interrupted imports, restores or exports left: ${leftovers.media} media files no job names (${describeBytes(leftovers.mediaBytes)}) and their temp folders (${describeBytes(leftovers.folderBytes)})`,
      )
    }
    const port = config.port ?? DEFAULT_PORT
    const host = config.host ?? DEFAULT_HOST
    let baseUrl = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`

    // The speech engine starts on the first TTS job or voice sample (WASM takes ~0.2 s), then stays warm.
    let ttsEngine: Promise<TtsEngine> | undefined
    let closing = false
    const speechEngine = () =>
      (ttsEngine ??= closing
        ? Promise.reject(new Error('The runtime is stopping'))
        : createEspeakTtsEngine().catch((error: unknown) => {
            ttsEngine = undefined // a failed start is tried again by the next job
            throw error
          }))
    // Read again when the operator chooses another engine (settings.setAiEngine): the next job uses it.
    let aiContent = await createAiContentEngine(store, secrets, config.aiContentEngine)
    let runner: JobRunner | undefined
    const events = new OperatorEventHub((error, eventType) => errorLog.error({ err: error, eventType }, 'a listener of operator events failed'))
    const jobChanged = (job: JobRecord) =>
      events.emitAsync(async (): Promise<IpcEvent | undefined> => {
        if (job.projectId !== appCaller.projectId) return undefined // the UI sees the default project only
        const { running, waiting } = await store.jobs.queueCounts()
        return { type: 'job.changed', job: { id: job.id, status: job.status, type: job.type, title: job.title }, runningJobs: running, pendingJobs: waiting }
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
    const faults = new FaultBook({
      now,
      random: config.faults?.random,
      // The UI's badge counts the default project's rules (the project it acts in).
      onChanged: (projectId, active) => events.emit(() => (projectId === appCaller.projectId ? { type: 'faults.changed', active } : undefined)),
    })
    const signing = webhookSigningSettings(store, secrets)
    const webhookAddresses = new WebhookAddressPolicy(config.allowWebhookHosts)
    const webhookSender = new WebhookSender({
      deliveries: store.webhookDeliveries,
      onWork: (kind, listener) => store.onWork(kind, listener),
      secrets,
      signingSecret: signing.signingSecret,
      addressPolicy: webhookAddresses,
      ...config.webhooks,
      now: () => now().getTime(),
      onAttempt: (delivery, attempt, outcome) => {
        config.webhooks?.onAttempt?.(delivery, attempt, outcome)
        deliveryAttempted(delivery, attempt, outcome)
      },
      diskFull,
      onError: (error, delivery) => errorLog.error({ err: error, deliveryId: delivery?.id }, 'webhook attempt failed inside VoiceDesk'),
      beforeAttempt: async (delivery) => {
        if (faults.empty) return undefined
        // The delivery's job is read only when a rule of its project names a job type or an agent.
        const job = delivery.jobId !== null && faults.deliveryRulesNeedJob(delivery.projectId) ? await store.jobs.findInProject(delivery.jobId, delivery.projectId) : undefined
        const fault = faults.matchDelivery(delivery.projectId, job)
        return (
          fault && { statusCode: fault.status, error: `Failed by fault ${fault.ruleId}${fault.status === null ? '' : ` (recorded as a ${fault.status} answer)`}; nothing was sent` }
        )
      },
    })
    const context: OpsContext = {
      store,
      media,
      secrets,
      templates,
      sip,
      now,
      agentEnvelopes: new ReadCache(() => store.changeVersion()),
      webhookAddresses,
      baseUrl: () => baseUrl,
      jobEnqueued: (job) => {
        jobChanged(job) // first: waking the runner may start the job at once, and "started" must follow "queued"
        runner?.wake(job.type)
        store.announceWork('jobs')
      },
      webhookQueued: () => {
        webhookSender.wake()
        store.announceWork('webhooks')
      },
      aiContentModel: () => aiContent.model,
      translationModel: () => translationModelOf(store),
      callEngines: () => callEngines.describe(),
      socketDeadlineMs: config.calls?.socketDeadlineMs,
      mediaIntake: mediaIntakeLimits(config.mediaIntake),
    }
    const jobOutbox = jobWebhookOutbox({ baseUrl: () => baseUrl, now })
    const callEndedOutbox = conversationEndedOutbox({ now })
    const outbox = async (tx: StoreTransaction, job: JobRecord) => {
      await jobOutbox(tx, job)
      await callEndedOutbox(tx, job)
    }
    runner = new JobRunner({
      store,
      handlers: {
        TTS: createTtsJobHandler({
          engine: speechEngine,
          media,
        }),
        AI_CONTENT: createAiContentJobHandler({ engine: () => aiContent.engine, jobs: store.jobs }),
        // The language-model setting is read for each job: a choice made meanwhile counts at once.
        TRANSLATION: createTranslationJobHandler({ engine: () => createTranslationEngine(store, secrets), jobs: store.jobs }),
        TRANSCRIPTION: createTranscriptionJobHandler({
          stt: () => createSttEngine(store, secrets),
          fetchSource: transcriptionSource({ media, limits: () => context.mediaIntake, addressPolicy: webhookAddresses, baseUrl: () => baseUrl }),
          withLocalFile: (name, use) => media.withLocalFile(name, use),
          classifier: () => createWebRtcVoiceClassifier(),
          cost: (seconds) => mediaCost('TRANSCRIPTION', seconds),
        }),
        CONVERSATION: createConversationJobHandler(),
      },
      ...config.jobs,
      timestamp: () => now().toISOString(),
      diskFull,
      onError: (error, job) => errorLog.error({ err: error, jobId: job?.id, type: job?.type }, 'job failed'),
      beforeRun: (job) => faults.matchJob(job.projectId, job),
      onJobStarted: (job) => {
        config.jobs?.onJobStarted?.(job)
        jobChanged(job)
      },
      // A long job's progress: live views read the job again.
      onJobProgress: (job, fraction) => {
        config.jobs?.onJobProgress?.(job, fraction)
        jobChanged(job)
      },
      // The webhook is stored with the job's end, in one transaction, then sent once committed.
      onJobEnding: outbox,
      onJobEnded: (job) => {
        config.jobs?.onJobEnded?.(job)
        // A conversation's end may have stored its agent's call.ended.
        if (job.webhookUrl || job.type === 'CONVERSATION') {
          webhookSender.wake()
          store.announceWork('webhooks')
        }
        jobChanged(job)
      },
    })
    const callEngines = new CallEngines({ store, secrets, speech: speechEngine, dialogue: config.dialogueEngine, stt: config.sttEngine })
    const writeCallEvent = callEventOutbox({ now })
    const calls = new ConversationHost({
      store,
      media,
      diskFull,
      heldRecordingBytes: config.calls?.heldRecordingBytes,
      audio: callEngines.audio,
      engines: () => callEngines.choose(),
      writeEvent: writeCallEvent,
      owner: leaseOwnerName(),
      limits: config.calls,
      costOf: conversationCost,
      timestamp: () => now().toISOString(),
      webhookQueued: context.webhookQueued,
      changed: jobChanged,
      recordingChanged: (jobId) =>
        void store.jobs.findById(jobId).then(
          (job) => job && jobChanged(job),
          (error: unknown) => errorLog.error({ err: error }, 'live call: a stored recording could not be announced'),
        ),
      jobsRequeued: () => {
        runner?.wake()
        store.announceWork('jobs')
      },
      onError: (error, what) => errorLog.error({ err: error }, `live call: ${what}`),
    })
    const voiceSamples = new VoiceSamples(speechEngine)
    const handlerTables = new Map<'desktop' | 'browser', OperatorHandlers>()
    const operatorHandlers = (host: 'desktop' | 'browser') => {
      let table = handlerTables.get(host)
      if (!table) {
        table = createOperatorHandlers({
          context,
          caller: appCaller,
          host,
          version: VERSION,
          dataDir: storageLabel,
          voiceSamples,
          webhookSigning: async () => (await signing.signingSecret()) !== undefined,
          queueCounts: () => store.jobs.queueCounts(),
          cliCorsOrigins: config.corsOrigins,
          faults,
          aiContentEngineChanged: async () => {
            aiContent = await createAiContentEngine(store, secrets, config.aiContentEngine)
          },
          journal: () => journal,
          state,
          links,
        })
        handlerTables.set(host, table)
      }
      return table
    }
    // The setting is read again only after a write to the database (this process's or another's).
    const corsSetting = new ReadCache<readonly string[]>(() => store.changeVersion(), 1)
    const corsOrigins = config.corsOrigins?.length
      ? () => config.corsOrigins!
      : async () => corsSetting.peek('origins') ?? (await corsSetting.get('origins', async () => (await effectiveCorsOrigins(store, undefined)).origins))!
    const operatorStreams: OperatorStreamHandlers = {
      'calls.test': createTestCallHandler({ context, caller: appCaller, connect: (jobId, projectId, transport) => calls.connect(jobId, projectId, transport) }),
    }
    const uiToken = randomBytes(32).toString('base64url')
    const journalStore = config.journal?.enabled === false ? undefined : openJournalFile(config.journal?.file ?? journalFileOf(dataDir, storageLabel), config.nativeBinding, log)
    if (journalStore) {
      const { enabled: _enabled, file: _file, ...settings } = config.journal ?? {}
      const fromDataDir = dataDir === undefined ? undefined : relative(dataDir, journalStore.file)
      const journalOnDataDisk = fromDataDir !== undefined && !fromDataDir.startsWith('..') && !isAbsolute(fromDataDir)
      journal = new RequestJournal({
        store: journalStore.store,
        settings,
        now,
        onError: (error, what) => {
          // journal.db shares the data folder's disk: a full disk is the one condition, said once, not a failure per batch.
          if (journalOnDataDisk && diskFull.report(error)) return
          errorLog.error({ err: error }, `request journal: ${what} failed`)
        },
      })
      // The Requests screen refreshes on it; the journal writes at most every flushMs, so this is never a flood.
      journal.onWritten(() => events.emit(() => ({ type: 'requests.written' })))
    }
    const state = new ProjectState({
      store,
      media,
      storage: storageLabel,
      secrets,
      // SQLite: the data folder's snapshots/; team mode: the database (every instance sees them).
      shelf: dataDir ? new FolderSnapshotShelf(join(dataDir, SNAPSHOTS_FOLDER)) : new MediaSnapshotShelf(media, store.settings),
      version: VERSION,
      now,
      maxImportBytes: config.maxImportBytes,
      archiveLimits: config.archiveLimits,
      replaced: () => {
        // Work that came back with the rows (queued jobs, pending deliveries) runs again.
        runner?.wake()
        webhookSender.wake()
        store.announceWork('jobs')
        store.announceWork('webhooks')
      },
    })
    const links: OperatorLinks = new OneUseLinks<OperatorLinkKinds>(() => now().getTime())
    const app = await buildHttpApp({
      context,
      authenticator: new ApiKeyAuthenticator(context, (error) => errorLog.error({ err: error }, 'recording when an API key was last used failed')),
      version: VERSION,
      log: errorLog,
      clientFaultLog: log,
      media: mediaDir ? { directory: mediaDir } : { store: media },
      diskFull,
      hosts: { listenHost: host, allowedHosts: config.allowedHosts },
      corsOrigins,
      operator: { handlers: operatorHandlers('browser'), events, streams: operatorStreams, uiToken, rendererDir: config.rendererDir },
      calls: { connect: (jobId, caller, transport) => calls.connect(jobId, caller.projectId, transport) },
      speech: speechEngine,
      journal,
      faults,
      state: { state, links, now },
    })
    const seedFile = config.seed ?? (dataDir && existsSync(join(dataDir, SEED_FILE)) ? join(dataDir, SEED_FILE) : undefined)
    if (seedFile) await applySeed(seedFile, context, state, appCaller)
    await runner.start()
    await webhookSender.start()
    calls.start()
    const jobRunner = runner
    let stopping: Promise<void> | undefined
    let withdrawAnnouncement: (() => void) | undefined
    return {
      store,
      context,
      runner: jobRunner,
      webhookSender,
      app,
      bootstrap,
      media,
      diskFull,
      log,
      appCaller,
      events,
      calls,
      journal,
      faults,
      state,
      links,
      uiToken,
      operatorHandlers,
      operatorStreams,
      start: async () => {
        const address = await app.listen({ port, host })
        baseUrl = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${(app.server.address() as AddressInfo).port}`
        if (dataDir) withdrawAnnouncement = announceRunningService(dataDir, baseUrl, now())
        return address
      },
      stop: () =>
        (stopping ??= (async () => {
          withdrawAnnouncement?.()
          // Before the server closes their sockets: each call ends as stopped by the service, and is written.
          await calls.stop()
          await app.close()
          // After the server: the last requests' entries are written before the file closes.
          journal?.close()
          await jobRunner.stop(config.jobs?.graceMs)
          // After the runner: jobs that ended while it drained have their deliveries tried too.
          await webhookSender.stop(config.webhooks?.graceMs)
          closing = true // a voice sample asked for now must not start the engine again
          await (await ttsEngine?.catch(() => undefined))?.close()
          diskFull.close()
          faults.close()
          await store.close()
          errorLog.close()
        })()),
    }
  } catch (error) {
    journal?.close()
    await store.close()
    throw error
  }
}

/** How many journal files one data folder (or team database, on one machine) offers its processes. */
const JOURNAL_FILES = 8

/**
 * The journal's file, opened. One process writes a file: when another holds it (a second
 * `serve` on the same data folder), the next of `journal-2.db` … `journal-8.db` that is free is
 * taken, so each process journals what it served. A file that cannot be opened (damaged, or of
 * a newer schema) is moved aside (`journal.db.broken-<time>`) and a new one started: a debugging
 * aid never keeps the service from starting, so with every file held it runs without a journal.
 * A folder that cannot be written still fails the start, as the store's would.
 */
function openJournalFile(first: string, nativeBinding: string | undefined, log: Logger): { store: RequestJournalStore; file: string } | undefined {
  const extension = extname(first)
  const stem = first.slice(0, first.length - extension.length)
  for (let index = 1; index <= JOURNAL_FILES; index++) {
    const file = index === 1 ? first : `${stem}-${index}${extension}`
    try {
      return { store: openOrReplaceJournalFile(file, nativeBinding, log), file }
    } catch (error) {
      if (!(error instanceof RequestJournalInUseError)) throw error
    }
  }
  log.warn({ file: first }, `request journal: off for this process, its ${JOURNAL_FILES} files are all in use by other VoiceDesk processes`)
  return undefined
}

function openOrReplaceJournalFile(file: string, nativeBinding: string | undefined, log: Logger): RequestJournalStore {
  try {
    return openRequestJournalStore(file, nativeBinding)
  } catch (error) {
    if (error instanceof RequestJournalInUseError || !existsSync(file)) throw error
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, `${file}.broken-${Date.now()}${suffix}`)
    log.warn({ err: error, file }, 'request journal: the file could not be opened; it was moved aside and a new one started')
    return openRequestJournalStore(file, nativeBinding)
  }
}

/**
 * The journal's file when none is given: journal.db in the data folder; in team mode, where
 * no data folder exists, one per database (named after it, without its password) in a folder
 * of the system's temp folder, made private (0700) like a data folder, so a restart finds it
 * and instances of other databases never share it.
 */
function journalFileOf(dataDir: string | undefined, storageLabel: string): string {
  if (dataDir) return join(dataDir, JOURNAL_FILE)
  const name = createHash('sha256').update(storageLabel).digest('hex').slice(0, 16)
  const folder = join(tmpdir(), 'voicedesk-journal')
  preparePrivateFolder(folder)
  return join(folder, `${name}.db`)
}

/** The limits given, over the defaults; a limit that is not a positive number is a mistake of the embedder. */
function mediaIntakeLimits(given: Partial<MediaIntakeLimits> = {}): MediaIntakeLimits {
  const limits = { ...DEFAULT_MEDIA_INTAKE_LIMITS, ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) }
  for (const [name, value] of Object.entries(limits)) {
    const least = name === 'maxRedirects' || name === 'minFetchBytesPerSecond' ? 0 : 1
    if (!Number.isSafeInteger(value) || value < least) throw new Error(`RuntimeConfig.mediaIntake.${name} must be a whole number of at least ${least}, not ${String(value)}`)
  }
  return limits
}

/** A database URL as people may see it: scheme, host, port and database, never the user's password. */
export function databaseLabel(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`
  } catch {
    return 'PostgreSQL'
  }
}
