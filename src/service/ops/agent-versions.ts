import type { AgentVersion, AgentVersionSummary, ListAgentVersionsQuery } from '../../shared/api/agent-versions'
import type { VoiceAgent } from '../../shared/api/voice-agents'
import type { VoiceAgentVersionRecord } from '../../store/records'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { ServiceError } from './service-error'
import { requireAgent, requireAgentForChange, toVoiceAgentDto } from './voice-agents'

/*
 * Agent versions (docs/api.md, "Agent versions"): read, listed newest first, and restored.
 * Versions are written by the agent's own use cases (voice-agents.ts), in the transaction of
 * the change they record.
 */

function versionNotFound(id: string, version: number): ServiceError {
  return new ServiceError('NOT_FOUND', `Voice agent ${JSON.stringify(id)} has no version ${version}`)
}

/** The agent as the version holds it (its id, project and key are the agent's own, as they never change). */
function toAgentVersionDto(context: OpsContext, record: VoiceAgentVersionRecord): AgentVersion {
  const { version, source, versionedAt, ...agent } = record
  return { version, source, createdAt: versionedAt, agent: toVoiceAgentDto(context, agent) }
}

export async function listAgentVersions(
  context: OpsContext,
  caller: Caller,
  id: string,
  query: ListAgentVersionsQuery,
): Promise<{ versions: AgentVersionSummary[]; total: number; filtered: number }> {
  await requireAgent(context.store, caller, id)
  const { records, total, filtered } = await context.store.voiceAgents.listVersions(
    id,
    caller.projectId,
    query.take,
    (query.skip - 1) * query.take,
  )
  return { versions: records.map(({ version, source, versionedAt }) => ({ version, source, createdAt: versionedAt })), total, filtered }
}

export async function getAgentVersion(context: OpsContext, caller: Caller, id: string, version: number): Promise<AgentVersion> {
  await requireAgent(context.store, caller, id)
  const record = await context.store.voiceAgents.findVersion(id, caller.projectId, version)
  if (!record) throw versionNotFound(id, version)
  return toAgentVersionDto(context, record)
}

/**
 * Makes the agent's settings those of `version` again, as a new version (source `restore:<n>`):
 * history is never rewritten. Identity, creation and the clone source stay the agent's.
 */
export function restoreAgentVersion(context: OpsContext, caller: Caller, id: string, version: number): Promise<VoiceAgent> {
  return context.store.transaction(async (tx) => {
    const current = await requireAgentForChange(tx, caller, id)
    const restored = await tx.voiceAgents.findVersion(id, caller.projectId, version)
    if (!restored) throw versionNotFound(id, version)
    const { version: _number, source: _source, versionedAt: _at, ...settings } = restored
    const next = {
      ...settings,
      id: current.id,
      projectId: current.projectId,
      apiKeyId: current.apiKeyId,
      sourceId: current.sourceId,
      createdAt: current.createdAt,
      updatedAt: timestamp(context),
    }
    await tx.voiceAgents.replace(next)
    await tx.voiceAgents.addVersion(next, `restore:${version}`, next.updatedAt)
    return toVoiceAgentDto(context, next)
  })
}
