import type { AiPart } from '../shared/api/ai-parts'
import type { JobStatus, JobType } from '../shared/api/jobs'

/*
 * The records the store keeps, as every engine reads and writes them: plain data, no driver
 * types. Times the service shows are ISO 8601 strings; times only workers compare (leases,
 * due times) are epoch milliseconds.
 */

export interface ProjectRecord {
  id: string
  name: string
  isDefault: boolean
  createdAt: string
}

export interface ApiKeyRecord {
  id: string
  projectId: string
  userId: string
  name: string
  keyHash: string
  keyHint: string
  createdAt: string
  lastUsedAt: string | null
  revokedAt: string | null
}

/** What a valid key grants: the identity every record it writes carries. */
export interface KeyIdentity {
  apiKeyId: string
  projectId: string
  userId: string
}

export interface VoiceAgentRecord {
  id: string
  projectId: string
  apiKeyId: string
  agentName: string
  description: string
  greetingMessage: string
  preamble: string
  lang: 'ar' | 'en'
  pokeMessages: string[]
  realTime: boolean
  silenceThreshold: number
  interrupt: boolean
  /** Silence after the caller's voice that ends their turn (ms). */
  endOfTurnSilenceMs: number
  /** The longest caller turn before the agent answers (s). */
  maxCallerTurnSeconds: number
  outcome: string
  outcomeResponseShape: Record<string, unknown> | null
  voiceId: string
  tools: { genderDetection?: boolean; smartCallEnd?: boolean }
  params: Record<string, string>
  webhookUrl: string | null
  webhookAuthKey: string | null
  /** Ciphertext from the SecretBox, never the secret itself. */
  webhookAuthSecret: string | null
  /** The template or agent this one was cloned from, if any. */
  sourceId: string | null
  createdAt: string
  updatedAt: string
}

/**
 * One version of an agent: the whole agent as it was, numbered from 1 per agent. `source` says
 * what made it (docs/api.md, "Agent versions"): create, update, ui, clone:<sourceId>,
 * restore:<n>, import, migration.
 */
export interface VoiceAgentVersionRecord extends VoiceAgentRecord {
  version: number
  source: string
  /** When this version was made (ISO 8601). */
  versionedAt: string
}

export interface VoiceAgentFilter {
  search?: string
  lang?: 'ar' | 'en'
}

/** One entry of a voice dictionary: a word and how the voice says it. */
export interface DictionaryWord {
  word: string
  pronunciation: string
}

/** A voice dictionary of a project (docs/api.md, "Voice dictionaries"). */
export interface VoiceDictionaryRecord {
  id: string
  projectId: string
  apiKeyId: string
  name: string
  words: DictionaryWord[]
  createdAt: string
  updatedAt: string
}

/** A dictionary as read: with the agents it is active for, in the order they were activated. */
export interface VoiceDictionaryView extends VoiceDictionaryRecord {
  voiceAgentIds: string[]
}

/** A dictionary active for an agent (a row of a project's data). */
export interface DictionaryActivationRecord {
  dictionaryId: string
  voiceAgentId: string
  projectId: string
  activatedAt: string
}

export interface VoiceDictionaryFilter {
  /** Part of the name, any case (ASCII letters). */
  search?: string
  /** Active for at least one agent (true), or for none (false). */
  used?: boolean
  /** Active for this agent. */
  voiceAgentId?: string
}

export interface PhoneNumberRecord {
  id: string
  projectId: string
  apiKeyId: string
  userId: string
  number: string
  label: string
  type: 'TELEPHONY'
  providerAccountSid: string
  /** Ciphertext from the SecretBox, never the token itself. */
  providerAuthToken: string
  voiceAgentId: string | null
  createdAt: string
  updatedAt: string
}

/**
 * A user of the SIP line (a softphone that registers, and that agents call): service-wide.
 * `ha1Md5` is the digest's MD5(name:realm:password), never the password itself.
 */
export interface SipUserRecord {
  name: string
  ha1Md5: string
  createdAt: string
  updatedAt: string
}

/** A number as read, with the name of the agent it is assigned to. */
export interface PhoneNumberView extends PhoneNumberRecord {
  voiceAgentName: string | null
}

export interface PhoneNumberFilter {
  search?: string
  voiceAgentId?: string
}

