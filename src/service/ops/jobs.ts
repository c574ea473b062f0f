import { randomUUID } from 'node:crypto'
import {
  LIST_JOBS_DEFAULT_TAKE,
  TEXT_JOB_TYPES,
  type AiContentBody,
  type AiContentEstimate,
  type AiContentEstimateBody,
  type AiContentJob,
  type CustomAiContentBody,
  type Job,
  type JobListItem,
  type JobType,
  type ListJobsBody,
  type TextToSpeechBody,
  type TtsJob,
} from '../../shared/api/jobs'
import { findVoice } from '../../shared/voices'
import { nearestPart } from '../../engines/ai-content/custom-parts'
import { controlCharactersAsSpaces, holdsControlCharacter } from '../../shared/text/control-characters'
import { searchWords, type JobRecord } from '../../store/records'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { sourceMediaName } from './media-names'
import { aiContentCost, mediaCost, ttsCost } from './prices'
import { notFound, ServiceError } from './service-error'
import { requireWebhookTarget } from './webhook-target'
import { unguessable } from './unguessable'
import { jobErrorOf, jobMediaUrl, jobPayload, usageTimeOf } from '../../webhooks/job-payload'
import { present } from '../../shared/present'

/** What the service answers in `model` and `systemModelKey` for the work it does itself. */
export const JOB_MODELS = {
  TTS: { model: 'espeak-ng', systemModelKey: 'tts-espeak-ng', processingType: 'ASYNC' },
  AI_CONTENT_OFFLINE: { model: 'voicedesk-extractive', systemModelKey: 'ai-content-offline', processingType: 'ASYNC' },
} as const

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A one-line title from the start of a text; control characters (NUL too) become spaces, as line breaks do. */
export function titleFrom(text: string, max = 60): string {
  const line = controlCharactersAsSpaces(text).replace(/\s+/g, ' ').trim()
  const characters = [...line]
  return characters.length <= max
    ? line
    : `${characters
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
}

export function mediaUrlOf(context: OpsContext, record: JobRecord): string | null {
  return jobMediaUrl(record, context.baseUrl())
}

/** Where this service plays a job's media from: a transcription's source once it is stored here (a page's player may not load other sites). */
export function playableMediaUrlOf(context: OpsContext, record: JobRecord): string | null {
  if (record.type === 'TRANSCRIPTION')
    return record.status === 'COMPLETED' && record.mediaFile ? `${context.baseUrl()}/media/${record.mediaFile}` : null
  return mediaUrlOf(context, record)
}

export function previewUrlOf(context: OpsContext, record: JobRecord): string {
  return `${context.baseUrl()}/preview/${record.previewToken}`
}

/** GET /v1/jobs/:id: the same shape the webhooks room sends in job.completed and job.failed. */
export function toJobDto(context: OpsContext, record: JobRecord): Job {
  return jobPayload(record, context.baseUrl())
}

export function toTtsJobDto(context: OpsContext, record: JobRecord): TtsJob {
  // A TTS job is made with its media file and voice (createTtsJob).
  const mediaUrl = present(mediaUrlOf(context, record), `the media of TTS job ${record.id}`)
  return {
    id: record.id,
    title: record.title,
    type: 'TTS',
    mediaUrl,
    webhookUrl: record.webhookUrl,
    model: record.model,
    status: record.status,
    ...jobErrorOf(record),
    totalCost: record.totalCost,
    apiKeyId: record.apiKeyId,
    userId: record.userId,
    ttsVoiceId: present(record.voiceId, `the voice of TTS job ${record.id}`),
    jobResponse: { text: record.text ?? '', ttsMediaFile: mediaUrl },
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}

export function toAiContentJobDto(context: OpsContext, record: JobRecord): AiContentJob {
  return {
    id: record.id,
    title: record.title,
    model: record.model,
    type: 'AI_CONTENT',
    processingType: record.processingType,
    webhookUrl: record.webhookUrl,
    totalCost: record.totalCost,
    usageTime: usageTimeOf(record),
    mediaUrl: null,
    jobResponse: record.status === 'COMPLETED' ? (record.jobResponse as AiContentJob['jobResponse']) : null,
    status: record.status,
    ...jobErrorOf(record),
    relevantJobId: present(record.relevantJobId, `the source job of AI content job ${record.id}`),
    apiKeyId: record.apiKeyId,
    billingId: null,
    userId: record.userId,
    systemModelKey: record.systemModelKey,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}

export function baseRecord(
  _context: OpsContext,
  caller: Caller,
  at: string,
): Omit<JobRecord, 'type' | 'title' | 'model' | 'processingType' | 'systemModelKey' | 'totalCost'> {
  return recordBase(caller, at)
}

/** A new PENDING job's fields but its kind, for code that runs without an OpsContext (a job's end). */
export function recordBase(
  caller: Caller,
  at: string,
): Omit<JobRecord, 'type' | 'title' | 'model' | 'processingType' | 'systemModelKey' | 'totalCost'> {
  return {
    id: randomUUID(),
    projectId: caller.projectId,
    apiKeyId: caller.apiKeyId,
    userId: caller.userId,
    status: 'PENDING',
    voiceId: null,
    text: null,
    aiParts: null,
    jobResponse: null,
    errorCode: null,
    errorMessage: null,
    relevantJobId: null,
    voiceAgentId: null,
    agentDetails: null,
    fromLng: null,
    toLng: null,
    fromScript: null,
    toScript: null,
    webhookUrl: null,
    webhookAuthKey: null,
    webhookAuthSecret: null,
    mediaFile: null,
    sourceUrl: null,
    progress: null,
    previewToken: unguessable(),
    usageSeconds: null,
    attempts: 0,
    leaseOwner: null,
    leaseExpiresAt: null,
    runAfter: 0,
    createdAt: at,
    updatedAt: at,
  }
}

/** Queues a TTS job; the runner writes its audio. The media URL is known (and fixed) at once. */
export async function createTextToSpeechJob(context: OpsContext, caller: Caller, body: TextToSpeechBody): Promise<TtsJob> {
  if (body.webhookUrl) requireWebhookTarget(context, body.webhookUrl, 'webhookUrl')
  if (body.voiceAgentId !== undefined && !(await context.store.voiceAgents.findInProject(body.voiceAgentId, caller.projectId)))
    throw notFound('voice agent', body.voiceAgentId)
  const record: JobRecord = {
    ...baseRecord(context, caller, timestamp(context)),
    type: 'TTS',
    title: titleFrom(body.text),
    ...JOB_MODELS.TTS,
    voiceId: body.voiceId,
    text: body.text,
    // Whose voice dictionaries apply, read when the job runs.
    voiceAgentId: body.voiceAgentId ?? null,
    webhookUrl: body.webhookUrl ?? null,
    // Either part may be absent (see JobWebhookAuthSchema); the sender joins what is there.
    webhookAuthKey: body.webhookAuth?.authKey ?? null,
    webhookAuthSecret: body.webhookAuth?.authSecret !== undefined ? context.secrets.encrypt(body.webhookAuth.authSecret) : null,
    mediaFile: `${unguessable()}.wav`,
    totalCost: ttsCost(body.text),
  }
  await context.store.jobs.insert(record)
  context.jobEnqueued(record)
  return toTtsJobDto(context, record)
}

export async function requireJob(context: OpsContext, caller: Caller, id: string): Promise<JobRecord> {
  const record = await context.store.jobs.findInProject(id, caller.projectId)
  if (!record) throw notFound('job', id)
  return record
}

/** Queues AI content from a finished job that carries text (a transcript, a translation, a TTS text). */
/** The finished job with text that AI content is written from: 404 unknown, 409 unfinished, of another type or without text. */
async function requireAiContentSource(context: OpsContext, caller: Caller, sourceId: string): Promise<JobRecord> {
  const source = await requireJob(context, caller, sourceId)
  if (!TEXT_JOB_TYPES.includes(source.type)) {
    throw new ServiceError('CONFLICT', `Job ${sourceId} is ${source.type}; AI content needs a TRANSCRIPTION, TRANSLATION or TTS job`)
  }
  if (source.status !== 'COMPLETED') {
    throw new ServiceError('CONFLICT', `Job ${sourceId} is ${source.status}; AI content needs a COMPLETED job`)
  }
  if (!source.text?.trim()) throw new ServiceError('CONFLICT', `Job ${sourceId} has no text to write from`)
  return source
}

export async function createAiContentJob(
  context: OpsContext,
  caller: Caller,
  sourceId: string,
  body: AiContentBody,
): Promise<AiContentJob> {
  const source = await requireAiContentSource(context, caller, sourceId)
  return queueAiContentJob(context, caller, source, { aiParts: body.aiParts })
}

/** An AI-content job written from `source`, queued: the engine read now, priced by its number of parts. */
async function queueAiContentJob(
  context: OpsContext,
  caller: Caller,
  source: JobRecord,
  fields: Pick<JobRecord, 'aiParts'> & Partial<JobRecord>,
): Promise<AiContentJob> {
  const record: JobRecord = {
    ...baseRecord(context, caller, timestamp(context)),
    type: 'AI_CONTENT',
    title: titleFrom(`AI content: ${source.title}`, 100),
    ...context.aiContentModel(),
    relevantJobId: source.id,
    totalCost: aiContentCost(fields.aiParts?.length ?? 0),
    ...fields,
  }
  await context.store.jobs.insert(record)
  context.jobEnqueued(record)
  return toAiContentJobDto(context, record)
}

/**
 * Custom parts from the user's instructions (docs/api.md, "POST /v1/jobs/ai-content/custom"):
 * the job keeps the request in its pending jobResponse, and the nearest built-in part of each in
 * `aiParts` (what the offline engine writes it as); it costs what as many built-in parts cost.
 */
export async function createCustomAiContentJob(
  context: OpsContext,
  caller: Caller,
  sourceId: string,
  body: CustomAiContentBody,
): Promise<AiContentJob> {
  if (body.webhookUrl) requireWebhookTarget(context, body.webhookUrl, 'webhookUrl')
  const source = await requireAiContentSource(context, caller, sourceId)
  const customRequest = body.aiParts.map(({ aiPart, language, prompt }) => ({ aiPart, prompt, ...(language ? { language } : {}) }))
  return queueAiContentJob(context, caller, source, {
    aiParts: body.aiParts.map((part) => nearestPart(part.aiPart, part.prompt)),
    jobResponse: { customRequest },
    webhookUrl: body.webhookUrl ?? null,
    webhookAuthKey: body.webhookAuth?.authKey ?? null,
    webhookAuthSecret: body.webhookAuth?.authSecret !== undefined ? context.secrets.encrypt(body.webhookAuth.authSecret) : null,
  })
}

/** What an AI-content job from this source with these parts will charge: the same checks and the same price as making it. */
export async function estimateAiContentJob(
  context: OpsContext,
  caller: Caller,
  sourceId: string,
  body: AiContentEstimateBody,
): Promise<AiContentEstimate> {
  const source = await requireAiContentSource(context, caller, sourceId)
  const parts = body.aiParts.length
  return { jobId: source.id, parts, pricePerPart: aiContentCost(1), estimatedCost: aiContentCost(parts), currency: 'credits' }
}

/** An AI-content job by its id, or the newest one made from a source job's id. */
export async function getAiContentJob(context: OpsContext, caller: Caller, jobId: string): Promise<AiContentJob> {
  const record = await context.store.jobs.findInProject(jobId, caller.projectId)
  const aiJob = record?.type === 'AI_CONTENT' ? record : await context.store.jobs.newestFromSource(jobId, caller.projectId)
  if (!aiJob) {
    throw record ? new ServiceError('NOT_FOUND', `No AI-content job was made from job ${JSON.stringify(jobId)}`) : notFound('job', jobId)
  }
  return toAiContentJobDto(context, aiJob)
}

/** `GET /v1/jobs?jobId=`: the seed's one answer without `success`. */
export async function getJob(
  context: OpsContext,
  caller: Caller,
  jobId: string,
): Promise<{ message: string; previewUrl: string; data: Job }> {
  const record = await requireJob(context, caller, jobId)
  return { message: 'Success', previewUrl: previewUrlOf(context, record), data: toJobDto(context, record) }
}

/** The hints of the keys that made `records`, each key read once. */
async function keyHintsOf(context: OpsContext, records: JobRecord[]): Promise<Map<string, string>> {
  const hints = new Map<string, string>()
  for (const apiKeyId of new Set(records.map((record) => record.apiKeyId))) {
    hints.set(apiKeyId, (await context.store.accounts.findKey(apiKeyId))?.keyHint ?? '****')
  }
  return hints
}

export function toJobListItem(context: OpsContext, record: JobRecord, keyHints: Map<string, string>): JobListItem {
  const keyHint = keyHints.get(record.apiKeyId) ?? '****'
  const mediaUrl = mediaUrlOf(context, record)
  return {
    id: record.id,
    title: record.title,
    type: record.type,
    url: mediaUrl,
    status: record.status,
    cost: record.totalCost,
    systemModelKey: record.systemModelKey,
    relevantJobId: record.relevantJobId,
    attributes: {
      apiKey: keyHint,
      mediaUrl,
      model: record.model,
      agentName: record.agentDetails,
      duration: record.usageSeconds,
      voice: record.voiceId ? (findVoice(record.voiceId)?.name ?? null) : null,
      aiContentParts: record.aiParts ?? [],
      sourceJob: record.relevantJobId,
    },
    apiKey: keyHint,
    createdBy: record.userId,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}

/** Paging given in the query string: `skip` there is an offset, not a page. */
export interface OffsetPaging {
  take?: number
  skip?: number
}

/**
 * Where a page starts: a body `skip` is the contract's 1-based page, a query `skip` an offset
 * (as Pipedream sends it). The body wins for each of take and skip it gives.
 */
export function jobPageOf(body: ListJobsBody, query: OffsetPaging = {}): { limit: number; offset: number } {
  const limit = body?.take ?? query.take ?? LIST_JOBS_DEFAULT_TAKE
  if (body?.skip !== undefined) return { limit, offset: (body.skip - 1) * limit }
  return { limit, offset: query.skip ?? 0 }
}

/**
 * A range of creation times, for the operator's monitor (/v1's list body has none): instants
 * in ISO 8601 with any offset, `createdFrom` included, `createdTo` excluded.
 */
export interface CreatedRange {
  createdFrom?: string
  createdTo?: string
}

/** The range as the store compares it (stored times are UTC ISO 8601 with milliseconds); VALIDATION_ERROR when it ends before it starts. */
function storedRange(range: CreatedRange): { createdFrom?: string; createdTo?: string } {
  const createdFrom = range.createdFrom === undefined ? undefined : new Date(range.createdFrom).toISOString()
  const createdTo = range.createdTo === undefined ? undefined : new Date(range.createdTo).toISOString()
  if (createdFrom !== undefined && createdTo !== undefined && createdFrom > createdTo) {
    const message = 'The end of the date range is before its start: choose a "to" date on or after the "from" date'
    throw new ServiceError('VALIDATION_ERROR', message, [{ path: 'createdTo', message }])
  }
  return { createdFrom, createdTo }
}

/** `POST /v1/jobs/all?projectId=`: a page of the caller's jobs, with the contract's filters and order (and, for the operator, a range of creation times). */
export async function listJobs(
  context: OpsContext,
  caller: Caller,
  projectId: string,
  body: ListJobsBody,
  queryPaging: OffsetPaging = {},
  range: CreatedRange = {},
) {
  return listJobsAs(context, caller, projectId, body, queryPaging, range, toJobListItem)
}

/**
 * A page of the caller's jobs, each record made into an item by `toItem` (the operator UI's list
 * adds to /v1's item what its rows show), with the project's and the filter's counts; the
 * operator's monitor also filters by a range of creation times.
 */
export async function listJobsAs<Item>(
  context: OpsContext,
  caller: Caller,
  projectId: string,
  body: ListJobsBody,
  queryPaging: OffsetPaging,
  range: CreatedRange,
  toItem: (context: OpsContext, record: JobRecord, keyHints: Map<string, string>) => Item,
): Promise<{ jobs: Item[]; total: number; filtered: number }> {
  if (projectId !== caller.projectId) {
    throw new ServiceError('FORBIDDEN', 'This key belongs to another project', [{ path: 'projectId', message: 'Not the key’s project' }])
  }
  const { limit, offset } = jobPageOf(body, queryPaging)
  const { createdFrom, createdTo } = storedRange(range)
  const search = body?.search?.trim()
  const byId = search && UUID.test(search) ? search.toLowerCase() : undefined
  const words = search && !byId ? searchWords(search) : undefined
  if (words?.length === 0 || (body?.search !== undefined && holdsControlCharacter(body.search))) {
    // Only punctuation, or a control character (see control-characters.ts): nothing can match it.
    const { total } = await context.store.jobs.list(caller.projectId, { sort: 'createdAt', direction: 'desc', limit: 0, offset: 0 })
    return { jobs: [], total, filtered: 0 }
  }
  const { records, total, filtered } = await context.store.jobs.list(caller.projectId, {
    status: body?.status,
    type: body?.type,
    id: byId,
    words,
    createdFrom,
    createdTo,
    sort: body?.sort?.field ?? 'createdAt',
    direction: body?.sort?.direction ?? 'desc',
    limit,
    offset,
  })
  const keyHints = await keyHintsOf(context, records)
  return { jobs: records.map((record) => toItem(context, record, keyHints)), total, filtered }
}

/** Job types this VoiceDesk runs itself, so it can run one again. */
const RETRYABLE_TYPES: readonly JobType[] = ['TTS', 'AI_CONTENT', 'TRANSCRIPTION', 'TRANSLATION']

/**
 * "Retry" a FAILED job: queues a new job of the same type with the same inputs (text, voice,
 * title, webhook and its auth, AI parts and source job). A copy: the failed job's record and
 * its webhook deliveries stay as they were. Paths of refusals are relative to `{ jobId }`.
 */
export async function retryJob(context: OpsContext, caller: Caller, jobId: string): Promise<Job> {
  const failed = await requireJob(context, caller, jobId)
  if (failed.status !== 'FAILED') {
    const message = `Job ${jobId} is ${failed.status}; only a FAILED job can be retried`
    throw new ServiceError('CONFLICT', message, [{ path: 'jobId', message: 'Not a FAILED job' }])
  }
  if (!RETRYABLE_TYPES.includes(failed.type)) {
    const message = `Job ${jobId} is ${failed.type}; this VoiceDesk cannot run it again`
    throw new ServiceError('CONFLICT', message, [{ path: 'jobId', message: `A ${failed.type} job cannot be retried here` }])
  }
  if (failed.webhookUrl) requireWebhookTarget(context, failed.webhookUrl, 'jobId')
  const copied = {
    title: failed.title,
    text: failed.text,
    voiceId: failed.voiceId,
    aiParts: failed.aiParts,
    relevantJobId: failed.relevantJobId,
    voiceAgentId: failed.voiceAgentId,
    agentDetails: failed.agentDetails,
    fromLng: failed.fromLng,
    toLng: failed.toLng,
    fromScript: failed.fromScript,
    toScript: failed.toScript,
    webhookUrl: failed.webhookUrl,
    webhookAuthKey: failed.webhookAuthKey,
    // Sealed with this data folder's box; the copy is sealed the same way.
    webhookAuthSecret: failed.webhookAuthSecret,
  }
  const base = baseRecord(context, caller, timestamp(context))
  const record: JobRecord =
    failed.type === 'TTS'
      ? { ...base, ...copied, type: 'TTS', ...JOB_MODELS.TTS, mediaFile: `${unguessable()}.wav`, totalCost: ttsCost(failed.text ?? '') }
      : failed.type === 'TRANSCRIPTION'
        ? {
            ...base,
            ...copied,
            type: 'TRANSCRIPTION',
            model: failed.model,
            processingType: failed.processingType,
            systemModelKey: failed.systemModelKey,
            // Each job owns its media: the copy takes the failed job's from the store when it got
            // that far (an upload, a fetch that worked), else from where the failed job would have.
            mediaFile: sourceMediaName(failed.mediaFile ?? undefined),
            sourceUrl:
              failed.mediaFile && (await context.media.size(failed.mediaFile)) !== undefined
                ? `${context.baseUrl()}/media/${failed.mediaFile}`
                : failed.sourceUrl,
            totalCost: mediaCost('TRANSCRIPTION', 0),
          }
        : failed.type === 'TRANSLATION'
          ? // The same source (job or text: a failed translation's text is still its source) and price; the engine chosen now.
            { ...base, ...copied, type: 'TRANSLATION', ...(await context.translationModel()), totalCost: failed.totalCost }
          : { ...base, ...copied, type: 'AI_CONTENT', ...context.aiContentModel(), totalCost: aiContentCost(failed.aiParts?.length ?? 0) }
  await context.store.jobs.insert(record)
  context.jobEnqueued(record)
  return toJobDto(context, record)
}
