import type { z } from 'zod'
import type { ErrorDetail } from '../../shared/api/errors'
import {
  CreateVoiceAgentBodySchema,
  UpdateVoiceAgentBodySchema,
  type CreateVoiceAgentBody,
  type UpdateVoiceAgentBody,
  type VoiceAgent,
} from '../../shared/api/voice-agents'
import type {
  V2CreateJobBody,
  V2CreateVoiceAgentBody,
  V2ListJobsQuery,
  V2TranscriptionAiContentBody,
  V2UpdateVoiceAgentBody,
  V2VoiceAgent,
} from '../../shared/api/v2'
import { SPEAKER_VOICES, VOICES } from '../../shared/voices'
import type { JobRecord } from '../../store/records'
import { listJobsAs, mediaUrlOf } from './jobs'
import { timestamp, type Caller, type OpsContext } from './ops-context'
import { assignPhoneNumber } from './phone-numbers'
import { ServiceError, notFound } from './service-error'
import { createTranscriptionJobFromUrl } from './transcription-jobs'
import { createVoiceAgent, getVoiceAgent, listVoiceAgents, updateVoiceAgent } from './voice-agents'

/*
 * /v2 as the cloud shows it, served by /v1's use cases: a /v2 body is read into /v1's fields
 * and checked by /v1's rules (a refusal names the /v2 path), and an agent is shown grouped.
 */

/** Where each /v1 field sits in a /v2 agent body. */
const V2_PATHS: Record<string, string> = {
  agentName: 'name',
  greetingMessage: 'conversation.greetingMessage',
  preamble: 'conversation.preamble',
  pokeMessages: 'conversation.pokeMessages',
  params: 'conversation.params',
  lang: 'voice.lang',
  voiceId: 'voice.voiceId',
  interrupt: 'callSettings.interrupt',
  silenceThreshold: 'callSettings.silenceThreshold',
  tools: 'callSettings',
  webhookUrl: 'webhookUrl',
  webhookAuth: 'webhookAuth',
  outcome: 'outcome',
  outcomeResponseShape: 'outcomeResponseShape',
}

function v2Path(path: readonly PropertyKey[]): string {
  const [field, ...rest] = path.map(String)
  return [V2_PATHS[field ?? ''] ?? field, ...rest].filter(Boolean).join('.')
}

/** A voice named by id, catalogue name or public speaker name, as its catalogue id (else as given: /v1's rule refuses it). */
function voiceIdOf(ref: string): string {
  const wanted = ref.trim().toLowerCase()
  return VOICES.find((voice) => voice.id === wanted || voice.name.toLowerCase() === wanted)?.id ?? SPEAKER_VOICES.get(wanted)?.id ?? ref
}

const isEmpty = (value: object | null | undefined) => value === null || (value !== undefined && Object.keys(value).length === 0)

/** A /v2 agent body as /v1's fields (absent stays absent). */
function v1FieldsOf(body: V2UpdateVoiceAgentBody): Record<string, unknown> {
  const { conversation, voice, callSettings } = body
  const fields: Record<string, unknown> = {
    agentName: body.name,
    greetingMessage: conversation?.greetingMessage,
    preamble: conversation?.preamble,
    pokeMessages: conversation?.pokeMessages,
    params: conversation?.params,
    lang: voice?.lang,
    voiceId: voice?.voiceId === undefined ? undefined : voiceIdOf(voice.voiceId),
    interrupt: callSettings?.interrupt,
    silenceThreshold: callSettings?.silenceThreshold === undefined ? undefined : Math.round(callSettings.silenceThreshold / 1000),
    tools:
      callSettings?.genderDetection === undefined && callSettings?.smartCallEnd === undefined
        ? undefined
        : {
            ...(callSettings.genderDetection === undefined ? {} : { genderDetection: callSettings.genderDetection }),
            ...(callSettings.smartCallEnd === undefined ? {} : { smartCallEnd: callSettings.smartCallEnd }),
          },
    webhookUrl: body.webhookUrl,
    webhookAuth: body.webhookAuth === undefined ? undefined : isEmpty(body.webhookAuth) ? null : body.webhookAuth,
    outcome: body.outcome,
    outcomeResponseShape:
      body.outcomeResponseShape === undefined ? undefined : isEmpty(body.outcomeResponseShape) ? null : body.outcomeResponseShape,
  }
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
}

function checkedAs<T>(schema: z.ZodType<T>, fields: Record<string, unknown>): T {
  const parsed = schema.safeParse(fields)
  if (parsed.success) return parsed.data
  const details: ErrorDetail[] = parsed.error.issues.map((issue) => ({ path: v2Path(issue.path), message: issue.message }))
  throw new ServiceError('VALIDATION_ERROR', `Invalid request: ${details[0]?.path}: ${details[0]?.message}`, details)
}

