import { z } from 'zod'
import { AiPartSchema } from '../shared/api/ai-parts'
import { JobStatusSchema, JobTypeSchema } from '../shared/api/jobs'
import { DELIVERY_COLUMNS, JOB_COLUMNS } from './columns'
import type { KeyIdentity, ProjectCounts, ProjectRow, ProjectRowKind, VoiceAgentRecord } from './records'

/*
 * The rows of a project's data (ProjectRow) as both engines store them: per kind its table,
 * its columns and how each value is held, and the schema a row must pass before it is written.
 * Each engine's ProjectDataRepository builds its SQL from these, so the two cannot disagree on
 * which columns a row has.
 */

/** How a record's field is held in a column: JSON values are text in both engines, booleans 0/1 in SQLite. */
export type ColumnKind = 'plain' | 'boolean' | 'json'

export interface RowTable {
  kind: ProjectRowKind
  table: string
  columns: readonly { field: string; column: string; holds: ColumnKind }[]
  /** The order rows are exported in, the same in both engines: write order where a list tie-breaks on it. */
  order: string
  /** The project's rows of this table, as a condition on alias `t` with the project id as its one parameter (`?` or `$1`). */
  ofProject: (parameter: string) => string
}

const plain = (pairs: readonly (readonly [string, string])[], json: string[] = [], booleans: string[] = []): RowTable['columns'] =>
  pairs.map(([field, column]) => ({ field, column, holds: json.includes(field) ? 'json' : booleans.includes(field) ? 'boolean' : 'plain' }))

const AGENT_COLUMNS = [
  ['id', 'id'],
  ['projectId', 'project_id'],
  ['apiKeyId', 'api_key_id'],
  ['agentName', 'agent_name'],
  ['description', 'description'],
  ['greetingMessage', 'greeting_message'],
  ['preamble', 'preamble'],
  ['lang', 'lang'],
  ['pokeMessages', 'poke_messages'],
  ['realTime', 'real_time'],
  ['silenceThreshold', 'silence_threshold'],
  ['endOfTurnSilenceMs', 'end_of_turn_silence_ms'],
  ['maxCallerTurnSeconds', 'max_caller_turn_seconds'],
  ['interrupt', 'interrupt'],
  ['outcome', 'outcome'],
  ['outcomeResponseShape', 'outcome_response_shape'],
  ['voiceId', 'voice_id'],
  ['tools', 'tools'],
  ['params', 'params'],
  ['webhookUrl', 'webhook_url'],
  ['webhookAuthKey', 'webhook_auth_key'],
  ['webhookAuthSecret', 'webhook_auth_secret'],
  ['sourceId', 'source_id'],
  ['createdAt', 'created_at'],
  ['updatedAt', 'updated_at'],
] as const

/** A version holds the agent's columns as they were, after its number, source and time. */
const AGENT_VERSION_COLUMNS = [['version', 'version'], ['source', 'source'], ['versionedAt', 'versioned_at'], ...AGENT_COLUMNS] as const

const PHONE_NUMBER_COLUMNS = [
  ['id', 'id'],
  ['projectId', 'project_id'],
  ['apiKeyId', 'api_key_id'],
  ['userId', 'user_id'],
  ['number', 'number'],
  ['label', 'label'],
  ['type', 'type'],
  ['providerAccountSid', 'provider_account_sid'],
  ['providerAuthToken', 'provider_auth_token'],
  ['voiceAgentId', 'voice_agent_id'],
  ['createdAt', 'created_at'],
  ['updatedAt', 'updated_at'],
] as const

const VOICE_DICTIONARY_COLUMNS = [
  ['id', 'id'],
  ['projectId', 'project_id'],
  ['apiKeyId', 'api_key_id'],
  ['name', 'name'],
  ['words', 'words'],
  ['createdAt', 'created_at'],
  ['updatedAt', 'updated_at'],
] as const

const DICTIONARY_ACTIVATION_COLUMNS = [
  ['dictionaryId', 'dictionary_id'],
  ['voiceAgentId', 'agent_id'],
  ['projectId', 'project_id'],
  ['activatedAt', 'activated_at'],
] as const

const ATTEMPT_COLUMNS = [
  ['deliveryId', 'delivery_id'],
  ['attempt', 'attempt'],
  ['startedAt', 'started_at'],
  ['statusCode', 'status_code'],
  ['latencyMs', 'latency_ms'],
  ['error', 'error'],
  ['responseExcerpt', 'response_excerpt'],
] as const