export interface JobRecord {
  id: string
  projectId: string
  apiKeyId: string
  userId: string
  type: JobType
  status: JobStatus
  title: string
  model: string
  processingType: string
  systemModelKey: string
  /** TTS: the catalogue voice. */
  voiceId: string | null
  /** The job's text: what TTS speaks, or a transcript or translation. Searched. */
  text: string | null
  /** AI_CONTENT: the parts asked for. */
  aiParts: AiPart[] | null
  jobResponse: Record<string, unknown> | null
  errorCode: string | null
  errorMessage: string | null
  relevantJobId: string | null
  voiceAgentId: string | null
  agentDetails: string | null
  fromLng: string | null
  toLng: string | null
  fromScript: string | null
  toScript: string | null
  webhookUrl: string | null
  webhookAuthKey: string | null
  /** Ciphertext from the SecretBox. */
  webhookAuthSecret: string | null
  /** File name in the data folder's media/ (unguessable), for jobs that make audio, and a transcription's source media. */
  mediaFile: string | null
  /** TRANSCRIPTION: the media URL the client gave, fetched into `mediaFile` when the job runs; null for an upload and other jobs. */
  sourceUrl: string | null
  /** How much of a running job's work is done (0 to 1), when its handler says (transcription); null otherwise. */
  progress: number | null
  /** Unguessable token of the job's preview page. */
  previewToken: string
  usageSeconds: number | null
  totalCost: number
  attempts: number
  leaseOwner: string | null
  leaseExpiresAt: number | null
  runAfter: number
  createdAt: string
  updatedAt: string
}

export type JobSortField = 'createdAt' | 'updatedAt' | 'title' | 'status' | 'type' | 'cost'

export interface JobListQuery {
  status?: JobStatus
  type?: JobType
  /** Exact job id. */
  id?: string
  /** Words that must all appear in the title or text, each as a word or a word's start. */
  words?: string[]
  /** Created at or after this instant (ISO 8601 UTC with milliseconds, as stored). */
  createdFrom?: string
  /** Created before this instant (excluded; the same form). */
  createdTo?: string
  sort: JobSortField
  direction: 'asc' | 'desc'
  limit: number
  offset: number
}

export interface JobOutcome {
  jobResponse: Record<string, unknown>
  /** The job's text when its work made it (a transcript, a translation): searched, and what AI content reads. */
  text?: string
  usageSeconds: number | null
  totalCost: number
}

/** What a running call writes as it goes: the transcript as text (searched), its state, its length and cost so far. */
export interface ConversationProgress {
  text: string
  jobResponse: Record<string, unknown>
  usageSeconds: number | null
  totalCost: number
}

/** One group of the statistics query. `type` is a string: kinds of job to come (conversations) count too. */
export interface JobStatisticsRow {
  type: string
  status: string
  jobs: number
  cost: number
  seconds: number
}

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'EXHAUSTED'

export interface DeliveryRecord {
  /** Also the `webhook-id` header: the same on every attempt, so receivers can de-duplicate. */
  id: string
  projectId: string
  event: string
  jobId: string | null
  url: string
  authKey: string | null
  /** Ciphertext from the SecretBox. */
  authSecret: string | null
  /** The exact JSON body every attempt sends. */
  payload: string
  status: DeliveryStatus
  attempts: number
  roundAttempts: number
  /** When the next attempt is due (ms), or while leased when the lease ends; null once delivered or exhausted. */
  nextAttemptAt: number | null
  leaseOwner: string | null
  leaseExpiresAt: number | null
  lastStatusCode: number | null
  lastError: string | null
  createdAt: string
  updatedAt: string
  deliveredAt: string | null
}

export type NewDelivery = Pick<
  DeliveryRecord,
  'id' | 'projectId' | 'event' | 'jobId' | 'url' | 'authKey' | 'authSecret' | 'payload' | 'createdAt'
> & {
  /** When the first attempt is due (ms). */
  dueAt: number
}

export interface AttemptRecord {
  deliveryId: string
  attempt: number
  startedAt: string
  statusCode: number | null
  latencyMs: number
  error: string | null
  responseExcerpt: string | null
}

/** What an attempt leads to: delivered, another try at `nextAttemptAt`, or no more tries. */
export type AttemptOutcome = { status: 'DELIVERED' } | { status: 'PENDING'; nextAttemptAt: number } | { status: 'EXHAUSTED' }

export interface DeliveryListQuery {
  status?: DeliveryStatus
  jobId?: string
  limit: number
  offset: number
}

/**
 * One row of a project's data, the same JSON from every engine (see ProjectDataRepository):
 * `{ kind, record }` with `record` exactly the store's record (camelCase, times as stored:
 * ISO 8601 strings, and epoch ms for leases and due times; JSON columns as JSON values, not
 * text). `record.projectId` is the source project's (rewritten on import). The one field that
 * names media is `job.record.mediaFile` (a MediaStore name, or null).
 */