/** An agent in /v2's shape: its settings grouped, its phone number, the project's dialogue engine. */
async function toV2Agent(context: OpsContext, caller: Caller, agent: VoiceAgent): Promise<V2VoiceAgent> {
  const record = await context.store.voiceAgents.findInProject(agent.id, caller.projectId)
  const { records: numbers } = await context.store.phoneNumbers.list(caller.projectId, { voiceAgentId: agent.id }, 1, 0)
  const engines = await context.callEngines()
  const direction = agent.lang === 'ar' ? 'rtl' : 'ltr'
  return {
    id: agent.id,
    type: 'Single Prompt',
    name: agent.agentName,
    conversation: {
      greetingMessage: agent.greetingMessage,
      greetingMessageType: null,
      preamble: agent.preamble,
      pokeMessages: agent.pokeMessages,
      params: agent.params,
      alignment: { greetingMessage: direction, preamble: direction },
    },
    voice: {
      voiceId: agent.voiceRecordId,
      voiceRecordId: agent.voiceRecordId,
      voiceRecord: agent.voiceRecord,
      lang: agent.lang,
      ttsParams: {},
    },
    llm: { provider: engines.dialogue, model: engines.model, temperature: null, baseUrl: null, apiKey: null },
    callSettings: {
      interrupt: agent.interrupt,
      silenceThreshold: agent.silenceThreshold * 1000,
      genderDetection: record?.tools.genderDetection ?? false,
      smartCallEnd: record?.tools.smartCallEnd ?? false,
      realTime: agent.realTime,
      endOfTurnSilenceMs: agent.endOfTurnSilenceMs,
      maxCallerTurnSeconds: agent.maxCallerTurnSeconds,
    },
    tools: [],
    knowledgeBaseItemsIds: [],
    voiceDictionaryIds: (await context.store.voiceDictionaries.findActiveForAgent(agent.id, caller.projectId)).map(({ id }) => id),
    phoneNumber: numbers[0] ? { type: numbers[0].type, id: numbers[0].id } : null,
    webhookUrl: agent.webhookUrl,
    webhookAuth: agent.webhookAuth ?? {},
    workflow: null,
    outcome: agent.outcome,
    outcomeResponseShape: (agent.outcomeResponseShape as Record<string, unknown> | null) ?? {},
    createdAt: agent.createdAt,
    updatedAt: agent.updatedAt,
  }
}

/** Assigns the body's phone number (by id) to the agent: a number of another project, or none, is a 404. */
async function assignNumberById(context: OpsContext, caller: Caller, agentId: string, phoneNumber: V2UpdateVoiceAgentBody['phoneNumber']) {
  if (!phoneNumber) return
  const number = await context.store.phoneNumbers.findInProject(phoneNumber.id, caller.projectId)
  if (!number) throw notFound('phone number', phoneNumber.id)
  await assignPhoneNumber(context, caller, { voiceAgentId: agentId, phoneNumber: number.number })
}

/** The body's dictionaries and number must be the project's before anything is made or changed (404 naming the first that is not). */
async function requireReferences(context: OpsContext, caller: Caller, body: V2UpdateVoiceAgentBody): Promise<void> {
  if (body.phoneNumber && !(await context.store.phoneNumbers.findInProject(body.phoneNumber.id, caller.projectId))) {
    throw notFound('phone number', body.phoneNumber.id)
  }
  for (const id of body.voiceDictionaryIds ?? []) {
    if (!(await context.store.voiceDictionaries.findInProject(id, caller.projectId))) throw notFound('voice dictionary', id)
  }
}

/**
 * `voiceDictionaryIds`: exactly these dictionaries active for the agent, in this order, as
 * /v1's toggle-activation would leave them (left out: unchanged).
 */
async function setActiveDictionaries(context: OpsContext, caller: Caller, agentId: string, ids: readonly string[] | undefined) {
  if (ids === undefined) return
  await context.store.transaction(async (tx) => {
    const at = timestamp(context)
    for (const active of await tx.voiceDictionaries.findActiveForAgent(agentId, caller.projectId)) {
      await tx.voiceDictionaries.setActive(active.id, agentId, caller.projectId, false, at)
    }
    // Checked before the agent was written (requireReferences); each is the project's.
    for (const id of ids) await tx.voiceDictionaries.setActive(id, agentId, caller.projectId, true, at)
  })
}

export async function v2CreateVoiceAgent(context: OpsContext, caller: Caller, body: V2CreateVoiceAgentBody): Promise<V2VoiceAgent> {
  const fields = checkedAs<CreateVoiceAgentBody>(CreateVoiceAgentBodySchema, v1FieldsOf(body))
  await requireReferences(context, caller, body)
  const agent = await createVoiceAgent(context, caller, fields)
  await assignNumberById(context, caller, agent.id, body.phoneNumber)
  await setActiveDictionaries(context, caller, agent.id, body.voiceDictionaryIds)
  return toV2Agent(context, caller, await getVoiceAgent(context, caller, agent.id))
}