/** The tables of a project's data, in the order rows are exported and inserted (a row's references come before it). */
export const ROW_TABLES: readonly RowTable[] = [
  {
    kind: 'agent',
    table: 'voice_agents',
    columns: plain(AGENT_COLUMNS, ['pokeMessages', 'outcomeResponseShape', 'tools', 'params'], ['realTime', 'interrupt']),
    order: 't.created_at, t.id',
    ofProject: (parameter) => `t.project_id = ${parameter}`,
  },
  {
    kind: 'agentVersion',
    table: 'voice_agent_versions',
    columns: plain(AGENT_VERSION_COLUMNS, ['pokeMessages', 'outcomeResponseShape', 'tools', 'params'], ['realTime', 'interrupt']),
    order: 't.versioned_at, t.id, t.version',
    ofProject: (parameter) => `t.project_id = ${parameter}`,
  },
  {
    kind: 'phoneNumber',
    table: 'phone_numbers',
    columns: plain(PHONE_NUMBER_COLUMNS),
    order: 't.created_at, t.id',
    ofProject: (parameter) => `t.project_id = ${parameter}`,
  },
  {
    kind: 'voiceDictionary',
    table: 'voice_dictionaries',
    columns: plain(VOICE_DICTIONARY_COLUMNS, ['words']),
    order: 't.created_at, t.id',
    ofProject: (parameter) => `t.project_id = ${parameter}`,
  },
  {
    kind: 'dictionaryActivation',
    table: 'voice_dictionary_agents',
    columns: plain(DICTIONARY_ACTIVATION_COLUMNS),
    order: 't.seq',
    ofProject: (parameter) => `t.project_id = ${parameter}`,
  },
  {
    kind: 'job',
    table: 'jobs',
    columns: plain(JOB_COLUMNS, ['aiParts', 'jobResponse']),
    order: 't.seq',
    ofProject: (parameter) => `t.project_id = ${parameter}`,
  },
  {
    kind: 'delivery',
    table: 'webhook_deliveries',
    columns: plain(DELIVERY_COLUMNS),
    order: 't.seq',
    ofProject: (parameter) => `t.project_id = ${parameter}`,
  },
  {
    kind: 'attempt',
    table: 'webhook_attempts',
    columns: plain(ATTEMPT_COLUMNS),
    order: 't.seq',
    ofProject: (parameter) => `t.delivery_id IN (SELECT d.id FROM webhook_deliveries d WHERE d.project_id = ${parameter})`,
  },
]

/** The counts key of each kind. */
export const COUNT_OF_KIND: Record<ProjectRowKind, keyof ProjectCounts> = {
  agent: 'agents',
  agentVersion: 'agentVersions',
  phoneNumber: 'phoneNumbers',
  voiceDictionary: 'voiceDictionaries',
  dictionaryActivation: 'dictionaryActivations',
  job: 'jobs',
  delivery: 'deliveries',
  attempt: 'attempts',
}

export const noCounts = (): ProjectCounts => ({
  agents: 0,
  agentVersions: 0,
  phoneNumbers: 0,
  voiceDictionaries: 0,
  dictionaryActivations: 0,
  jobs: 0,
  deliveries: 0,
  attempts: 0,
})

/*
 * The schemas rows must pass. Strict: a field the record does not have is an error, so an
 * archive written by hand or by another version fails here, naming the field, not in SQL.
 * Numbers are checked as the columns hold them (PostgreSQL's integer is 32-bit, its bigint
 * epoch ms must stay exact in a double).
 */
const text = z.string()
const id = z.string().min(1)
const int32 = z.number().int().min(-2_147_483_648).max(2_147_483_647)
const epochMs = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)
const finite = z.number().finite()
const timestamp = z.iso.datetime()

const AgentRecordSchema = z.strictObject({
  id,
  projectId: text,
  apiKeyId: text,
  agentName: text,
  description: text,
  greetingMessage: text,
  preamble: text,
  lang: z.enum(['ar', 'en']),
  pokeMessages: z.array(text),
  realTime: z.boolean(),
  silenceThreshold: int32,
  interrupt: z.boolean(),
  // An archive made before these fields existed holds the defaults.
  endOfTurnSilenceMs: int32.default(600),
  maxCallerTurnSeconds: int32.default(15),
  outcome: text,
  outcomeResponseShape: z.record(z.string(), z.unknown()).nullable(),
  voiceId: text,
  tools: z.strictObject({ genderDetection: z.boolean().optional(), smartCallEnd: z.boolean().optional() }),
  params: z.record(z.string(), z.string()),
  webhookUrl: text.nullable(),
  webhookAuthKey: text.nullable(),
  webhookAuthSecret: text.nullable(),
  sourceId: text.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
})

