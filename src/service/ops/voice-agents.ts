import { randomUUID } from 'node:crypto'
import {
  AGENT_LIMITS,
  TURN_TAKING_DEFAULTS,
  preambleText,
  type CloneVoiceAgentBody,
  type CreateVoiceAgentBody,
  type Lang,
  type ListVoiceAgentsQuery,
  type UpdateVoiceAgentBody,
  type VoiceAgent,
  type VoiceAgentTemplate,
} from '../../shared/api/voice-agents'
import { ok } from '../../shared/api/common'
import { defaultVoiceFor, findVoice } from '../../shared/voices'
import type { Repositories, TransactionPart } from '../../store/ports'
import type { VoiceAgentRecord } from '../../store/records'
import { templateAgentSettings } from './templates-catalogue'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { notFound } from './service-error'
import { requireWebhookTarget } from './webhook-target'
import type { OutcomeShape } from '../../shared/api/outcome-shape'
import type { AgentVersionSource } from '../../shared/api/agent-versions'

/** Defaults of a new agent, per language (docs/api.md, "Create a voice agent"). */
const AGENT_DEFAULTS: Record<Lang, { greetingMessage: string; pokeMessages: string[] }> = {
  en: { greetingMessage: 'Hello! How can I help you today?', pokeMessages: ['Are you still there?', 'Take your time, I am listening.'] },
  ar: { greetingMessage: 'مرحباً! كيف يمكنني مساعدتك اليوم؟', pokeMessages: ['هل ما زلت معي؟', 'خذ وقتك، أنا أستمع إليك.'] },
}
const DEFAULT_SILENCE_THRESHOLD = 8

/** Only the last four characters of a stored secret are ever shown. */
export function maskSecret(secret: string): string {
  return secret.length >= 12 ? `****${secret.slice(-4)}` : '****'
}

