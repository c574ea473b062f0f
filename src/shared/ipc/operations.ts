import { z } from 'zod'
import { AGENT_VERSION_MAX, AgentVersionSchema, AgentVersionSummarySchema } from '../api/agent-versions'
import { HttpUrlSchema, humanName, TimestampSchema, UuidSchema } from '../api/common'
import { EndReasonSchema } from '../api/conversations'
import { CALL_OUTCOME_STATES } from '../call-outcome'
import { CorsOriginsSchema } from '../api/cors'
import { FaultRuleInputSchema, FaultSchema } from '../api/faults'
import {
  AiContentBodySchema,
  AiContentJobSchema,
  JobListItemSchema,
  JobSchema,
  JobStatusSchema,
  JobTypeSchema,
  ListJobsBodySchema,
  TextToSpeechBodySchema,
  TranscriptionLinkFieldsSchema,
  TtsJobSchema,
} from '../api/jobs'
import { AnalyticsInputSchema, CallAnalyticsSchema, OverviewAnalyticsSchema, SatisfactionAnalyticsSchema } from '../api/agent-analytics'
import { HarQuerySchema, JournalEntryDetailSchema, JournalPageSchema, ListJournalQuerySchema } from '../api/request-journal'
import { TranslationLanguageSchema } from '../api/translation-jobs'
import {
  AgentIdParamsSchema,
  StartTestRunBodySchema,
  StoredTestSuiteSchema,
  TestRunIdParamsSchema,
  TestRunSchema,
  TestRunStatusSchema,
  TestSuiteSchema,
} from '../api/test-suites'
import { ExportPassphraseSchema, ImportPassphraseSchema, SnapshotNameSchema, SnapshotSchema, StateCountsSchema } from '../api/state'
import { AddPhoneNumberBodySchema, AssignNumberBodySchema, PhoneNumberSchema, UnassignNumberBodySchema } from '../api/phone-numbers'
import {
  CloneVoiceAgentBodySchema,
  CreateVoiceAgentBodySchema,
  LangSchema,
  UpdateVoiceAgentBodySchema,
  VoiceAgentSchema,
  VoiceAgentTemplateSchema,
} from '../api/voice-agents'
import { SipUserNameSchema, SipUserPasswordSchema, SipUserSchema } from '../api/sip-users'
import { VoiceSchema } from '../api/voices'
import { DeliveryIdSchema, DELIVERY_STATUSES, WebhookDeliveryDetailSchema, WebhookDeliverySchema } from '../api/webhooks'
import { IPC_EVENT_CHANNEL, IPC_OPERATION_NAMES, ipcChannelOf, type IpcOperationName, type SameNames } from './operation-names'
import { IpcErrorSchema, type IpcError } from './ipc-error'
import type { OpenIpcStream } from './streams'

export { IPC_EVENT_CHANNEL, IPC_OPERATION_NAMES, ipcChannelOf, type IpcOperationName }

/**
 * The operator UI's contract: every operation the renderer may call, with the zod schemas of
 * its input and output. One table, two transports: Electron IPC (preload -> ipcMain) and, for
 * `voicedesk serve`, HTTP (`POST /ipc/<operation>`) with server-sent events for live updates.
 * Inputs are validated in the service with these schemas, whichever transport carried them.
 *
 * The UI acts as the local operator in the default project (docs/api.md, "The operator UI").
 */

const operation = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({ input, output })

const NoInput = z.object({}).strict()
const ById = z.object({ id: z.string().min(1).max(200) }).strict()
const Deleted = z.object({ id: UuidSchema, deleted: z.literal(true) })
/** An agent and one of its version numbers. */
const AgentVersionInputSchema = z
  .object({ id: z.string().min(1).max(200), version: z.number().int().min(1).max(AGENT_VERSION_MAX) })
  .strict()
const Page = {
  take: z.number().int().min(1).max(100).default(20),
  skip: z.number().int().min(1).default(1),
  search: z.string().max(200).optional(),
}

/**
 * An agent as the operator UI sees it: the /v1 agent plus its `tools`, which /v1 keeps
 * write-only (the seed's contract) but the editor must show as they are saved.
 */