const AgentVersionRecordSchema = AgentRecordSchema.extend({
  version: int32.min(1),
  source: z.string().min(1).max(200),
  versionedAt: timestamp,
})

const PhoneNumberRecordSchema = z.strictObject({
  id,
  projectId: text,
  apiKeyId: text,
  userId: text,
  number: z.string().min(1),
  label: text,
  type: z.literal('TELEPHONY'),
  providerAccountSid: text,
  providerAuthToken: text,
  voiceAgentId: text.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
})

const VoiceDictionaryRecordSchema = z.strictObject({
  id,
  projectId: text,
  apiKeyId: text,
  name: text,
  words: z.array(z.strictObject({ word: z.string().min(1), pronunciation: z.string().min(1) })),
  createdAt: timestamp,
  updatedAt: timestamp,
})

const DictionaryActivationRecordSchema = z.strictObject({
  dictionaryId: id,
  voiceAgentId: id,
  projectId: text,
  activatedAt: timestamp,
})

const JobRecordSchema = z.strictObject({
  id,
  projectId: text,
  apiKeyId: text,
  userId: text,
  type: JobTypeSchema,
  status: JobStatusSchema,
  title: text,
  model: text,
  processingType: text,
  systemModelKey: text,
  voiceId: text.nullable(),
  text: text.nullable(),
  aiParts: z.array(AiPartSchema).nullable(),
  jobResponse: z.record(z.string(), z.unknown()).nullable(),
  errorCode: text.nullable(),
  errorMessage: text.nullable(),
  relevantJobId: text.nullable(),
  voiceAgentId: text.nullable(),
  agentDetails: text.nullable(),
  fromLng: text.nullable(),
  toLng: text.nullable(),
  fromScript: text.nullable(),
  toScript: text.nullable(),
  webhookUrl: text.nullable(),
  webhookAuthKey: text.nullable(),
  webhookAuthSecret: text.nullable(),
  mediaFile: z.string().min(1).nullable(),
  sourceUrl: text.nullable(),
  progress: finite.nullable(),
  previewToken: z.string().min(1),
  usageSeconds: finite.nullable(),
  totalCost: finite,
  attempts: int32,
  leaseOwner: text.nullable(),
  leaseExpiresAt: epochMs.nullable(),
  runAfter: epochMs,
  createdAt: timestamp,
  updatedAt: timestamp,
})

const DeliveryRecordSchema = z.strictObject({
  id,
  projectId: text,
  event: text,
  jobId: text.nullable(),
  url: text,
  authKey: text.nullable(),
  authSecret: text.nullable(),
  payload: text,
  status: z.enum(['PENDING', 'DELIVERED', 'EXHAUSTED']),
  attempts: int32,
  roundAttempts: int32,
  nextAttemptAt: epochMs.nullable(),
  leaseOwner: text.nullable(),
  leaseExpiresAt: epochMs.nullable(),
  lastStatusCode: int32.nullable(),
  lastError: text.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  deliveredAt: timestamp.nullable(),
})

const AttemptRecordSchema = z.strictObject({
  deliveryId: id,
  attempt: int32,
  startedAt: timestamp,
  statusCode: int32.nullable(),
  latencyMs: finite,
  error: text.nullable(),
  responseExcerpt: text.nullable(),
})

export const ProjectRowSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('agent'), record: AgentRecordSchema }),
  z.strictObject({ kind: z.literal('agentVersion'), record: AgentVersionRecordSchema }),
  z.strictObject({ kind: z.literal('phoneNumber'), record: PhoneNumberRecordSchema }),
  z.strictObject({ kind: z.literal('voiceDictionary'), record: VoiceDictionaryRecordSchema }),
  z.strictObject({ kind: z.literal('dictionaryActivation'), record: DictionaryActivationRecordSchema }),
  z.strictObject({ kind: z.literal('job'), record: JobRecordSchema }),
  z.strictObject({ kind: z.literal('delivery'), record: DeliveryRecordSchema }),
  z.strictObject({ kind: z.literal('attempt'), record: AttemptRecordSchema }),
])