export function toVoiceAgentDto(context: OpsContext, record: VoiceAgentRecord): VoiceAgent {
  const voice = findVoice(record.voiceId) ?? defaultVoiceFor(record.lang)
  return {
    id: record.id,
    agentName: record.agentName,
    greetingMessage: record.greetingMessage,
    description: record.description,
    preamble: record.preamble,
    lang: record.lang,
    pokeMessages: record.pokeMessages,
    realTime: record.realTime,
    silenceThreshold: record.silenceThreshold,
    interrupt: record.interrupt,
    endOfTurnSilenceMs: record.endOfTurnSilenceMs,
    maxCallerTurnSeconds: record.maxCallerTurnSeconds,
    outcome: record.outcome,
    // Checked against OutcomeResponseShapeSchema when it was written; stored as it came.
    outcomeResponseShape: record.outcomeResponseShape as OutcomeShape | null,
    projectId: record.projectId,
    apiKeyId: record.apiKeyId,
    voiceRecordId: voice.id,
    voiceRecord: { id: voice.id, name: voice.name, lang: voice.lang, gender: voice.gender },
    webhookUrl: record.webhookUrl,
    webhookAuth:
      record.webhookAuthKey !== null && record.webhookAuthSecret !== null
        ? { authKey: record.webhookAuthKey, authSecret: maskSecret(context.secrets.decrypt(record.webhookAuthSecret)) }
        : null,
    params: record.params,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}

/** Applies the fields present in `changes` to `record`; absent fields stay as they are. */
function applyChanges(context: OpsContext, record: VoiceAgentRecord, changes: UpdateVoiceAgentBody): VoiceAgentRecord {
  const next = { ...record }
  if (changes.agentName !== undefined) next.agentName = changes.agentName
  if (changes.greetingMessage !== undefined) next.greetingMessage = changes.greetingMessage
  if (changes.preamble !== undefined) next.preamble = preambleText(changes.preamble)
  if (changes.lang !== undefined) next.lang = changes.lang
  if (changes.pokeMessages !== undefined) next.pokeMessages = changes.pokeMessages
  if (changes.realTime !== undefined) next.realTime = changes.realTime
  if (changes.silenceThreshold !== undefined) next.silenceThreshold = changes.silenceThreshold
  if (changes.interrupt !== undefined) next.interrupt = changes.interrupt
  if (changes.endOfTurnSilenceMs !== undefined) next.endOfTurnSilenceMs = changes.endOfTurnSilenceMs
  if (changes.maxCallerTurnSeconds !== undefined) next.maxCallerTurnSeconds = changes.maxCallerTurnSeconds
  if (changes.outcome !== undefined) next.outcome = changes.outcome
  if (changes.outcomeResponseShape !== undefined) {
    next.outcomeResponseShape = changes.outcomeResponseShape as Record<string, unknown> | null
  }
  if (changes.webhookUrl) requireWebhookTarget(context, changes.webhookUrl, 'webhookUrl')
  if (changes.webhookUrl !== undefined) next.webhookUrl = changes.webhookUrl
  if (changes.webhookAuth !== undefined) {
    next.webhookAuthKey = changes.webhookAuth?.authKey ?? null
    next.webhookAuthSecret = changes.webhookAuth ? context.secrets.encrypt(changes.webhookAuth.authSecret) : null
  }
  if (changes.voiceId !== undefined) next.voiceId = changes.voiceId
  // tools is a set of switches: a PATCH flips the ones it names. params is replaced whole.
  if (changes.tools !== undefined) next.tools = { ...record.tools, ...changes.tools }
  if (changes.params !== undefined) next.params = changes.params
  return next
}

/** Writes a new agent and its version 1, in one transaction. */
async function insertWithFirstVersion(context: OpsContext, record: VoiceAgentRecord, source: AgentVersionSource): Promise<void> {
  await context.store.transaction(async (tx) => {
    await tx.voiceAgents.insert(record)
    await tx.voiceAgents.addVersion(record, source, record.createdAt)
  })
}

/** `id`: a fixed id (a seed file's); a new one by default. */
export async function createVoiceAgent(
  context: OpsContext,
  caller: Caller,
  body: CreateVoiceAgentBody,
  id: string = randomUUID(),
): Promise<VoiceAgent> {
  const at = timestamp(context)
  const lang = body.lang ?? 'en'
  const base: VoiceAgentRecord = {
    id,
    projectId: caller.projectId,
    apiKeyId: caller.apiKeyId,
    agentName: body.agentName,
    description: body.description ?? '',
    greetingMessage: AGENT_DEFAULTS[lang].greetingMessage,
    preamble: '',
    lang,
    pokeMessages: AGENT_DEFAULTS[lang].pokeMessages,
    realTime: true,
    silenceThreshold: DEFAULT_SILENCE_THRESHOLD,
    interrupt: true,
    ...TURN_TAKING_DEFAULTS,
    outcome: '',
    outcomeResponseShape: null,
    voiceId: defaultVoiceFor(lang).id,
    tools: { genderDetection: false, smartCallEnd: false },
    params: {},
    webhookUrl: null,
    webhookAuthKey: null,
    webhookAuthSecret: null,
    sourceId: null,
    createdAt: at,
    updatedAt: at,
  }
  const record = applyChanges(context, base, body)
  await insertWithFirstVersion(context, record, 'create')
  return toVoiceAgentDto(context, record)
}

export async function requireAgent(repositories: Repositories, caller: Caller, id: string): Promise<VoiceAgentRecord> {
  const record = await repositories.voiceAgents.findInProject(id, caller.projectId)
  if (!record) throw notFound('voice agent', id)
  return record
}

/** The agent, held for a change until the transaction ends: changes made at once apply one on top of the other. */
export async function requireAgentForChange(tx: TransactionPart<'voiceAgents'>, caller: Caller, id: string): Promise<VoiceAgentRecord> {
  const record = await tx.voiceAgents.findForChange(id, caller.projectId)
  if (!record) throw notFound('voice agent', id)
  return record
}

export async function getVoiceAgent(context: OpsContext, caller: Caller, id: string): Promise<VoiceAgent> {
  return toVoiceAgentDto(context, await requireAgent(context.store, caller, id))
}

/** The envelope bytes of an agent read since the database last changed, without a read or a promise; undefined when it must be read. */
export function knownVoiceAgentEnvelopeBytes(context: OpsContext, caller: Caller, id: string): Buffer | undefined {
  return context.agentEnvelopes.peek(`${caller.projectId}:${id}`)
}

/**
 * The read path of `GET /v1/voice-agents/{id}`: the whole success envelope as UTF-8 JSON
 * bytes, from the read cache. Serializing and encoding the agent again would cost more
 * than all the rest of the request.
 */
export async function getVoiceAgentEnvelopeBytes(context: OpsContext, caller: Caller, id: string): Promise<Buffer> {
  const key = `${caller.projectId}:${id}`
  const bytes =
    context.agentEnvelopes.peek(key) ??
    (await context.agentEnvelopes.get(key, async () => {
      const record = await context.store.voiceAgents.findInProject(id, caller.projectId)
      return record && Buffer.from(JSON.stringify(ok(toVoiceAgentDto(context, record))))
    }))
  if (bytes === undefined) throw notFound('voice agent', id)
  return bytes
}

/** Applies `changes` and records the result as the agent's next version, made by `source` (PATCH /v1: update; the app: ui). */
export function updateVoiceAgent(
  context: OpsContext,
  caller: Caller,
  id: string,
  changes: UpdateVoiceAgentBody,
  source: AgentVersionSource = 'update',
): Promise<VoiceAgent> {
  return context.store.transaction(async (tx) => {
    const current = await requireAgentForChange(tx, caller, id)
    const next = { ...applyChanges(context, current, changes), updatedAt: timestamp(context) }
    await tx.voiceAgents.replace(next)
    await tx.voiceAgents.addVersion(next, source, next.updatedAt)
    return toVoiceAgentDto(context, next)
  })
}

export async function listVoiceAgents(context: OpsContext, caller: Caller, query: ListVoiceAgentsQuery) {
  const { records, total, filtered } = await context.store.voiceAgents.list(
    caller.projectId,
    { search: query.search || undefined, lang: query.lang },
    query.take,
    (query.skip - 1) * query.take,
  )
  const agents = records.map((record) => toVoiceAgentDto(context, record))
  return { voiceAgents: agents, agents, total, filtered }
}

/** Deletes an agent and its versions; numbers assigned to it become unassigned (they are not deleted). */
export async function deleteVoiceAgent(context: OpsContext, caller: Caller, id: string): Promise<{ id: string; deleted: true }> {
  if (!(await context.store.voiceAgents.remove(id, caller.projectId))) throw notFound('voice agent', id)
  return { id, deleted: true }
}

function copyName(name: string, lang: Lang): string {
  const suffix = lang === 'ar' ? ' (نسخة)' : ' (copy)'
  return name.slice(0, AGENT_LIMITS.agentName - suffix.length) + suffix
}

/**
 * Copies a template or one of the caller's agents: every configurable property, a new id
 * and timestamps, the caller's project, never a template, no phone numbers.
 */
export async function cloneVoiceAgent(
  context: OpsContext,
  caller: Caller,
  sourceId: string,
  body: CloneVoiceAgentBody,
): Promise<VoiceAgent> {
  const at = timestamp(context)
  const template = context.templates.find(sourceId)
  const source: Omit<VoiceAgentRecord, 'id' | 'projectId' | 'apiKeyId' | 'createdAt' | 'updatedAt' | 'sourceId'> | undefined = template
    ? {
        ...templateAgentSettings(template),
        outcomeResponseShape: template.outcomeResponseShape as unknown as Record<string, unknown>,
        voiceId: template.voiceId,
        tools: { genderDetection: false, smartCallEnd: true },
        params: template.params,
        webhookUrl: null,
        webhookAuthKey: null,
        webhookAuthSecret: null,
      }
    : await context.store.voiceAgents.findInProject(sourceId, caller.projectId)
  if (!source) throw notFound('voice agent or template', sourceId)
  const record: VoiceAgentRecord = {
    ...source,
    id: randomUUID(),
    projectId: caller.projectId,
    apiKeyId: caller.apiKeyId,
    agentName: body?.agentName ?? copyName(source.agentName, source.lang),
    sourceId,
    createdAt: at,
    updatedAt: at,
  }
  await insertWithFirstVersion(context, record, `clone:${sourceId}`)
  return toVoiceAgentDto(context, record)
}

export function listTemplates(context: OpsContext): VoiceAgentTemplate[] {
  return [...context.templates.list()]
}