export const OperatorAgentSchema = VoiceAgentSchema.extend({
  tools: z.object({ genderDetection: z.boolean(), smartCallEnd: z.boolean() }),
})
export type OperatorAgent = z.infer<typeof OperatorAgentSchema>

/**
 * A conversation at a glance, for its row in the jobs monitor. Operator-only: /v1's
 * JobListItem is the cloud's contract and stays as it is. Read from the job's stored state, which
 * the list already loads, so other jobs cost nothing more.
 */
export const CallGlanceSchema = z.object({
  /** When the call started (null before its socket connected): a running call's duration counts from here. */
  startedAt: TimestampSchema.nullable(),
  endReason: EndReasonSchema.nullable(),
  outcome: z.enum(CALL_OUTCOME_STATES),
  /** The outcome's first two filled fields (`name` null for an outcome that is not an object), values cut to 60 characters. */
  outcomeFields: z.array(z.object({ name: z.string().nullable(), value: z.string() })).max(2),
  /**
   * A phone call over the SIP line (the conversation's `channel: "SIP"`): its direction and both
   * numbers (`fromNumber` as the caller sent it). Absent on a web call (the SDK's socket, a test call).
   */
  phone: z
    .object({ direction: z.enum(['inbound', 'outbound']), fromNumber: z.string().nullable(), toNumber: z.string().nullable() })
    .optional(),
})
export type CallGlance = z.infer<typeof CallGlanceSchema>

/** A row of the jobs monitor: /v1's list item, and for a conversation its glance. */
export const OperatorJobListItemSchema = JobListItemSchema.extend({
  call: CallGlanceSchema.optional(),
  /** A long job (a transcription, a translation) being run: how much of it is done, 0 to 1 (as the job's `progress`). */
  progress: z.number().min(0).max(1).optional(),
})
export type OperatorJobListItem = z.infer<typeof OperatorJobListItemSchema>

/** An instant of a date range: ISO 8601 with an offset or Z (the UI sends the start of a local day). */
const RangeInstantSchema = z.iso.datetime({ offset: true, error: 'Must be a date and time in ISO 8601, such as 2026-11-24T00:00:00.000Z' })

/**
 * The jobs monitor's list: /v1's list body (the cloud's contract, left as it is) and the range
 * of creation times the operator filters by: from `createdFrom` (included) up to `createdTo`
 * (excluded), so a range of whole local days is [start of the first, start of the day after the last).
 * A range that ends before it starts is refused by the use case (VALIDATION_ERROR on `createdTo`).
 */
export const OperatorJobsListInputSchema = ListJobsBodySchema.unwrap()
  .unwrap()
  .extend({ createdFrom: RangeInstantSchema.optional(), createdTo: RangeInstantSchema.optional() })
  .strict()

export const ServiceInfoSchema = z.object({
  /** Where the /v1 service listens, e.g. http://127.0.0.1:8740. */
  url: z.string(),
  version: z.string(),
  dataDir: z.string(),
  port: z.number().int(),
  projectId: UuidSchema,
  /** The hint (prefix and last characters) of a key that can call /v1; empty when none is active. */
  keyHint: z.string(),
  /** Jobs being run and jobs waiting, at the moment of the call (events keep them current). */
  runningJobs: z.number().int(),
  pendingJobs: z.number().int(),
  /** 'desktop' inside Electron, 'browser' for the same UI served by `voicedesk serve`. */
  host: z.enum(['desktop', 'browser']),
})
export type ServiceInfo = z.infer<typeof ServiceInfoSchema>

export const ApiKeyInfoSchema = z.object({
  id: UuidSchema,
  name: z.string(),
  keyHint: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** The key the UI itself acts with: it cannot be revoked from the UI. */
  usedByApp: z.boolean(),
})
export type ApiKeyInfo = z.infer<typeof ApiKeyInfoSchema>

/** The AI engine on a server: an OpenAI-compatible chat-completions API. */
const AiServerSettingSchema = z
  .object({
    engine: z.literal('openai-compatible'),
    baseUrl: z.url({ protocol: /^https?$/ }),
    model: z.string().min(1).max(200),
    /** Write-only: given to change it, never returned (the output says `hasApiKey`). */
    apiKey: z.string().min(1).max(500).optional(),
    timeoutMs: z.number().int().min(1_000).max(600_000).optional(),
  })
  .strict()