/**
 * A row that could not be written: `rowNumber` counts from 1 in the order the rows came. The
 * message names the row (its number, kind and id) and what is wrong with it; the service
 * answers it as a validation error.
 */
export class ProjectRowError extends Error {
  constructor(
    readonly rowNumber: number,
    readonly kind: string | undefined,
    readonly recordId: string | undefined,
    readonly reason: string,
  ) {
    super(`Row ${rowNumber}${kind ? ` (${kind}${recordId ? ` ${recordId}` : ''})` : ''}: ${reason}`)
    this.name = 'ProjectRowError'
  }
}

function describe(row: unknown): { kind: string | undefined; recordId: string | undefined } {
  const value = row as { kind?: unknown; record?: { id?: unknown; deliveryId?: unknown; attempt?: unknown } } | null
  const kind = typeof value?.kind === 'string' ? value.kind.slice(0, 40) : undefined
  const record = value?.record
  const recordId =
    typeof record?.id === 'string'
      ? record.id.slice(0, 80)
      : typeof record?.deliveryId === 'string'
        ? `${record.deliveryId.slice(0, 80)}#${String(record.attempt)}`
        : undefined
  return { kind, recordId }
}

/** The error of row `rowNumber`, named by what it claims to be. */
export function rowError(rowNumber: number, row: unknown, reason: string): ProjectRowError {
  const { kind, recordId } = describe(row)
  return new ProjectRowError(rowNumber, kind, recordId, reason)
}

