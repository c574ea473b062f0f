import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import packageJson from '../../../package.json'
import type { CallLimits } from '../../conversations/call-session'
import type { ConversationHost } from '../../conversations/conversation-host'
import type { AiContentEngine } from '../../engines/ai-content/ai-content-engine'
import type { DialogueEngine } from '../../engines/dialogue/dialogue-engine'
import type { SttEngine } from '../../engines/stt/stt-engine'
import type { TtsEngine } from '../../engines/tts/tts-engine'
import type { JobRunner, JobRunnerOptions } from '../../jobs/job-runner'
import type { DiskFullCondition, DiskFullConditionOptions } from '../../store/disk-full-condition'
import type { MediaStore, Store } from '../../store/ports'
import type { WebhookSender, WebhookSenderOptions } from '../../webhooks/webhook-sender'
import type { FaultBook, FaultBookOptions } from '../faults/fault-book'
import { DEFAULT_MEDIA_INTAKE_LIMITS, type MediaIntakeLimits } from '../media-intake/media-intake-limits'
import type { OperatorEvents } from '../operator/operator-events'
import type { OperatorHandlers } from '../operator/operator-handlers'
import type { OperatorStreamHandlers } from '../operator/operator-streams'
import type { Bootstrap } from '../ops/api-keys'
import type { OperatorLinks } from '../ops/operator-links'
import type { Caller, OpsContext, SipSettings } from '../ops/ops-context'
import type { RequestJournal, RequestJournalSettings } from '../request-journal/request-journal'
import type { ProjectState } from '../state/project-state'
import type { ArchiveLimits } from '../state/state-archive'
import type { SecretKeychain } from './secret-key'

/** What the runtime is given (RuntimeConfig) and what it hands back (Runtime), with the defaults both rely on. */

export const VERSION: string = packageJson.version
export const DEFAULT_PORT = 8740
export const DEFAULT_HOST = '127.0.0.1'

/**
 * The project's resources/ folder, found upwards from this module: it sits at a different
 * depth in src/ (tests, tsx) and in the bundled out/main/ chunks.
 */
export function findResourcesDir(): string {
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
  /** The desktop's key policy: keep the data folder's key wrapped by this keychain (Electron's safeStorage), not in a plain file. */
  keychain?: SecretKeychain
  /** The service log (pino); silent by default, so tests and embedders choose. */
  log?: Logger
  /** Job runner settings (defaults: the lanes of DEFAULT_JOB_LANES, 120 s per try, 3 tries), and hooks for live views. */
  jobs?: Pick<
    JobRunnerOptions,
    | 'lanes'
    | 'concurrency'
    | 'timeoutMs'
    | 'leaseMarginMs'
    | 'maxAttempts'
    | 'retryDelayMs'
    | 'onJobStarted'
    | 'onJobProgress'
    | 'onJobEnded'
  > & {
    /** How long stop() waits for running jobs. */
    graceMs?: number
  }
  /** Webhook sender settings (defaults: 256 attempts in flight, 10 s each, the 8-try schedule), and hooks. */
  webhooks?: Pick<
    WebhookSenderOptions,
    'concurrency' | 'timeoutMs' | 'retryDelaysMs' | 'random' | 'onAttempt' | 'onAttemptStarted' | 'dispatcher' | 'lookup'
  > & {
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
  /**
   * A speech engine the embedder started and owns, used instead of starting eSpeak: left open
   * when the runtime stops, which then asks nothing more of it. Tests give the runtimes of a
   * file one warm engine (eSpeak's start and V8's warm-up are most of a short job's CPU).
   */
  speechEngine?: TtsEngine
  /** Live calls: limits (lease, longest call, tool and outcome time limits) and how long a new conversation waits for its socket. */
  calls?: Partial<CallLimits> & {
    socketDeadlineMs?: number
    /** Bytes of call recordings kept in memory while the disk is full (128 MiB; docs/api.md, "Recordings on a full disk"). */
    heldRecordingBytes?: number
    /** The most calls this instance runs at once (50; `serve --max-calls`; docs/api.md, "How many calls at once"); in team mode, per instance. */
    maxConcurrent?: number
  }
  /** Agent test runs: one scenario's time limit (2 minutes; docs/api.md, "Test suites and runs"). */
  testRuns?: { scenarioTimeoutMs?: number }
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
  /**
   * The SIP line (docs/api.md, "The SIP line"): calls to registered numbers answered by their
   * agents, on UDP and TCP `port` (0: a free one) of `host` (127.0.0.1; only loopback until SIP
   * users exist: another address is taken only then, and every INVITE from another machine and
   * every REGISTER needs a SIP user's digest credentials). Left out: no SIP line (`voicedesk serve` asks for
   * one on 5060 unless `--sip-port off`).
   */
  sip?: {
    port: number
    host?: string
    keypadPauseMs?: number
    /** `--sip-allow-outbound`: `host` or `host:port` entries a `sip:` URI may ring besides this machine's loopback. */
    allowOutbound?: readonly string[]
    /** How long an outbound call rings before it is cancelled (30 s). */
    ringTimeoutMs?: number
  }
  /** The largest archive an import reads, media included (16 GiB by default). */
  maxImportBytes?: number
  /** What an archive may hold once ungzipped (DEFAULT_ARCHIVE_LIMITS by default; tests give small ones). */
  archiveLimits?: Partial<ArchiveLimits>
  now?: () => Date
}

export const SipSettingsSchema = z.object({
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

/** Where the SIP line stands: off (not asked for), listening, or failed to start (its port taken), with why. */
export type SipLineStatus = { state: 'off' } | { state: 'listening'; host: string; port: number } | { state: 'failed'; problem: string }

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
  /** The SIP line: where it listens, or why it does not. */
  sipLine(): SipLineStatus
  /**
   * Listens on host:port; resolves to the base URL (with the real port when port is 0). With
   * `freePortWhenTaken` (the desktop, which a headless service may beat to the port), a port
   * another program holds is replaced by a free one instead of failing. Then the SIP line opens.
   */
  start(options?: { freePortWhenTaken?: boolean }): Promise<string>
  /**
   * Stops accepting requests, lets in-flight requests and running jobs finish (jobs still
   * running after `jobGraceMs` go back to the queue for the next start), closes the
   * engines and the database. Idempotent.
   */
  stop(): Promise<void>
}

/** The limits given, over the defaults; a limit that is not a positive number is a mistake of the embedder. */
export function mediaIntakeLimits(given: Partial<MediaIntakeLimits> = {}): MediaIntakeLimits {
  const limits = { ...DEFAULT_MEDIA_INTAKE_LIMITS, ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) }
  for (const [name, value] of Object.entries(limits)) {
    const least = name === 'maxRedirects' || name === 'minFetchBytesPerSecond' ? 0 : 1
    if (!Number.isSafeInteger(value) || value < least)
      throw new Error(`RuntimeConfig.mediaIntake.${name} must be a whole number of at least ${least}, not ${String(value)}`)
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