export const AiEngineSettingSchema = z.discriminatedUnion('engine', [
  z.object({ engine: z.literal('offline') }).strict(),
  AiServerSettingSchema,
])

/** Speech recognition for live calls: off, or an OpenAI-compatible transcription server (whisper.cpp's server, speaches, LocalAI). */
const SttServerSettingSchema = z
  .object({
    engine: z.literal('openai-compatible'),
    baseUrl: z.url({ protocol: /^https?$/ }),
    /** Left out: the server's default model. */
    model: z.string().min(1).max(200).optional(),
    /** Write-only: given to change it, left out to keep the stored one, never returned (the output says `hasApiKey`). */
    apiKey: z.string().min(1).max(500).optional(),
    timeoutMs: z.number().int().min(1_000).max(600_000).optional(),
  })
  .strict()

export const SttEngineSettingSchema = z.discriminatedUnion('engine', [
  z.object({ engine: z.literal('off') }).strict(),
  SttServerSettingSchema,
])

/**
 * "Test connection" for the AI engine (`ai`) or speech recognition (`stt`): the stored setting,
 * or `setting`, the form's values not saved yet (its key left out: the stored key is used).
 */
export const EngineTestInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ai'), setting: AiServerSettingSchema.optional() }).strict(),
  z.object({ kind: z.literal('stt'), setting: SttServerSettingSchema.optional() }).strict(),
])

/** What a connection test found. `ok` only for `reachable`; `message` is English (the UI words each outcome itself) and never holds the key. */
export const EngineTestResultSchema = z.object({
  kind: z.enum(['ai', 'stt']),
  outcome: z.enum([
    'reachable',
    'modelMissing',
    'unauthorized',
    'httpError',
    'refused',
    'unreachable',
    'timeout',
    'notOpenAiCompatible',
    'notConfigured',
  ]),
  ok: z.boolean(),
  /** The server tested (origin and path); absent when nothing is configured. */
  server: z.string().optional(),
  model: z.string().optional(),
  /** `models`: GET <baseUrl>/models; `transcription`: 0.5 s of silence transcribed (a speech server without /models). */
  checked: z.enum(['models', 'transcription']).optional(),
  httpStatus: z.number().int().optional(),
  /** Some of the models the server lists, when the one asked for is not among them. */
  models: z.array(z.string()).optional(),
  elapsedMs: z.number().int(),
  message: z.string(),
})
export type EngineTestResult = z.infer<typeof EngineTestResultSchema>

export const SettingsSchema = z.object({
  port: z.number().int(),
  dataDir: z.string(),
  aiContent: z.discriminatedUnion('engine', [
    z.object({ engine: z.literal('offline') }),
    z.object({
      engine: z.literal('openai-compatible'),
      baseUrl: z.string(),
      model: z.string(),
      hasApiKey: z.boolean(),
      timeoutMs: z.number().int().optional(),
    }),
  ]),
  /** Speech recognition for live calls (the key itself is never returned, only whether one is stored). */
  speechRecognition: z.discriminatedUnion('engine', [
    z.object({ engine: z.literal('off') }),
    z.object({
      engine: z.literal('openai-compatible'),
      baseUrl: z.string(),
      model: z.string().optional(),
      hasApiKey: z.boolean(),
      timeoutMs: z.number().int().optional(),
    }),
  ]),
  /** Whether webhooks are signed (the secret itself is never returned; the CLI sets it). */
  webhookSigning: z.boolean(),
  tts: z.object({ engine: z.literal('espeak-ng') }),
  /** Origins that may call /v1 from a web page, and where the list comes from (the CLI's --cors-origin beats the setting). */
  cors: z.object({ origins: z.array(z.string()), source: z.enum(['cli', 'setting', 'default']) }),
})
export type Settings = z.infer<typeof SettingsSchema>

