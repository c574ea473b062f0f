import { randomUUID } from 'node:crypto'
import type { Pronunciation } from '../../engines/tts/pronunciations'
import {
  ACTIVE_DICTIONARIES_MAX,
  keyed,
  type CreateVoiceDictionaryBody,
  type ListVoiceDictionariesQuery,
  type ToggleDictionaryActivationBody,
  type UpdateVoiceDictionaryBody,
  type VoiceDictionary,
  type VoiceDictionarySummary,
} from '../../shared/api/voice-dictionaries'
import type { Repositories } from '../../store/ports'
import type { VoiceDictionaryView } from '../../store/records'
import { present } from '../../shared/present'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { notFound, ServiceError } from './service-error'

function toSummary(view: VoiceDictionaryView): VoiceDictionarySummary {
  return {
    id: view.id,
    name: view.name,
    wordsCount: view.words.length,
    isUsed: view.voiceAgentIds.length > 0,
    voiceAgentIds: view.voiceAgentIds,
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
  }
}

function toDictionaryDto(view: VoiceDictionaryView): VoiceDictionary {
  return { ...toSummary(view), words: view.words.map(({ word, pronunciation }) => ({ word, pronunciation })) }
}

async function requireDictionary(repositories: Pick<Repositories, 'voiceDictionaries'>, caller: Caller, id: string) {
  const view = await repositories.voiceDictionaries.findInProject(id, caller.projectId)
  if (!view) throw notFound('voice dictionary', id)
  return view
}

export async function createVoiceDictionary(context: OpsContext, caller: Caller, body: CreateVoiceDictionaryBody) {
  const at = timestamp(context)
  const id = randomUUID()
  await context.store.voiceDictionaries.insert({
    id,
    projectId: caller.projectId,
    apiKeyId: caller.apiKeyId,
    name: body.name,
    words: body.words,
    createdAt: at,
    updatedAt: at,
  })
  const view = present(await context.store.voiceDictionaries.findInProject(id, caller.projectId), `voice dictionary ${id}, just made`)
  return keyed('Voice dictionary created successfully', 'VoiceDictionaryCreatedSuccessfully', toDictionaryDto(view))
}

export async function getVoiceDictionary(context: OpsContext, caller: Caller, id: string) {
  return keyed('Success', 'VoiceDictionaryFetchedSuccessfully', toDictionaryDto(await requireDictionary(context.store, caller, id)))
}

export async function listVoiceDictionaries(context: OpsContext, caller: Caller, query: ListVoiceDictionariesQuery) {
  const filter = {
    ...(query.search !== undefined ? { search: query.search } : {}),
    ...(query.used !== undefined ? { used: query.used } : {}),
    ...(query.voiceAgentId !== undefined ? { voiceAgentId: query.voiceAgentId } : {}),
  }
  const page = await context.store.voiceDictionaries.list(caller.projectId, filter, query.take, (query.skip - 1) * query.take)
  return {
    dictionaries: page.records.map(toSummary),
    total: page.total,
    filtered: page.filtered,
    page: query.skip,
    pageSize: query.take,
  }
}

export async function updateVoiceDictionary(context: OpsContext, caller: Caller, id: string, body: UpdateVoiceDictionaryBody) {
  const view = await context.store.transaction(async (tx) => {
    const current = await requireDictionary(tx, caller, id)
    await tx.voiceDictionaries.update({
      ...current,
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.words !== undefined ? { words: body.words } : {}),
      updatedAt: timestamp(context),
    })
    return present(await tx.voiceDictionaries.findInProject(id, caller.projectId), `voice dictionary ${id}, just changed`)
  })
  return keyed('Voice dictionary updated successfully', 'VoiceDictionaryUpdatedSuccessfully', toDictionaryDto(view))
}

export async function deleteVoiceDictionary(context: OpsContext, caller: Caller, id: string) {
  if (!(await context.store.voiceDictionaries.remove(id, caller.projectId))) throw notFound('voice dictionary', id)
  return keyed('Voice dictionary deleted successfully', 'VoiceDictionaryDeletedSuccessfully', { id, deleted: true as const })
}

/** Activates or deactivates a dictionary for an agent of the project (both must be its own). */
export async function toggleDictionaryActivation(context: OpsContext, caller: Caller, body: ToggleDictionaryActivationBody) {
  await context.store.transaction(async (tx) => {
    await requireDictionary(tx, caller, body.dictionaryId)
    if (!(await tx.voiceAgents.findInProject(body.voiceAgentId, caller.projectId))) throw notFound('voice agent', body.voiceAgentId)
    if (body.isActive) {
      const active = await tx.voiceDictionaries.findActiveForAgent(body.voiceAgentId, caller.projectId)
      if (active.length >= ACTIVE_DICTIONARIES_MAX && !active.some((view) => view.id === body.dictionaryId)) {
        const message = `An agent has at most ${ACTIVE_DICTIONARIES_MAX} active dictionaries: deactivate one first`
        throw new ServiceError('CONFLICT', message, [{ path: 'isActive', message }])
      }
    }
    await tx.voiceDictionaries.setActive(body.dictionaryId, body.voiceAgentId, caller.projectId, body.isActive, timestamp(context))
  })
  const { dictionaryId, voiceAgentId, isActive } = body
  return keyed('Voice dictionary activation toggled successfully', 'VoiceDictionaryActivationToggledSuccessfully', {
    dictionaryId,
    voiceAgentId,
    isActive,
  })
}

/**
 * What the agent's voice says differently: the words of the dictionaries active for it, in the
 * order they were activated (a word in two of them: the first one's pronunciation).
 */
export async function agentPronunciations(
  repositories: Pick<Repositories, 'voiceDictionaries'>,
  voiceAgentId: string,
  projectId: string,
): Promise<Pronunciation[]> {
  const dictionaries = await repositories.voiceDictionaries.findActiveForAgent(voiceAgentId, projectId)
  return dictionaries.flatMap((dictionary) => dictionary.words)
}

/**
 * The pronunciations a speech request asks for by naming an agent (`voiceAgentId` of realtime
 * TTS and TTS jobs): none without one; a 404 for an agent that is not the caller's.
 */
export async function requestedPronunciations(
  context: OpsContext,
  caller: Caller,
  voiceAgentId: string | undefined,
): Promise<Pronunciation[]> {
  if (voiceAgentId === undefined) return []
  if (!(await context.store.voiceAgents.findInProject(voiceAgentId, caller.projectId))) throw notFound('voice agent', voiceAgentId)
  return agentPronunciations(context.store, voiceAgentId, caller.projectId)
}