export type ProjectRow =
  | { kind: 'agent'; record: VoiceAgentRecord }
  | { kind: 'agentVersion'; record: VoiceAgentVersionRecord }
  | { kind: 'phoneNumber'; record: PhoneNumberRecord }
  | { kind: 'voiceDictionary'; record: VoiceDictionaryRecord }
  | { kind: 'dictionaryActivation'; record: DictionaryActivationRecord }
  | { kind: 'job'; record: JobRecord }
  | { kind: 'delivery'; record: DeliveryRecord }
  | { kind: 'attempt'; record: AttemptRecord }

export type ProjectRowKind = ProjectRow['kind']

/** How many rows of each kind a project has (or an import wrote). */
export interface ProjectCounts {
  agents: number
  agentVersions: number
  phoneNumbers: number
  voiceDictionaries: number
  dictionaryActivations: number
  jobs: number
  deliveries: number
  attempts: number
}

/** The words of a search, as every engine matches them: letters and digits, punctuation dropped. */
export function searchWords(search: string): string[] {
  return search.match(/[\p{L}\p{N}]+/gu) ?? []
}

/** An agent's stored test suite (docs/api.md, "Test suites and runs"); `suite` is the validated TestSuite JSON. */
export interface TestSuiteRecord {
  projectId: string
  agentId: string
  suite: unknown
  updatedAt: string
}

/** A test run and its results so far; `results` is a JSON array of ScenarioResult. */
export interface TestRunRecord {
  id: string
  projectId: string
  agentId: string
  agentVersion: number | null
  status: 'RUNNING' | 'PASSED' | 'FAILED'
  error: string | null
  concurrency: number
  repeat: number
  results: unknown[]
  /** While RUNNING: the runner renews it (epoch ms); a run whose lease ran out was cut off by a stopped service. */
  leaseUntil: number | null
  createdAt: string
  updatedAt: string
}

/** What a runner writes as a run goes on. */
export type TestRunProgress = Pick<TestRunRecord, 'status' | 'error' | 'results' | 'leaseUntil' | 'updatedAt'>

/**
 * Which conversations an analytics read counts: a project's calls created in [from, to) (ISO
 * 8601), of one agent when `voiceAgentId` is given, grouped by UTC hour, or by UTC quarter
 * hour with `quarterHours` (for local times a part of an hour away from UTC): the caller
 * gathers those into local hours or days.
 */
export interface ConversationAnalyticsQuery {
  voiceAgentId?: string
  from: string
  to: string
  quarterHours: boolean
  /**
   * Gathers the UTC hours (quarter hours) into local hours or days, local time being UTC plus
   * `offsetMinutes`: each row's bucket is then the local label 'YYYY-MM-DD HH:00:00' (days:
   * 'YYYY-MM-DD 00:00:00') of its UTC hour's (quarter hour's) start.
   */
  local?: { offsetMinutes: number; bucket: 'hour' | 'day' }
}

/**
 * One group of a project's calls (same bucket, status and end reason), with sums of what the
 * calls kept: duration (seconds), turns, barge-ins, pokes, tool calls, answers timed and their
 * delays, and the outcome's completeness.
 */
export interface ConversationFactsRow {
  /** The UTC start of the hour (or quarter hour), 'YYYY-MM-DDTHH:MM'; with `local`, the local label. */
  bucket: string
  status: string
  endReason: string | null
  calls: number
  /** Calls that have a duration (they started). */
  timedCalls: number
  seconds: number
  shortCalls: number
  mediumCalls: number
  longCalls: number
  turns: number
  bargeIns: number
  pokes: number
  toolCalls: number
  answers: number
  answerSeconds: number
  outcomeComplete: number
  outcomePartial: number
}

/** How often a call's outcome had each top-level field (not null). */
export interface OutcomeFieldCount {
  field: string
  filled: number
}

/** One numeric value of a rating field and how many calls gave it. */
export interface RatingValueCount {
  value: number
  calls: number
}

/** One conversation as the export writes it. */
export interface ConversationExportRow {
  id: string
  voiceAgentId: string | null
  agentName: string | null
  status: string
  createdAt: string
  endReason: string | null
  seconds: number | null
  turns: number | null
  bargeIns: number | null
  pokes: number | null
  toolCalls: number | null
  outcomeComplete: boolean | null
  /** The outcome as JSON text, or null. */
  outcome: string | null
}

/** A project's jobs of one day (local time): how many were made, credits and transcription seconds done. */
export interface JobsByDayRow {
  /** 'YYYY-MM-DD' in local time. */
  day: string
  jobs: number
  cost: number
  transcriptionSeconds: number
}