/**
 * Where the SIP line stands (docs/api.md, "The SIP line"): off (not asked for), listening (how to
 * call: `sip:<number>@<host>:<port>`; `authRequired` when callers must sign in as a SIP user), or
 * failed to start, with why (a port another program holds).
 */
export const SipStatusSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('off') }),
  z.object({ state: z.literal('listening'), host: z.string(), port: z.number().int(), authRequired: z.boolean() }),
  z.object({ state: z.literal('failed'), problem: z.string() }),
])
export type SipStatus = z.infer<typeof SipStatusSchema>

export const IPC_OPERATIONS = {
  'service.info': operation(NoInput, ServiceInfoSchema),

  'voices.list': operation(NoInput, z.array(VoiceSchema)),
  /** A short sample of a voice made by the TTS engine, for "hear it": a WAV as a data: URL. */
  'voices.sample': operation(
    z.object({ voiceId: UuidSchema, text: z.string().min(1).max(300).optional() }).strict(),
    z.object({ voiceId: UuidSchema, audioDataUrl: z.string(), durationSeconds: z.number() }),
  ),

  'templates.list': operation(NoInput, z.array(VoiceAgentTemplateSchema)),

  'agents.list': operation(
    z.object({ ...Page, lang: LangSchema.optional() }).strict(),
    z.object({ agents: z.array(OperatorAgentSchema), total: z.number().int(), filtered: z.number().int() }),
  ),
  'agents.get': operation(ById, OperatorAgentSchema),
  'agents.create': operation(CreateVoiceAgentBodySchema, OperatorAgentSchema),
  'agents.update': operation(
    z.object({ id: z.string().min(1).max(200), changes: UpdateVoiceAgentBodySchema }).strict(),
    OperatorAgentSchema,
  ),
  /** Clone a template or an agent (`sourceId`) under a new name. */
  'agents.clone': operation(
    z
      .object({ sourceId: z.string().min(1).max(200) })
      .extend(CloneVoiceAgentBodySchema.unwrap().unwrap().shape)
      .strict(),
    OperatorAgentSchema,
  ),
  'agents.delete': operation(ById, Deleted),
  /** The agent's versions, newest first (GET /v1/voice-agents/{id}/versions). */
  'agents.versions': operation(
    z.object({ id: z.string().min(1).max(200), take: Page.take, skip: Page.skip }).strict(),
    z.object({ versions: z.array(AgentVersionSummarySchema), total: z.number().int(), filtered: z.number().int() }),
  ),
  /** One version: the whole agent as it was (GET …/versions/{n}). */
  'agents.version': operation(AgentVersionInputSchema, AgentVersionSchema),
  /** A new version equal to version `version` (POST …/versions/{n}/restore): answers the agent. */
  'agents.restoreVersion': operation(AgentVersionInputSchema, OperatorAgentSchema),

  /** The agent's stored test suite (docs/api.md, "Test suites and runs"); null when it has none yet. */
  'tests.getSuite': operation(AgentIdParamsSchema.strict(), StoredTestSuiteSchema.nullable()),
  /** Stores the agent's suite, replacing the one before. */
  'tests.putSuite': operation(
    z.object({ agentId: AgentIdParamsSchema.shape.agentId, suite: TestSuiteSchema }).strict(),
    StoredTestSuiteSchema,
  ),
  /** A suite made from the agent's outcome shape and language; nothing is stored. */
  'tests.starterSuite': operation(AgentIdParamsSchema.strict(), TestSuiteSchema),
  /**
   * Starts a run (of `suite`, or of the stored one): answered RUNNING at once. Its calls connect
   * over /stream with an in-memory run ticket, never stored, that ends with the run.
   */
  'tests.startRun': operation(
    StartTestRunBodySchema.extend({ agentId: AgentIdParamsSchema.shape.agentId }).strict(),
    z.object({ id: z.string(), status: TestRunStatusSchema }),
  ),
  'tests.getRun': operation(TestRunIdParamsSchema.strict(), TestRunSchema),
  /** The agent's runs, newest first. */
  'tests.listRuns': operation(
    z.object({ agentId: AgentIdParamsSchema.shape.agentId, take: Page.take }).strict(),
    z.object({ runs: z.array(TestRunSchema) }),
  ),

  'numbers.list': operation(
    z.object({ ...Page, voiceAgentId: z.string().max(200).optional() }).strict(),
    z.object({ phoneNumbers: z.array(PhoneNumberSchema), total: z.number().int(), filtered: z.number().int() }),
  ),
  'numbers.add': operation(AddPhoneNumberBodySchema, PhoneNumberSchema),
  'numbers.assign': operation(AssignNumberBodySchema, PhoneNumberSchema),
  'numbers.unassign': operation(UnassignNumberBodySchema, PhoneNumberSchema),
  'numbers.delete': operation(ById, Deleted),

  /**
   * The same filters, sort, pages and search as POST /v1/jobs/all, in the default project, and
   * a range of creation times (`createdFrom` included, `createdTo` excluded), which /v1 does not have; a conversation's row carries its `call` glance.
   */
  'jobs.list': operation(
    OperatorJobsListInputSchema,
    z.object({ jobs: z.array(OperatorJobListItemSchema), total: z.number().int(), filtered: z.number().int() }),
  ),
  /**
   * The job, and `playableMediaUrl` (operator only, /v1 unchanged): where this service plays the
   * job's media (a transcription's source once stored here; a translation: that of the
   * transcription it was made from), null when there is none.
   */
  'jobs.get': operation(ById, z.object({ previewUrl: z.string(), job: JobSchema, playableMediaUrl: z.string().nullable() })),
  'jobs.createTts': operation(TextToSpeechBodySchema, TtsJobSchema),
  'jobs.createAiContent': operation(
    z
      .object({ sourceJobId: z.string().min(1).max(200) })
      .extend(AiContentBodySchema.shape)
      .strict(),
    AiContentJobSchema,
  ),
  'jobs.getAiContent': operation(ById, AiContentJobSchema),
  /** Queues a copy of a FAILED job (same type and inputs); CONFLICT for a job that is not FAILED. */
  'jobs.retry': operation(z.object({ jobId: z.string().min(1).max(200) }).strict(), JobSchema),
  /** A COMPLETED transcription's or translation's segments as subtitles (GET /v1/jobs/subtitles). */
  'jobs.subtitles': operation(
    z.object({ jobId: z.string().min(1).max(200), format: z.enum(['srt', 'vtt']) }).strict(),
    z.object({ format: z.enum(['srt', 'vtt']), text: z.string() }),
  ),
  /** Queues a translation of a COMPLETED transcription or translation (POST /v1/jobs/translate with `jobId`). */
  /**
   * A one-use, 5-minute URL to POST one media file to as multipart/form-data (a `file` part): it
   * becomes a transcription job of the app's, answered in the envelope (docs/api.md, "The operator UI").
   */
  'jobs.transcriptionUploadLink': operation(TranscriptionLinkFieldsSchema, z.object({ url: z.string() })),
  /** A transcription of media at a URL, as POST /v1/jobs/transcribe with JSON. */
  'jobs.createTranscription': operation(TranscriptionLinkFieldsSchema.extend({ mediaUrl: HttpUrlSchema }).strict(), JobSchema),
  'jobs.translate': operation(
    z.object({ jobId: UuidSchema, toLng: TranslationLanguageSchema, fromLng: TranslationLanguageSchema.optional() }).strict(),
    JobSchema,
  ),

  'webhooks.list': operation(
    z
      .object({
        status: z.enum(DELIVERY_STATUSES).optional(),
        jobId: z.string().min(1).max(200).optional(),
        take: z.number().int().min(1).max(100).default(20),
        skip: z.number().int().min(1).default(1),
      })
      .strict(),
    z.object({ deliveries: z.array(WebhookDeliverySchema), total: z.number().int(), filtered: z.number().int() }),
  ),
  'webhooks.get': operation(z.object({ id: DeliveryIdSchema }).strict(), WebhookDeliveryDetailSchema),
  /** "Send again": CONFLICT while an attempt is under way. */
  'webhooks.redeliver': operation(z.object({ id: DeliveryIdSchema }).strict(), WebhookDeliverySchema),

  /** The request journal of the default project, newest first, paged by the cursor `before` (the `next` of the page before); CONFLICT while the journal is off. */
  /** The Analytics screen: the overview, the calls' figures and satisfaction at once, as `/v1/agent-analytics/*` answers them. */
  'analytics.summary': operation(
    AnalyticsInputSchema,
    z.object({ overview: OverviewAnalyticsSchema, calls: CallAnalyticsSchema, satisfaction: SatisfactionAnalyticsSchema }),
  ),
  'requests.list': operation(ListJournalQuerySchema.strict(), JournalPageSchema),
  /** One journaled request with its headers, bodies and a ready `curl`. */
  'requests.get': operation(z.object({ id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }).strict(), JournalEntryDetailSchema),
  /** The newest `take` requests matching the filters (default 1,000) as a HAR 1.2 file's text, and a name to save it as. */
  'requests.har': operation(HarQuerySchema.strict(), z.object({ fileName: z.string(), har: z.string() })),

  'keys.list': operation(NoInput, z.array(ApiKeyInfoSchema)),
  /** The full key is in this answer only, to be shown once. */
  'keys.create': operation(z.object({ name: humanName(100) }).strict(), z.object({ key: z.string(), info: ApiKeyInfoSchema })),
  'keys.revoke': operation(ById, ApiKeyInfoSchema),

  'settings.get': operation(NoInput, SettingsSchema),
  'settings.setAiEngine': operation(AiEngineSettingSchema, SettingsSchema),
  /** Counts from the next call (calls read the setting when they start). */
  'settings.setSttEngine': operation(SttEngineSettingSchema, SettingsSchema),
  /** Reaches the engine's server once and says what happened (and how long it took); saves nothing. */
  'settings.testEngine': operation(EngineTestInputSchema, EngineTestResultSchema),
  /** The `corsOrigins` setting; null goes back to the default (this machine's http origins, any port). Counts at once. */
  'settings.setCorsOrigins': operation(z.object({ corsOrigins: CorsOriginsSchema.nullable() }).strict(), SettingsSchema),

  /** Fault injection in the default project (as /_voicedesk/faults): the active rules, oldest first. */
  'faults.list': operation(NoInput, z.object({ faults: z.array(FaultSchema) })),
  'faults.add': operation(FaultRuleInputSchema, FaultSchema),
  'faults.remove': operation(z.object({ id: z.string().min(1).max(100) }).strict(), FaultSchema),
  'faults.clear': operation(NoInput, z.object({ removed: z.number().int() })),
  // State (docs/api.md, "State: export, import, snapshots, reset"), the default project's.
  'state.deleteSnapshot': operation(z.object({ name: SnapshotNameSchema }).strict(), SnapshotSchema),
  /** A one-use, 5-minute URL that downloads the project's archive (secrets sealed under `passphrase` when given). */
  'state.exportLink': operation(z.object({ passphrase: ExportPassphraseSchema.optional() }).strict(), z.object({ url: z.string() })),
  /** A one-use, 5-minute URL to PUT an archive to (Content-Type: application/gzip): imported into the project, which must be empty. */
  'state.importLink': operation(z.object({ passphrase: ImportPassphraseSchema.optional() }).strict(), z.object({ url: z.string() })),
  'state.reset': operation(NoInput, z.object({ removed: StateCountsSchema })),
  'state.restore': operation(z.object({ name: SnapshotNameSchema }).strict(), z.object({ counts: StateCountsSchema })),
  'state.snapshot': operation(z.object({ name: SnapshotNameSchema }).strict(), SnapshotSchema),
  /** The snapshots, newest first, and what the project holds now (what a restore or reset would replace). */
  'state.snapshots': operation(NoInput, z.object({ snapshots: z.array(SnapshotSchema), current: StateCountsSchema })),

  /** The SIP line of this running service, live (not a stored setting): the app shows each number's address from it. */
  'sip.status': operation(NoInput, SipStatusSchema),

  /** The SIP line's users (service-wide), with where each is registered now. */
  'sipUsers.list': operation(NoInput, z.object({ users: z.array(SipUserSchema) })),
  /** The password is in this answer only, to be shown once. */
  'sipUsers.add': operation(z.object({ name: SipUserNameSchema }).strict(), SipUserPasswordSchema),
  'sipUsers.resetPassword': operation(z.object({ name: SipUserNameSchema }).strict(), SipUserPasswordSchema),
  'sipUsers.remove': operation(z.object({ name: SipUserNameSchema }).strict(), z.object({ removed: z.literal(true) })),
  /** The agent calls the SIP user's registered softphone (as POST /v1/voice-agents/call does). */
  'calls.callSoftphone': operation(
    z.object({ agentId: UuidSchema, sipUser: SipUserNameSchema }).strict(),
    z.object({ conversationId: UuidSchema }),
  ),
} as const