export async function v2UpdateVoiceAgent(
  context: OpsContext,
  caller: Caller,
  id: string,
  body: V2UpdateVoiceAgentBody,
): Promise<V2VoiceAgent> {
  const changes = checkedAs<UpdateVoiceAgentBody>(UpdateVoiceAgentBodySchema, v1FieldsOf(body))
  await getVoiceAgent(context, caller, id)
  await requireReferences(context, caller, body)
  const agent = await updateVoiceAgent(context, caller, id, changes)
  await assignNumberById(context, caller, agent.id, body.phoneNumber)
  await setActiveDictionaries(context, caller, agent.id, body.voiceDictionaryIds)
  return toV2Agent(context, caller, await getVoiceAgent(context, caller, agent.id))
}

export async function v2GetVoiceAgent(context: OpsContext, caller: Caller, id: string): Promise<V2VoiceAgent> {
  return toV2Agent(context, caller, await getVoiceAgent(context, caller, id))
}

export async function v2ListVoiceAgents(context: OpsContext, caller: Caller, query: Parameters<typeof listVoiceAgents>[2]) {
  const page = await listVoiceAgents(context, caller, query)
  const voiceAgents: V2VoiceAgent[] = []
  for (const agent of page.agents) voiceAgents.push(await toV2Agent(context, caller, agent))
  return { total: page.total, filtered: page.filtered, voiceAgents }
}

const V2_SORT = { totalCost: 'cost', createdAt: 'createdAt', updatedAt: 'updatedAt' } as const

function mediaTypeOf(record: JobRecord): 'URL' | 'UPLOAD' | 'GENERATED' | null {
  if (record.type === 'TTS') return 'GENERATED'
  if (record.sourceUrl) return 'URL'
  return record.mediaFile && record.type === 'TRANSCRIPTION' ? 'UPLOAD' : null
}

/** `GET /v2/jobs`: a page of the project's jobs (/v1's list, in /v2's words). */
export async function v2ListJobs(context: OpsContext, caller: Caller, query: V2ListJobsQuery) {
  const { jobs, filtered } = await listJobsAs(
    context,
    caller,
    query.projectId ?? caller.projectId,
    {
      take: query.perPage,
      skip: query.page,
      status: query.status,
      type: query.type,
      search: query.search,
      sort: { field: V2_SORT[query.sortBy], direction: query.orderBy },
    },
    {},
    {},
    (ctx, record) => ({
      id: record.id,
      type: record.type,
      title: record.title,
      mediaUrl: record.sourceUrl ?? mediaUrlOf(ctx, record),
      mediaType: mediaTypeOf(record),
      totalCost: record.totalCost,
      status: record.status,
      createdAt: record.createdAt,
    }),
  )
  return { jobs, page: query.page, totalCount: filtered, totalPages: Math.ceil(filtered / query.perPage) }
}

/** The body's `apiKey` names the calling key (its id): another key's id is refused. */
function requireOwnKey(caller: Caller, apiKey: string): void {
  if (apiKey.toLowerCase() !== caller.apiKeyId.toLowerCase()) {
    throw new ServiceError('FORBIDDEN', 'apiKey is not the id of the key this request is made with', [
      { path: 'apiKey', message: "Not the calling key's id" },
    ])
  }
}

/** `POST /v2/jobs`: a transcription job, answered `{ jobId }`. */
export async function v2CreateJob(context: OpsContext, caller: Caller, body: V2CreateJobBody): Promise<{ jobId: string }> {
  requireOwnKey(caller, body.apiKey)
  const job = await createTranscriptionJobFromUrl(context, caller, {
    mediaUrl: body.mediaUrl,
    model: body.model ?? 'General-V2.0',
    processingType: 'async',
    language: body.language,
    title: body.title,
    ...(body.webhookUrl === undefined ? {} : { webhookUrl: body.webhookUrl }),
    ...(body.webhookAuth === undefined ? {} : { webhookAuth: body.webhookAuth }),
  })
  return { jobId: job.id }
}

/**
 * `POST /v2/jobs/generate-transcription-ai-content`: a transcription job that, once COMPLETED,
 * makes the AI-content part asked for (in the same transaction as its end). Answers the
 * transcription's id: `GET /v1/jobs/ai-content?jobId=` with it reads the AI content once made.
 */
export async function v2TranscriptionAiContent(
  context: OpsContext,
  caller: Caller,
  body: V2TranscriptionAiContentBody,
): Promise<{ jobId: string }> {
  requireOwnKey(caller, body.apiKey)
  const job = await createTranscriptionJobFromUrl(
    context,
    caller,
    {
      mediaUrl: body.mediaUrl,
      model: 'General-V2.0',
      processingType: 'async',
      language: body.language,
      title: body.title,
      ...(body.webhookUrl === undefined ? {} : { webhookUrl: body.webhookUrl }),
      ...(body.webhookAuth === undefined ? {} : { webhookAuth: body.webhookAuth }),
    },
    undefined,
    { aiParts: body.aiParts, ...(body.aiContentTitle ? { title: body.aiContentTitle } : {}) },
  )
  return { jobId: job.id }
}