/** The row, validated, or a ProjectRowError naming it and its first problems. */
export function validateRow(row: unknown, rowNumber: number): ProjectRow {
  const result = ProjectRowSchema.safeParse(row)
  if (result.success) return result.data
  const problems = result.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'row'}: ${issue.message}`)
    .join('; ')
  throw rowError(rowNumber, row, problems)
}

/** The lease owner an imported call in progress carries: no runner has this name, and its lease has run out. */
export const RESTORED_LEASE_OWNER = 'voicedesk:restored'

/** What the target store knows of keys and users, to keep a row's or give it the owner's. */
export interface KnownIdentities {
  keyIds: ReadonlySet<string>
  userIds: ReadonlySet<string>
  owner: KeyIdentity | undefined
}

/**
 * A valid row as it is written into `projectId`: the project's id, a known key and user (else
 * the owner's), and work that was under way abandoned (see ProjectDataRepository.replaceProject).
 */
export function arrivingRow(row: ProjectRow, projectId: string, known: KnownIdentities, rowNumber: number): ProjectRow {
  const keyOf = (apiKeyId: string) => {
    if (known.keyIds.has(apiKeyId)) return apiKeyId
    if (known.owner) return known.owner.apiKeyId
    throw rowError(rowNumber, row, `apiKeyId ${apiKeyId} is not a key of this project`)
  }
  const userOf = (userId: string) => {
    if (known.userIds.has(userId)) return userId
    if (known.owner) return known.owner.userId
    throw rowError(rowNumber, row, `userId ${userId} is not a user here`)
  }
  switch (row.kind) {
    case 'agent':
      return { kind: 'agent', record: { ...row.record, projectId, apiKeyId: keyOf(row.record.apiKeyId) } }
    case 'agentVersion':
      return { kind: 'agentVersion', record: { ...row.record, projectId, apiKeyId: keyOf(row.record.apiKeyId) } }
    case 'phoneNumber':
      return {
        kind: 'phoneNumber',
        record: { ...row.record, projectId, apiKeyId: keyOf(row.record.apiKeyId), userId: userOf(row.record.userId) },
      }
    case 'voiceDictionary':
      return { kind: 'voiceDictionary', record: { ...row.record, projectId, apiKeyId: keyOf(row.record.apiKeyId) } }
    case 'dictionaryActivation':
      return { kind: 'dictionaryActivation', record: { ...row.record, projectId } }
    case 'job': {
      const record = { ...row.record, projectId, apiKeyId: keyOf(row.record.apiKeyId), userId: userOf(row.record.userId) }
      if (record.status === 'IN_PROGRESS') {
        // A call: the sweep (ConversationsRepository.requeueAbandoned) finds its lease run out.
        record.leaseOwner = RESTORED_LEASE_OWNER
        record.leaseExpiresAt = 0
      } else {
        // A job a runner held goes back to the queue, as releaseLeasesOf gives back a dead runner's.
        record.leaseOwner = null
        record.leaseExpiresAt = null
      }
      return { kind: 'job', record }
    }
    case 'delivery': {
      const record = { ...row.record, projectId }
      if (record.leaseOwner !== null || record.leaseExpiresAt !== null) {
        // A leased delivery is due again at once, as releaseLeasesOf gives back a dead sender's.
        record.leaseOwner = null
        record.leaseExpiresAt = null
        if (record.status === 'PENDING') record.nextAttemptAt = 0
      }
      return { kind: 'delivery', record }
    }
    case 'attempt':
      return row
  }
}

/**
 * The rows to write into `projectId`, each validated, made an arriving row (see arrivingRow),
 * checked against the rows before it and counted into `counts`; numbered from 1 for errors.
 * A number's agent, a version's agent and an attempt's delivery must come with the rows: the
 * tables' foreign keys alone would let them name another project's. An agent without versions
 * (an archive made before versions existed) gets version 1, its state as imported (source
 * `import`), after the rows that came.
 */
export async function* checkedRows(
  rows: AsyncIterable<unknown> | Iterable<unknown>,
  projectId: string,
  known: KnownIdentities,
  counts: ProjectCounts,
): AsyncGenerator<{ rowNumber: number; row: ProjectRow }> {
  const agentIds = new Set<string>()
  const unversionedAgents = new Map<string, VoiceAgentRecord>()
  const deliveryIds = new Set<string>()
  const dictionaryIds = new Set<string>()
  let rowNumber = 0
  for await (const raw of rows) {
    rowNumber += 1
    const row = arrivingRow(validateRow(raw, rowNumber), projectId, known, rowNumber)
    if (row.kind === 'phoneNumber' && row.record.voiceAgentId !== null && !agentIds.has(row.record.voiceAgentId)) {
      throw rowError(rowNumber, row, `voiceAgentId ${row.record.voiceAgentId} is not an agent of the rows before it`)
    }
    if (row.kind === 'agentVersion' && !agentIds.has(row.record.id)) {
      throw rowError(rowNumber, row, `id ${row.record.id} is not an agent of the rows before it`)
    }
    if (row.kind === 'dictionaryActivation' && !dictionaryIds.has(row.record.dictionaryId)) {
      throw rowError(rowNumber, row, `dictionaryId ${row.record.dictionaryId} is not a voice dictionary of the rows before it`)
    }
    if (row.kind === 'dictionaryActivation' && !agentIds.has(row.record.voiceAgentId)) {
      throw rowError(rowNumber, row, `voiceAgentId ${row.record.voiceAgentId} is not an agent of the rows before it`)
    }
    if (row.kind === 'attempt' && !deliveryIds.has(row.record.deliveryId)) {
      throw rowError(rowNumber, row, `deliveryId ${row.record.deliveryId} is not a delivery of the rows before it`)
    }
    if (row.kind === 'agent') {
      agentIds.add(row.record.id)
      unversionedAgents.set(row.record.id, row.record)
    }
    if (row.kind === 'agentVersion') unversionedAgents.delete(row.record.id)
    if (row.kind === 'delivery') deliveryIds.add(row.record.id)
    if (row.kind === 'voiceDictionary') dictionaryIds.add(row.record.id)
    counts[COUNT_OF_KIND[row.kind]] += 1
    yield { rowNumber, row }
  }
  for (const agent of unversionedAgents.values()) {
    rowNumber += 1
    counts.agentVersions += 1
    yield { rowNumber, row: { kind: 'agentVersion', record: { ...agent, version: 1, source: 'import', versionedAt: agent.updatedAt } } }
  }
}

/** The value a record's field is written as: JSON as text, booleans as the engine wants them. */
export function columnValue(value: unknown, holds: ColumnKind, booleanAs: (value: boolean) => unknown): unknown {
  if (holds === 'json') return value === null ? null : JSON.stringify(value)
  if (holds === 'boolean') return booleanAs(value as boolean)
  return value
}

/** A record's field as read from its column. */
export function fieldValue(value: unknown, holds: ColumnKind): unknown {
  if (holds === 'json') return value === null ? null : JSON.parse(value as string)
  if (holds === 'boolean') return value === true || value === 1
  return value
}