export type IpcOperations = typeof IPC_OPERATIONS
/** The table and operation-names.ts name the same operations (a compile error otherwise). */
const namesMatch: SameNames<keyof IpcOperations, IpcOperationName> = true
void namesMatch
/** What the caller passes (defaults may be left out). */
export type IpcInput<N extends IpcOperationName> = z.input<IpcOperations[N]['input']>
/** What a handler receives, after validation and defaults. */
export type IpcParsedInput<N extends IpcOperationName> = z.output<IpcOperations[N]['input']>
export type IpcOutput<N extends IpcOperationName> = z.output<IpcOperations[N]['output']>

export { IpcErrorSchema, type IpcError }

/**
 * What every operation answers, on both transports. A result rather than a thrown error:
 * Electron keeps only an error's message across IPC, and the UI needs the code and the
 * field details to show validation errors beside their fields.
 */
export type IpcResult<N extends IpcOperationName> = { ok: true; data: IpcOutput<N> } | { ok: false; error: IpcError }

/** Live updates, pushed by the service (never polled): Electron channel `voicedesk:event`, or SSE. */
export const IpcEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('job.changed'),
    job: z.object({ id: UuidSchema, status: JobStatusSchema, type: JobTypeSchema, title: z.string() }),
    runningJobs: z.number().int(),
    pendingJobs: z.number().int(),
  }),
  z.object({
    type: z.literal('delivery.attempted'),
    delivery: z.object({
      id: DeliveryIdSchema,
      jobId: z.string().nullable(),
      status: z.enum(DELIVERY_STATUSES),
      attempts: z.number().int(),
      lastStatusCode: z.number().int().nullable(),
      lastError: z.string().nullable(),
    }),
  }),
  /** The request journal wrote new entries (at most every 250 ms): the Requests screen fetches its first page again. */
  z.object({ type: z.literal('requests.written') }),
  /** The default project's fault rules changed (added, removed, cleared, expired): `active` rules now. */
  z.object({ type: z.literal('faults.changed'), active: z.number().int() }),
])
export type IpcEvent = z.infer<typeof IpcEventSchema>

