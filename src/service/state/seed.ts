import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import { UuidSchema } from '../../shared/api/common'
import { AddPhoneNumberBodySchema } from '../../shared/api/phone-numbers'
import { CreateVoiceAgentBodySchema } from '../../shared/api/voice-agents'
import type { OpsContext, Caller } from '../ops/ops-context'
import { addPhoneNumber, assignPhoneNumber } from '../ops/phone-numbers'
import { ServiceError } from '../ops/service-error'
import { createVoiceAgent } from '../ops/voice-agents'
import type { ProjectState } from './project-state'
import { present } from '../../shared/present'

/** The seed file a data folder may hold, applied at start when the default project is empty. */
export const SEED_FILE = 'voicedesk.seed.json'

/**
 * A seed: agents as POST /v1/voice-agents bodies (with an optional fixed `id`), phone numbers
 * as POST /v1/voice-agents/phone-number bodies (with an optional fixed `id`, and `agentId`:
 * the agent it is assigned to).
 */
export const SeedSchema = z
  .object({
    agents: z
      .array(CreateVoiceAgentBodySchema.extend({ id: UuidSchema.optional() }).strict())
      .max(10_000)
      .default([]),
    phoneNumbers: z
      .array(AddPhoneNumberBodySchema.extend({ id: UuidSchema.optional(), agentId: UuidSchema.optional() }).strict())
      .max(10_000)
      .default([]),
  })
  .strict()

/** A seed that cannot be applied: names the file and the field. The service does not start. */
export class SeedError extends Error {
  constructor(file: string, path: string, message: string) {
    super(`Seed ${file}: ${path ? `${path}: ` : ''}${message}`)
    this.name = 'SeedError'
  }
}

export type SeedOutcome = { applied: false; reason: 'not-empty' } | { applied: true; counts: Record<string, number> }

/**
 * Applies the seed `file` (JSON as SeedSchema says, or a state archive `.tar.gz`) to the
 * caller's project, only when it is empty (no agents, numbers or jobs). All or nothing: a seed
 * failing half-way leaves the project empty again, and throws SeedError.
 */
export async function applySeed(file: string, context: OpsContext, state: ProjectState, caller: Caller): Promise<SeedOutcome> {
  const counts = await context.store.projectData.projectCounts(caller.projectId)
  if (counts.agents + counts.phoneNumbers + counts.jobs > 0) return { applied: false, reason: 'not-empty' }
  if (/\.(tar\.gz|tgz)$/i.test(file)) {
    try {
      const outcome = await state.importArchive(caller.projectId, createReadStream(file), { owner: caller })
      return { applied: true, counts: { ...outcome.counts } }
    } catch (error) {
      if (error instanceof ServiceError || (error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new SeedError(file, '', (error as Error).message)
      throw error
    }
  }
  let raw: unknown
  try {
    raw = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    throw new SeedError(file, '', error instanceof SyntaxError ? `not valid JSON (${error.message})` : (error as Error).message)
  }
  const parsed = SeedSchema.safeParse(raw)
  if (!parsed.success) {
    const issue = present(parsed.error.issues[0], 'the first issue of a failed parse')
    throw new SeedError(file, pathOf(issue.path), issue.message)
  }
  const seed = parsed.data
  let where = ''
  try {
    for (const [index, { id, ...body }] of seed.agents.entries()) {
      where = `agents[${index}]`
      await createVoiceAgent(context, caller, body, id)
    }
    for (const [index, { id, agentId, ...body }] of seed.phoneNumbers.entries()) {
      where = `phoneNumbers[${index}]`
      const number = await addPhoneNumber(context, caller, body, id)
      if (agentId !== undefined) {
        where = `phoneNumbers[${index}].agentId`
        await assignPhoneNumber(context, caller, { voiceAgentId: agentId, phoneNumber: number.number })
      }
    }
  } catch (error) {
    await context.store.projectData.replaceProject(caller.projectId, [])
    if (error instanceof ServiceError) {
      const detail = error.details[0]
      throw new SeedError(file, detail && !where.endsWith('agentId') ? `${where}.${detail.path}` : where, error.message)
    }
    throw new SeedError(file, where, (error as Error).message)
  }
  return { applied: true, counts: { agents: seed.agents.length, phoneNumbers: seed.phoneNumbers.length } }
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
    '',
  )
}