/** The HTTP transport of browser mode (served by `voicedesk serve`). */
export const BROWSER_BRIDGE = {
  /** POST JSON input, answer an IpcResult; `Authorization: Bearer <ui token>`. */
  operationPath: (name: IpcOperationName) => `/ipc/${name}`,
  /** Server-sent events, one `data:` line of JSON IpcEvent each; token in `?token=` (EventSource sends no headers). */
  eventsPath: '/ipc/events',
  /** Where the UI is served; the token comes in the URL's fragment: /app/#token=<ui token>. */
  appPath: '/app/',
} as const

/** One named function per operation, each bound to its own channel: never a raw invoke. */
export type VoiceDeskOperations = { [N in IpcOperationName]: (input: IpcInput<N>) => Promise<IpcResult<N>> }

/**
 * What the renderer gets as `window.voicedesk`: the preload builds it in Electron; in a browser
 * the renderer builds the same over HTTP and SSE.
 */
export interface VoiceDeskBridge {
  host: 'desktop' | 'browser'
  operations: VoiceDeskOperations
  /** Subscribes to live updates; returns the unsubscribe function. */
  onEvent(listener: (event: IpcEvent) => void): () => void
  /** Opens a duplex stream (streams.ts): a MessagePort in Electron, a WebSocket in browser mode. */
  openStream: OpenIpcStream
}
